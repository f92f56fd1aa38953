// Whole-file reads and atomic writes.
#include "perfmodel/io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <utility>

#include "perfmodel/error.hpp"

namespace perfmodel::io {

std::string read_file(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError(SourceLoc{path}, std::string("cannot read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(SourceLoc{path}, "is a directory, not a file");
  }
  remember_input(fd);
  std::string data;
  if (st.st_size > 0)
    data.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      const int err = errno;
      ::close(fd);
      throw InputError(SourceLoc{path}, std::string("cannot read: ") + std::strerror(err));
    }
    if (n == 0)
      break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

namespace {

// The files this process has read (device, inode): write_file_atomic refuses to replace one.
std::mutex inputs_mutex;
std::set<std::pair<dev_t, ino_t>> &inputs_read() {
  static std::set<std::pair<dev_t, ino_t>> inputs;
  return inputs;
}

[[noreturn]] void cannot_write(const std::string &path, int err) {
  throw RuntimeFailure("cannot write " + path + ": " + std::strerror(err));
}

// Writes all of `content` to `fd`; false with errno set on failure.
bool write_all(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Paths that name an already open descriptor: a rename over them would replace the link (as
// root, /dev/stdout itself) or the file behind the descriptor, not write to it.
bool names_descriptor(const std::string &path) {
  return path.rfind("/dev/fd/", 0) == 0 || path.rfind("/proc/self/fd/", 0) == 0 ||
         path == "/dev/stdin" || path == "/dev/stderr";
}

} // namespace

void remember_input(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::lock_guard<std::mutex> lock(inputs_mutex);
    inputs_read().insert({st.st_dev, st.st_ino});
  }
}

OutputFile::OutputFile(const std::string &path, bool may_replace_input) : path_(path) {
  if (path == "-" || path == "/dev/stdout") {
    std::fflush(stdout);
    fd_ = STDOUT_FILENO;
    kind_ = Kind::in_place;
    return;
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0; // follows symbolic links
  if (exists && S_ISDIR(st.st_mode))
    cannot_write(path, EISDIR);
  if (exists && !may_replace_input) {
    std::lock_guard<std::mutex> lock(inputs_mutex);
    if (inputs_read().count({st.st_dev, st.st_ino}))
      throw InputError(SourceLoc{path}, "is an input of this command; writing the output there "
                                        "would replace it (name another file)");
  }
  if ((exists && !S_ISREG(st.st_mode)) || names_descriptor(path)) {
    // A FIFO, a device or a descriptor: written in place (there is nothing to keep atomic).
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0)
      cannot_write(path, errno);
    kind_ = Kind::in_place;
    owns_fd_ = true;
    return;
  }
  // A regular file (or a new one): the target of a symbolic link is replaced, not the link;
  // the replacement keeps the earlier file's permission bits; a file without write permission
  // is refused (also for root, who could otherwise replace it).
  target_ = path;
  if (exists) {
    char *real = ::realpath(path.c_str(), nullptr);
    if (!real)
      cannot_write(path, errno);
    target_ = real;
    std::free(real);
    if ((st.st_mode & 0222) == 0 || ::access(target_.c_str(), W_OK) != 0)
      throw RuntimeFailure("cannot write " + path + ": the file is read-only");
  }
  // The temporary is an unnamed file in the target's directory (O_TMPFILE) where the file
  // system has them: a run killed while writing (SIGKILL, a full disk) leaves nothing behind.
  // It is named `target.tmp.<pid>` only for the rename over the target; where O_TMPFILE is
  // not supported it is created under that name (O_EXCL, O_NOFOLLOW) and written there.
  const auto slash = target_.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : target_.substr(0, slash);
  const mode_t create_mode = exists ? 0600 : 0644;
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, create_mode);
  kind_ = fd_ >= 0 ? Kind::unnamed : Kind::named;
  owns_fd_ = true;
  if (kind_ == Kind::named)
    if (const int err = name_temporary([&] {
          fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       create_mode);
          return fd_ >= 0;
        }))
      cannot_write(path, err);
  if (exists) {
    // The earlier file's owner where allowed (root replacing another user's file), then its mode.
    [[maybe_unused]] const int owned = ::fchown(fd_, st.st_uid, st.st_gid);
    if (::fchmod(fd_, st.st_mode & 07777) != 0)
      fail(errno);
  }
}

int OutputFile::name_temporary(const std::function<bool()> &make) {
  for (int attempt = 0;; ++attempt) {
    tmp_ = target_ + ".tmp." + std::to_string(::getpid()) +
           (attempt ? "." + std::to_string(attempt) : "");
    if (make())
      return 0;
    if (errno != EEXIST || attempt >= 100)
      return errno;
  }
}

void OutputFile::fail(int err) {
  if (owns_fd_ && fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty())
    ::unlink(tmp_.c_str());
  tmp_.clear();
  done_ = true;
  cannot_write(path_, err);
}

void OutputFile::write(std::string_view piece) {
  if (done_)
    return;
  if (!write_all(fd_, piece))
    fail(errno);
}

void OutputFile::commit() {
  if (done_)
    return;
  if (kind_ == Kind::in_place) {
    done_ = true;
    if (owns_fd_ && ::close(fd_) != 0)
      cannot_write(path_, errno);
    return;
  }
  if (::fsync(fd_) != 0)
    fail(errno);
  if (kind_ == Kind::unnamed) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    if (const int err = name_temporary([&] {
          return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp_.c_str(), AT_SYMLINK_FOLLOW) == 0;
        })) {
      tmp_.clear();
      fail(err);
    }
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)
    fail(errno);
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
    fail(errno);
  done_ = true;
}

OutputFile::~OutputFile() {
  if (done_)
    return;
  if (owns_fd_ && fd_ >= 0)
    ::close(fd_);
  if (!tmp_.empty())
    ::unlink(tmp_.c_str());
}

void write_file_atomic(const std::string &path, const std::string &content,
                       bool may_replace_input) {
  OutputFile out(path, may_replace_input);
  out.write(content);
  out.commit();
}

} // namespace perfmodel::io
