// Atomic writes: a failed write never destroys an earlier result or leaves a temporary file;
// special files are written in place, links followed, modes kept, inputs and read-only files
// refused.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "perfmodel/error.hpp"
#include "perfmodel/io/files.hpp"

namespace fs = std::filesystem;
using namespace perfmodel;

namespace {

// A file's content read without io::read_file (which would make it an input of this process).
std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path &p, const std::string &text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh, empty directory for one test case.
fs::path fresh_dir(const std::string &name) {
  const fs::path dir = fs::temp_directory_path() / ("perfmodel_files_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

int entries(const fs::path &dir) {
  int n = 0;
  for ([[maybe_unused]] const auto &e : fs::directory_iterator(dir))
    ++n;
  return n;
}

mode_t mode_of(const fs::path &p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

} // namespace

TEST_CASE("write_file_atomic replaces content and leaves no temporary behind") {
  const fs::path dir = fresh_dir("replace");
  const std::string path = (dir / "out.txt").string();
  io::write_file_atomic(path, "first\n");
  CHECK(slurp(path) == "first\n");
  io::write_file_atomic(path, "second\n");
  CHECK(slurp(path) == "second\n");
  // A write that cannot happen (target is a directory) keeps nothing half-written.
  fs::create_directories(dir / "sub");
  CHECK_THROWS_AS(io::write_file_atomic((dir / "sub").string(), "x"), RuntimeFailure);
  CHECK(fs::is_directory(dir / "sub"));
  CHECK(entries(dir) == 2); // out.txt and sub/
  CHECK(slurp(path) == "second\n");
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomic keeps the earlier file's mode and refuses a read-only one") {
  const fs::path dir = fresh_dir("mode");
  const fs::path p = dir / "out.txt";
  spit(p, "old\n");
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);
  io::write_file_atomic(p.string(), "new\n");
  CHECK(slurp(p) == "new\n");
  CHECK(mode_of(p) == 0600); // before: 0644
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  io::write_file_atomic(p.string(), "newer\n");
  CHECK(mode_of(p) == 0640);
  // Read-only: refused, even for root (who could replace it), and left as it was.
  fs::permissions(p, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  CHECK_THROWS_WITH_AS(io::write_file_atomic(p.string(), "overwritten\n"),
                       doctest::Contains("out.txt: the file is read-only"), RuntimeFailure);
  CHECK(slurp(p) == "newer\n");
  CHECK(mode_of(p) == 0444);
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomic replaces a symbolic link's target, not the link") {
  const fs::path dir = fresh_dir("link");
  fs::create_directories(dir / "real");
  spit(dir / "real" / "target.txt", "old\n");
  fs::create_symlink(dir / "real" / "target.txt", dir / "link.txt");
  io::write_file_atomic((dir / "link.txt").string(), "new\n");
  CHECK(fs::is_symlink(dir / "link.txt"));
  CHECK(slurp(dir / "real" / "target.txt") == "new\n");
  CHECK(entries(dir / "real") == 1); // the temporary was made (and renamed) beside the target
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomic never follows or reuses a stale temporary") {
  const fs::path dir = fresh_dir("stale");
  spit(dir / "victim.txt", "victim\n");
  const fs::path out = dir / "out.txt";
  const fs::path stale = dir / ("out.txt.tmp." + std::to_string(::getpid()));
  fs::create_symlink(dir / "victim.txt", stale);
  io::write_file_atomic(out.string(), "result\n");
  CHECK(slurp(out) == "result\n");
  CHECK(slurp(dir / "victim.txt") == "victim\n");
  CHECK(fs::is_symlink(stale));
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomic writes a FIFO in place") {
  const fs::path dir = fresh_dir("fifo");
  const fs::path fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  io::write_file_atomic(fifo.string(), "through the pipe\n");
  reader.join();
  CHECK(got == "through the pipe\n");
  CHECK(fs::is_fifo(fifo)); // before: replaced by a regular file
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomic refuses to replace a file this process read") {
  const fs::path dir = fresh_dir("input");
  const fs::path in = dir / "model.yaml";
  spit(in, "input\n");
  CHECK(io::read_file(in.string()) == "input\n");
  CHECK_THROWS_WITH_AS(io::write_file_atomic(in.string(), "output\n"),
                       doctest::Contains("model.yaml: error: is an input of this command"),
                       InputError);
  // Also through another name for the same file.
  fs::create_symlink(in, dir / "alias.yaml");
  CHECK_THROWS_AS(io::write_file_atomic((dir / "alias.yaml").string(), "output\n"), InputError);
  CHECK(slurp(in) == "input\n");
  // convert may rewrite its input on purpose.
  io::write_file_atomic(in.string(), "rewritten\n", /*may_replace_input=*/true);
  CHECK(slurp(in) == "rewritten\n");
  fs::remove_all(dir);
}

TEST_CASE("read_file errors name the path") {
  CHECK_THROWS_WITH_AS(io::read_file("/nonexistent/perfmodel.yaml"),
                       doctest::Contains("/nonexistent/perfmodel.yaml: error: cannot read"),
                       InputError);
  CHECK_THROWS_WITH_AS(io::read_file("/tmp"), doctest::Contains("is a directory"), InputError);
}

TEST_CASE("OutputFile: pieces appear at commit only; abandoned, the earlier file stays") {
  const fs::path dir = fresh_dir("pieces");
  const fs::path p = dir / "out.csv";
  spit(p, "earlier\n");
  {
    io::OutputFile out(p.string());
    out.write("a,b\n");
    out.write("1,2\n");
    CHECK(slurp(p) == "earlier\n"); // nothing visible before commit()
    out.commit();
  }
  CHECK(slurp(p) == "a,b\n1,2\n");
  CHECK(entries(dir) == 1);
  {
    io::OutputFile out(p.string());
    out.write("half of a new output");
    // an exception while the output is made: the OutputFile is destroyed without commit()
  }
  CHECK(slurp(p) == "a,b\n1,2\n");
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}
