// UTF-8 validation and escaping of control bytes for messages.
#include "perfmodel/printable.hpp"

#include <cstdint>
#include <cstdio>

#include "perfmodel/error.hpp"

namespace perfmodel {

namespace {

// The length of the well-formed UTF-8 sequence at s[i], or 0 when s[i] does not start one.
size_t sequence_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b = byte(i);
  if (b < 0x80)
    return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF; // the allowed range of the second byte
  if (b >= 0xC2 && b <= 0xDF)
    n = 2;
  else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0)
      lo = 0xA0; // no overlong forms
    if (b == 0xED)
      hi = 0x9F; // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0)
      lo = 0x90; // no overlong forms
    if (b == 0xF4)
      hi = 0x8F; // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size())
    return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi)
    return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
      return 0;
  return n;
}

void append_hex(std::string &out, const char *prefix, unsigned v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "%s%0*x", prefix, digits, v);
  out += b;
}

} // namespace

std::optional<size_t> first_invalid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s, i);
    if (n == 0)
      return i;
    i += n;
  }
  return std::nullopt;
}

void require_utf8(std::string_view text, const std::string &file, const std::string &why) {
  const auto bad = first_invalid_utf8(text);
  if (!bad)
    return;
  const size_t newline = text.rfind('\n', *bad);
  const size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  int line = 1, column = 1;
  for (size_t i = 0; i < line_start; ++i)
    line += text[i] == '\n';
  for (size_t i = line_start; i < *bad; ++i) // characters: the bytes that start one
    column += (static_cast<uint8_t>(text[i]) & 0xC0) != 0x80;
  std::string byte;
  append_hex(byte, "0x", static_cast<uint8_t>(text[*bad]), 2);
  throw InputError(SourceLoc{file, line, column}, "not valid UTF-8 (byte " + byte + "): " + why);
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<uint8_t>(s[i]);
    const size_t n = sequence_length(s, i);
    if (n == 0) {
      append_hex(out, "\\x", b, 2);
      ++i;
      continue;
    }
    if (n == 1 && (b < 0x20 || b == 0x7F)) {
      switch (b) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\f': out += "\\f"; break;
      case '\v': out += "\\v"; break;
      case '\b': out += "\\b"; break;
      case '\a': out += "\\a"; break;
      default: append_hex(out, "\\x", b, 2);
      }
    } else if (n == 2 && b == 0xC2 && static_cast<uint8_t>(s[i + 1]) <= 0x9F) {
      append_hex(out, "\\u", static_cast<uint8_t>(s[i + 1]), 4); // C1 control U+0080..U+009F
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

} // namespace perfmodel
