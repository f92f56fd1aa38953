// Finds resources (hw_specs/, models/, calibration/) by bare name or path (docs/lookup.md).
#pragma once

#include <string>
#include <vector>

namespace perfmodel::io {

/// Roots searched for bare names, in order, each holding hw_specs/, models/, calibration/:
/// every entry of $PERFMODEL_PATH (colon-separated, empty entries skipped), the installed share
/// dir of this binary (<bin>/../share/perfmodel, where `cmake --install` puts the files), then
/// the source tree the binary was built from. Roots that do not exist are kept (lookups skip
/// them; messages name them).
std::vector<std::string> resource_roots();

/// Names the installed share dir that resource_roots() searches instead of the running
/// binary's: a front end loaded into another program (the Python module, whose process is the
/// Python interpreter) names the share dir of the prefix it was installed into.
void set_share_root(const std::string &root);

/// resource_roots() each joined with `kind` ("hw_specs", "models", "calibration").
std::vector<std::string> resource_dirs(const std::string &kind);

/// A resource found by name: `name` as spelled by its file, `path` the file, `folder` the
/// folder holding it (one of resource_dirs).
struct Resource {
  std::string name;
  std::string path;
  std::string folder;
};

/// `spec` is a path (used as is when it is an existing file, or when it holds a '/' or ends
/// with one of `exts`) or a bare name, looked up as <dir>/<name><ext> in resource_dirs(kind),
/// first folder first, the name's case ignored. Throws InputError when a path names a file of
/// another kind (an .onnx file, or a file in another kind's folder, given as a hardware spec),
/// when a bare name exists only as another kind ("'resnet50' is a model, not a hardware
/// spec"), or when it is unknown: the message suggests the nearest known name, lists the known
/// names and the folders searched.
std::string resolve_resource(const std::string &spec, const std::string &kind,
                             const std::vector<std::string> &exts);

/// The file each bare name of a kind resolves to (the first folder holding a name wins; names
/// compared ignoring case), sorted by name.
std::vector<Resource> find_resources(const std::string &kind, const std::vector<std::string> &exts);

/// The names of find_resources.
std::vector<std::string> list_resources(const std::string &kind,
                                        const std::vector<std::string> &exts);

} // namespace perfmodel::io
