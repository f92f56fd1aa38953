// Error types: location formatting and the "file:line:col: error: message" text.
#include "perfmodel/error.hpp"

namespace perfmodel {

std::string SourceLoc::str() const {
  std::string s = file.empty() && line > 0 ? std::string("line ") : file;
  if (line > 0) {
    if (!file.empty())
      s.push_back(':');
    s.append(std::to_string(line));
    if (column > 0) {
      s.push_back(':');
      s.append(std::to_string(column));
    }
  }
  return s;
}

static std::string format_error(const SourceLoc &loc, const std::string &message) {
  const std::string where = loc.str();
  return (where.empty() ? std::string("perfmodel") : where) + ": error: " + message;
}

InputError::InputError(const SourceLoc &loc, const std::string &message)
    : std::runtime_error(format_error(loc, message)), loc_(loc), message_(message) {}

} // namespace perfmodel
