// Runs gnuplot with an argument vector (fork/execv, never a shell) and installs the image.
#include "perfmodel/report/plot/render.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "perfmodel/error.hpp"
#include "perfmodel/io/files.hpp"

namespace perfmodel::report::plot {
namespace {

bool is_executable(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string search_path(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return is_executable(name) ? name : "";
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos)
      end = p.size();
    std::string dir = p.substr(start, end - start);
    std::string cand = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable(cand))
      return cand;
    start = end + 1;
  }
  return "";
}

std::string tail(const std::string &s, size_t n) {
  std::string t = s.size() > n ? "..." + s.substr(s.size() - n) : s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
    t.pop_back();
  return t;
}

} // namespace

std::string find_gnuplot() {
  const char *env = std::getenv("PERFMODEL_GNUPLOT");
  return search_path(env && *env ? env : "gnuplot");
}

int run_program(const std::vector<std::string> &argv, const std::string &dir, std::string &err,
                int timeout_seconds) {
  int fds[2];
  if (pipe(fds) != 0)
    throw RuntimeFailure(std::string("pipe: ") + std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw RuntimeFailure(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until execv.
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      dup2(devnull, 0);
      dup2(devnull, 1);
    }
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    if (chdir(dir.c_str()) != 0)
      _exit(126);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  bool killed = false;
  char buf[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int r = poll(&pfd, 1, int(left.count()));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // EOF: the child closed stderr (it exited)
    if (err.size() < (1u << 20))
      err.append(buf, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

RenderOutcome render_plot(const PlotPaths &paths, const PlotScript &plot, bool keep_script,
                          int timeout_seconds) {
  RenderOutcome o;
  o.script_path = paths.in_dir(paths.script_name);
  o.data_path = paths.in_dir(paths.data_name);
  io::write_file_atomic(o.data_path, plot.data);
  io::write_file_atomic(o.script_path, plot.script);
  std::string how = "cd " + paths.dir + " && gnuplot " + paths.script_name;

  std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    o.kept_files = true;
    o.message = "gnuplot was not found (install gnuplot-nox, or set PERFMODEL_GNUPLOT); wrote " +
                o.script_path + " and " + o.data_path + "; render them with: " + how;
    return o;
  }
  // gnuplot writes a temporary image that is renamed into place only when it succeeded.
  std::string tmp_name = "." + paths.image_name + ".tmp." + std::to_string(getpid());
  std::string err;
  int rc = run_program({gnuplot, "-e", "outfile = " + gp_quote(tmp_name), paths.script_name},
                       paths.dir, err, timeout_seconds);
  std::string tmp_path = paths.in_dir(tmp_name);
  struct stat st {};
  bool produced = stat(tmp_path.c_str(), &st) == 0 && st.st_size > 0;
  if (rc != 0 || !produced) {
    std::remove(tmp_path.c_str());
    std::string why = rc == -1  ? "timed out after " + std::to_string(timeout_seconds) + " s"
                      : rc != 0 ? "exited with status " + std::to_string(rc)
                                : "wrote no image";
    throw RuntimeFailure("gnuplot " + why + (err.empty() ? "" : ": " + tail(err, 600)) +
                         "; the script and data are kept: " + o.script_path + ", " + o.data_path);
  }
  std::string image_path = paths.in_dir(paths.image_name);
  if (std::rename(tmp_path.c_str(), image_path.c_str()) != 0) {
    int e = errno;
    std::remove(tmp_path.c_str());
    throw RuntimeFailure("cannot write " + image_path + ": " + std::strerror(e));
  }
  o.rendered = true;
  o.kept_files = keep_script;
  if (!keep_script) {
    std::remove(o.script_path.c_str());
    std::remove(o.data_path.c_str());
  }
  o.message = "wrote " + image_path +
              (keep_script ? " (script " + o.script_path + ", data " + o.data_path + ")" : "");
  return o;
}

} // namespace perfmodel::report::plot
