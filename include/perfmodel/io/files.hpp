// Whole-file reads and atomic writes (temporary name + rename: a failed run never leaves a
// half-written file or destroys an earlier result, nor replaces one of its own inputs).
#pragma once

#include <string>

namespace perfmodel::io {

/// Reads a whole file and remembers it as an input of this run (remember_input). Throws
/// InputError("path: error: cannot read: ...").
std::string read_file(const std::string &path);

/// Records that this process read the open regular file `fd`: write_file_atomic will not
/// replace it. read_file calls it; readers that open files themselves (ONNX) call it too.
void remember_input(int fd);

/// Writes `content` to `path`. A regular file (or a new one) is written through a fresh
/// temporary (`<target>.tmp.<pid>`, O_EXCL | O_NOFOLLOW) and rename(), so a failed or killed run
/// leaves the earlier file intact; a symbolic link's target is replaced, not the link; the
/// earlier file's permission bits (and owner, where allowed) are kept; a file without write
/// permission is refused. "-" and /dev/stdout write to standard output; FIFOs, devices and
/// /dev/fd/N are written in place. An atomic replace gives a hard-linked file a new inode (the
/// other names keep the old content). Throws RuntimeFailure (exit 1), and InputError (exit 2)
/// when `path` is a file this run read, unless `may_replace_input` (convert rewriting a model).
void write_file_atomic(const std::string &path, const std::string &content,
                       bool may_replace_input = false);

} // namespace perfmodel::io
