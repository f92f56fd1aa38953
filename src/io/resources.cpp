// Resource lookup: paths as given, bare names in $PERFMODEL_PATH, the installed share dir and
// the source tree (docs/lookup.md).
#include "perfmodel/io/resources.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

#include "perfmodel/error.hpp"
#include "perfmodel/nearest_name.hpp"

namespace fs = std::filesystem;

namespace perfmodel::io {

namespace {

struct KindInfo {
  const char *kind;   // folder name
  const char *noun;   // what a user calls it
  const char *option; // the option that takes it
  std::vector<std::string> exts;
};

const std::vector<KindInfo> &kinds() {
  static const std::vector<KindInfo> k = {
      {"hw_specs", "hardware spec", "--hw", {".yaml", ".yml"}},
      {"models", "model", "--model", {".yaml", ".yml", ".onnx"}},
      {"calibration", "calibration", "--calibration", {".yaml", ".yml"}}};
  return k;
}

const KindInfo *kind_info(const std::string &kind) {
  for (const auto &k : kinds())
    if (kind == k.kind)
      return &k;
  return nullptr;
}

std::string noun(const std::string &kind) {
  const KindInfo *k = kind_info(kind);
  return k ? k->noun : kind;
}

bool ends_with(const std::string &s, const std::string &e) {
  return s.size() > e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// The file in `dir` named <name><ext> for one of `exts`, the name's case ignored (an exact
// spelling first); "" when none.
std::string find_in(const std::string &dir, const std::string &name,
                    const std::vector<std::string> &exts) {
  std::error_code ec;
  for (const auto &ext : exts) {
    const fs::path p = fs::path(dir) / (name + ext);
    if (fs::is_regular_file(p, ec))
      return p.string();
  }
  if (!fs::is_directory(dir, ec))
    return "";
  std::vector<std::string> hits;
  for (const auto &e : fs::directory_iterator(dir, ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file(ec) && std::find(exts.begin(), exts.end(), ext) != exts.end() &&
        iequals(e.path().stem().string(), name))
      hits.push_back(e.path().string());
  }
  std::sort(hits.begin(), hits.end()); // deterministic when two files differ only in case
  return hits.empty() ? "" : hits.front();
}

// A path given for `kind` that names another kind's file: an .onnx file (always a model), or a
// file in a folder named after another kind (models/resnet50.yaml given to --hw).
void refuse_other_kind_path(const std::string &spec, const std::string &kind) {
  if (kind != "models" && ends_with(spec, ".onnx"))
    throw InputError(SourceLoc{spec},
                     "this is an ONNX model, not a " + noun(kind) + ": give it to --model");
  const std::string folder = fs::path(spec).parent_path().filename().string();
  for (const auto &k : kinds())
    if (k.kind != kind && folder == k.kind)
      throw InputError(SourceLoc{spec}, "this is a " + std::string(k.noun) + " (it is in a " +
                                            k.kind + "/ folder), not a " + noun(kind) +
                                            ": give it to " + k.option);
}

std::mutex share_root_mutex;
std::optional<std::string> share_root; // set_share_root's

std::optional<std::string> named_share_root() {
  std::lock_guard<std::mutex> lock(share_root_mutex);
  return share_root;
}

} // namespace

void set_share_root(const std::string &root) {
  std::lock_guard<std::mutex> lock(share_root_mutex);
  share_root = root;
}

std::vector<std::string> resource_roots() {
  std::vector<std::string> roots;
  if (const char *env = std::getenv("PERFMODEL_PATH"); env && *env) {
    const std::string s = env;
    size_t start = 0;
    while (start <= s.size()) {
      const size_t end = std::min(s.find(':', start), s.size());
      if (end > start)
        roots.push_back(s.substr(start, end - start));
      start = end + 1;
    }
  }
  // The share dir of the prefix this binary runs from (a build-tree binary has none there, so
  // an installed copy elsewhere never shadows the checkout it was built from), or the one a
  // front end in another process named (set_share_root).
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (auto named = named_share_root())
    roots.push_back(*named);
  else if (!ec)
    roots.push_back((exe.parent_path().parent_path() / "share" / "perfmodel").string());
  else
    roots.push_back(PERFMODEL_SHARE_DIR);
  roots.push_back(PERFMODEL_SOURCE_DIR);
  return roots;
}

std::vector<std::string> resource_dirs(const std::string &kind) {
  std::vector<std::string> dirs;
  for (const auto &r : resource_roots())
    dirs.push_back((fs::path(r) / kind).string());
  return dirs;
}

std::vector<Resource> find_resources(const std::string &kind,
                                     const std::vector<std::string> &exts) {
  std::map<std::string, Resource> by_name; // lower-case name -> first file found
  std::error_code ec;
  for (const auto &dir : resource_dirs(kind)) {
    if (!fs::is_directory(dir, ec))
      continue;
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file(ec) &&
          std::find(exts.begin(), exts.end(), e.path().extension().string()) != exts.end())
        files.push_back(e.path());
    // Within a folder, the extension order of `exts` decides, as in resolve_resource.
    auto rank = [&](const fs::path &p) {
      return std::find(exts.begin(), exts.end(), p.extension().string()) - exts.begin();
    };
    std::sort(files.begin(), files.end(), [&](const fs::path &a, const fs::path &b) {
      return std::pair(rank(a), a) < std::pair(rank(b), b);
    });
    for (const auto &p : files)
      by_name.emplace(ascii_lower(p.stem().string()), Resource{p.stem().string(), p.string(), dir});
  }
  std::vector<Resource> out;
  for (auto &[k, r] : by_name)
    out.push_back(std::move(r));
  return out;
}

std::vector<std::string> list_resources(const std::string &kind,
                                        const std::vector<std::string> &exts) {
  std::vector<std::string> names;
  for (const auto &r : find_resources(kind, exts))
    names.push_back(r.name);
  return names;
}

std::string resolve_resource(const std::string &spec, const std::string &kind,
                             const std::vector<std::string> &exts) {
  std::error_code ec;
  if (spec.empty())
    throw InputError("empty name for " + kind);
  const bool is_file = fs::is_regular_file(spec, ec);
  const bool looks_like_path = is_file || spec.find('/') != std::string::npos ||
                               std::any_of(exts.begin(), exts.end(), [&](const std::string &e) {
                                 return ends_with(spec, e);
                               });
  if (looks_like_path || ends_with(spec, ".onnx"))
    refuse_other_kind_path(spec, kind);
  if (is_file)
    return spec;
  if (looks_like_path)
    throw InputError(SourceLoc{spec}, "no such file");
  for (const auto &dir : resource_dirs(kind))
    if (std::string p = find_in(dir, spec, exts); !p.empty())
      return p;
  for (const auto &k : kinds()) {
    if (k.kind == kind)
      continue;
    for (const auto &dir : resource_dirs(k.kind))
      if (std::string p = find_in(dir, spec, k.exts); !p.empty())
        throw InputError("'" + spec + "' is a " + k.noun + ", not a " + noun(kind) +
                         ": give it to " + k.option + " (found " + p + ")");
  }
  const std::vector<std::string> known = list_resources(kind, exts);
  std::string list, searched;
  for (const auto &n : known)
    list += (list.empty() ? "" : ", ") + n;
  for (const auto &d : resource_dirs(kind))
    searched += (searched.empty() ? "" : ", ") + d;
  throw InputError("unknown " + noun(kind) + " '" + spec + "'" + did_you_mean(spec, known) +
                   "; known: " + (list.empty() ? "none" : list) + " (searched " + searched +
                   "); give a file path or a known name");
}

} // namespace perfmodel::io
