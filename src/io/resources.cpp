// Resource lookup: bare names resolve in $PERFMODEL_DATA_DIR, the source tree, the installed
// share dir and next to the executable.
#include "perfmodel/io/resources.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "perfmodel/error.hpp"

namespace fs = std::filesystem;

namespace perfmodel::io {

std::vector<std::string> resource_dirs(const std::string &kind) {
  std::vector<std::string> dirs;
  if (const char *env = std::getenv("PERFMODEL_DATA_DIR"); env && *env)
    dirs.push_back(std::string(env) + "/" + kind);
  dirs.push_back(std::string(PERFMODEL_SOURCE_DIR) + "/" + kind);
  dirs.push_back(std::string(PERFMODEL_SHARE_DIR) + "/" + kind);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back((exe.parent_path().parent_path() / kind).string());
    dirs.push_back((exe.parent_path().parent_path() / "share/perfmodel" / kind).string());
  }
  return dirs;
}

std::string resolve_resource(const std::string &spec, const std::string &kind,
                             const std::vector<std::string> &exts) {
  std::error_code ec;
  if (spec.empty())
    throw InputError("empty name for " + kind);
  if (fs::is_regular_file(spec, ec))
    return spec;
  const bool looks_like_path =
      spec.find('/') != std::string::npos ||
      std::any_of(exts.begin(), exts.end(), [&](const std::string &e) {
        return spec.size() > e.size() && spec.compare(spec.size() - e.size(), e.size(), e) == 0;
      });
  if (looks_like_path)
    throw InputError(SourceLoc{spec}, "no such file");
  for (const auto &dir : resource_dirs(kind))
    for (const auto &ext : exts) {
      const fs::path p = fs::path(dir) / (spec + ext);
      if (fs::is_regular_file(p, ec))
        return p.string();
    }
  std::string known;
  for (const auto &n : list_resources(kind, exts))
    known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown " + kind + " name '" + spec + "' (known: " +
                   (known.empty() ? "none" : known) + "); give a file path or a known name");
}

std::vector<std::string> list_resources(const std::string &kind,
                                        const std::vector<std::string> &exts) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto &dir : resource_dirs(kind)) {
    if (!fs::is_directory(dir, ec))
      continue;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file(ec) && std::find(exts.begin(), exts.end(), ext) != exts.end())
        names.insert(e.path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}

} // namespace perfmodel::io
