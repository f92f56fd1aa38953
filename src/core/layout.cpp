// Activation layouts (include/perfmodel/layout.hpp).
#include "perfmodel/layout.hpp"

#include <cctype>
#include <string>

namespace perfmodel {

std::string_view to_string(Layout l) { return l == Layout::nhwc ? "nhwc" : "nchw"; }

std::optional<Layout> parse_layout(std::string_view s) {
  std::string lower;
  for (char c : s)
    lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "nchw")
    return Layout::nchw;
  if (lower == "nhwc" || lower == "channels-last" || lower == "channels_last")
    return Layout::nhwc;
  return std::nullopt;
}

std::string_view layout_choices_text() { return "nchw, nhwc (channels-last)"; }

} // namespace perfmodel
