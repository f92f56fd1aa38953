// A minimal JSON scanner (strings, escapes, nesting) to find where an event starts in the text.
#include "io/trace/json_locate.hpp"

#include <string>

namespace perfmodel::io {

SourceLoc location_of(std::string_view text, size_t offset, const std::string &file) {
  if (offset > text.size())
    offset = text.size();
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return SourceLoc{file, line, static_cast<int>(offset - line_start) + 1};
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Skips a string starting at text[i] == '"'; returns the index after the closing quote.
size_t skip_string(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

// Offset of the `index`-th element of the array whose '[' is at text[open].
size_t element_of_array(std::string_view text, size_t open, size_t index) {
  int depth = 0;
  size_t count = 0;
  bool expect_element = true;
  for (size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (is_space(c))
      continue;
    if (depth == 0 && expect_element && c != ']') {
      if (count == index)
        return i;
      ++count;
      expect_element = false;
    }
    if (c == '"') {
      i = skip_string(text, i) - 1;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (depth == 0)
        return text.size();
      --depth;
    } else if (c == ',' && depth == 0) {
      expect_element = true;
    }
  }
  return text.size();
}

} // namespace

size_t event_offset(std::string_view text, size_t index) {
  size_t i = 0;
  while (i < text.size() && is_space(text[i]))
    ++i;
  if (i >= text.size())
    return text.size();
  if (text[i] == '[')
    return element_of_array(text, i, index);
  if (text[i] != '{')
    return text.size();
  // Walk the top-level object's keys looking for "traceEvents".
  int depth = 0;
  for (++i; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      size_t end = skip_string(text, i);
      bool is_key = depth == 0 && text.substr(i, end - i) == "\"traceEvents\"";
      i = end - 1;
      if (!is_key)
        continue;
      size_t j = end;
      while (j < text.size() && (is_space(text[j]) || text[j] == ':'))
        ++j;
      if (j < text.size() && text[j] == '[')
        return element_of_array(text, j, index);
      return text.size();
    }
    if (c == '[' || c == '{')
      ++depth;
    if (c == ']' || c == '}') {
      if (depth == 0)
        break;
      --depth;
    }
  }
  return text.size();
}

} // namespace perfmodel::io
