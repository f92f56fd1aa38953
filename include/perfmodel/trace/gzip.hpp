// gzip decompression (zlib) for trace files written as .json.gz.
#pragma once

#include <string>
#include <string_view>

namespace perfmodel::io {

/// True when `data` starts with the gzip magic bytes 1f 8b.
bool is_gzip(std::string_view data);

/// Inflates every gzip member of `data`. Throws InputError("file: error: ...") for a corrupt
/// or truncated stream; `file` names the input in that message.
std::string gunzip(std::string_view data, const std::string &file);

} // namespace perfmodel::io
