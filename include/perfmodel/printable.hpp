// Text that is safe to print on one terminal line, and UTF-8 validation of names read from files.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace perfmodel {

/// The byte offset of the first byte of `s` that does not start or continue a well-formed
/// UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF);
/// nullopt when all of `s` is valid UTF-8.
std::optional<size_t> first_invalid_utf8(std::string_view s);

/// Throws InputError at `file`:line:col of the first byte of `text` that is not valid UTF-8
/// ("not valid UTF-8 (byte 0xff): <why>"); the column counts characters, as the YAML and CSV
/// readers do. Names read from input files end up in JSON output, which must be UTF-8: the
/// readers call this on the whole file so that a bad name is a located input error.
void require_utf8(std::string_view text, const std::string &file, const std::string &why);

/// `s` with everything that could break a one-line message or alter a terminal escaped:
/// ASCII controls (NUL..US, DEL) as \n, \r, \t, \f, \v, \b, \a or \xNN (ESC is \x1b), the C1
/// controls U+0080..U+009F as \u0080..\u009f, and bytes that are not valid UTF-8 as \xNN.
/// Valid printable UTF-8 (accents, CJK, ...) and everything else is kept as it is. The result
/// is valid UTF-8 with no control character, so a message built from it stays one line.
std::string printable(std::string_view s);

} // namespace perfmodel
