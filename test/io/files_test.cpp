// Atomic writes: a failed write never destroys an earlier result or leaves a temporary file.
#include <doctest/doctest.h>

#include <filesystem>

#include "perfmodel/error.hpp"
#include "perfmodel/io/files.hpp"

namespace fs = std::filesystem;
using namespace perfmodel;

TEST_CASE("write_file_atomic replaces content and leaves no temporary behind") {
  const fs::path dir = fs::temp_directory_path() / "perfmodel_files_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "out.txt").string();
  io::write_file_atomic(path, "first\n");
  CHECK(io::read_file(path) == "first\n");
  io::write_file_atomic(path, "second\n");
  CHECK(io::read_file(path) == "second\n");
  // A write that cannot happen (target is a directory) keeps nothing half-written.
  fs::create_directories(dir / "sub");
  CHECK_THROWS_AS(io::write_file_atomic((dir / "sub").string(), "x"), RuntimeFailure);
  CHECK(fs::is_directory(dir / "sub"));
  int entries = 0;
  for ([[maybe_unused]] const auto &e : fs::directory_iterator(dir))
    ++entries;
  CHECK(entries == 2); // out.txt and sub/
  CHECK(io::read_file(path) == "second\n");
  fs::remove_all(dir);
}

TEST_CASE("read_file errors name the path") {
  CHECK_THROWS_WITH_AS(io::read_file("/nonexistent/perfmodel.yaml"),
                       doctest::Contains("/nonexistent/perfmodel.yaml: error: cannot read"),
                       InputError);
  CHECK_THROWS_WITH_AS(io::read_file("/tmp"), doctest::Contains("is a directory"), InputError);
}
