// Whole-file reads and atomic writes (temporary name + rename: a failed run never leaves a
// half-written file or destroys an earlier result, nor replaces one of its own inputs).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace perfmodel::io {

/// Reads a whole file and remembers it as an input of this run (remember_input). Throws
/// InputError("path: error: cannot read: ...").
std::string read_file(const std::string &path);

/// Records that this process read the open regular file `fd`: write_file_atomic will not
/// replace it. read_file calls it; readers that open files themselves (ONNX) call it too.
void remember_input(int fd);

/// Writes `content` to `path`. A regular file (or a new one) is written through a temporary in
/// its directory and rename(), so a failed or killed run leaves the earlier file intact: an
/// unnamed O_TMPFILE, linked as `<target>.tmp.<pid>` only once written (a run killed while
/// writing, or a full disk, leaves no file behind; one killed between that link and the rename
/// leaves the complete temporary), or where the file system has no O_TMPFILE a file created
/// under that name (O_EXCL | O_NOFOLLOW; a run killed while writing leaves it, partial); a
/// symbolic link's target is replaced, not the link; the earlier file's permission bits (and owner, where allowed) are kept; a file without write
/// permission is refused. "-" and /dev/stdout write to standard output; FIFOs, devices and
/// /dev/fd/N are written in place. An atomic replace gives a hard-linked file a new inode (the
/// other names keep the old content). Throws RuntimeFailure (exit 1), and InputError (exit 2)
/// when `path` is a file this run read, unless `may_replace_input` (convert rewriting a model).
void write_file_atomic(const std::string &path, const std::string &content,
                       bool may_replace_input = false);

/// An output written in pieces, with write_file_atomic's guarantees: the constructor makes the
/// checks and opens the temporary (or the FIFO, device or standard output), write() appends,
/// commit() puts the file in place. Destroyed without commit() (an exception while the output
/// was being made), the temporary is removed and an earlier file stays as it was. Errors throw
/// as write_file_atomic's do. Large outputs (a sweep) stream through it instead of being held.
class OutputFile {
public:
  explicit OutputFile(const std::string &path, bool may_replace_input = false);
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  ~OutputFile();
  void write(std::string_view piece);
  void commit();

private:
  enum class Kind { in_place, unnamed, named };
  int name_temporary(const std::function<bool()> &make);
  [[noreturn]] void fail(int err);
  std::string path_, target_, tmp_;
  int fd_ = -1;
  bool owns_fd_ = false;
  Kind kind_ = Kind::in_place;
  bool done_ = false;
};

} // namespace perfmodel::io
