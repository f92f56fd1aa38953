// The one way perfmodel writes JSON text.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace perfmodel::report {

/// `j` indented by 2, with a final newline. Never throws for text that is not UTF-8: the
/// readers reject such names (perfmodel::require_utf8), and what can still carry any bytes (a
/// model named after a file path given on the command line) is written with each bad byte
/// replaced by U+FFFD, so a JSON output is always valid JSON.
/// A template so that nlohmann::ordered_json keeps its key order.
template <class Json> std::string json_text(const Json &j) {
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace perfmodel::report
