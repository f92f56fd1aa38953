// Error types shared by all layers: input errors carry a source location and map to exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace perfmodel {

/// Where in an input file something was found (1-based line and column; 0 = unknown).
struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;

  /// "file:line:col", "file" or "" depending on what is known.
  std::string str() const;
};

/// Bad user input (malformed file, unknown op, shape mismatch). The CLI prints
/// `what()` as one line and exits with status 2.
class InputError : public std::runtime_error {
public:
  InputError(const SourceLoc &loc, const std::string &message);
  explicit InputError(const std::string &message) : InputError(SourceLoc{}, message) {}
  const SourceLoc &loc() const { return loc_; }
  const std::string &message() const { return message_; }

private:
  SourceLoc loc_;
  std::string message_;
};

/// A failure while running (device, I/O of an output file). The CLI exits with status 1.
class RuntimeFailure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace perfmodel
