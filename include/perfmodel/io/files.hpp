// Whole-file reads and atomic writes (temporary name + rename: a failed run never leaves a
// half-written file or destroys an earlier result).
#pragma once

#include <string>

namespace perfmodel::io {

/// Reads a whole file. Throws InputError("path: error: cannot read: ...").
std::string read_file(const std::string &path);

/// Writes `content` to `path` through `path.tmp.<pid>` and rename(). Throws RuntimeFailure.
void write_file_atomic(const std::string &path, const std::string &content);

} // namespace perfmodel::io
