// Whole-file reads and atomic writes.
#include "perfmodel/io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
bool write_all(int fd, const std::string &content) {
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

// Writes through an open descriptor, in place: stdout, FIFOs, devices, /dev/fd/N; closes it
// when `close_it`.
void write_in_place(const std::string &path, int fd, const std::string &content, bool close_it) {
  if (!write_all(fd, content)) {
    const int err = errno;
    if (close_it)
      ::close(fd);
    cannot_write(path, err);
  }
  if (close_it && ::close(fd) != 0)
    cannot_write(path, errno);
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

void write_file_atomic(const std::string &path, const std::string &content,
                       bool may_replace_input) {
  if (path == "-" || path == "/dev/stdout") {
    std::fflush(stdout);
    write_in_place(path, STDOUT_FILENO, content, false);
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
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
      cannot_write(path, errno);
    write_in_place(path, fd, content, true);
    return;
  }
  // A regular file (or a new one): the target of a symbolic link is replaced, not the link;
  // the replacement keeps the earlier file's permission bits; a file without write permission
  // is refused (also for root, who could otherwise replace it).
  std::string target = path;
  if (exists) {
    char *real = ::realpath(path.c_str(), nullptr);
    if (!real)
      cannot_write(path, errno);
    target = real;
    std::free(real);
    if ((st.st_mode & 0222) == 0 || ::access(target.c_str(), W_OK) != 0)
      throw RuntimeFailure("cannot write " + path + ": the file is read-only");
  }
  const mode_t mode = st.st_mode & 07777;
  // The temporary: a fresh name in the target's directory, never an existing file or link.
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    tmp = target + ".tmp." + std::to_string(::getpid()) +
          (attempt ? "." + std::to_string(attempt) : "");
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                exists ? 0600 : 0644);
    if (fd < 0 && (errno != EEXIST || attempt >= 100))
      cannot_write(path, errno);
  }
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    cannot_write(path, err);
  };
  if (exists) {
    // The earlier file's owner where allowed (root replacing another user's file), then its mode.
    [[maybe_unused]] const int owned = ::fchown(fd, st.st_uid, st.st_gid);
    if (::fchmod(fd, mode) != 0)
      fail(errno);
  }
  if (!write_all(fd, content) || ::fsync(fd) != 0)
    fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    cannot_write(path, err);
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    cannot_write(path, err);
  }
}

} // namespace perfmodel::io
