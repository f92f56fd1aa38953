// Finds shipped resources (hw_specs/, models/, calibration/) by bare name or path.
#pragma once

#include <string>
#include <vector>

namespace perfmodel::io {

/// Folders searched for a resource kind ("hw_specs", "models", "calibration"), in order:
/// $PERFMODEL_DATA_DIR/<kind>, the source tree, the installed share dir, <exe>/../<kind>.
std::vector<std::string> resource_dirs(const std::string &kind);

/// `spec` is a path (used as is when it exists) or a bare name looked up as <dir>/<name><ext>
/// for each of `exts` (".yaml", ".onnx"). Throws InputError listing what was tried.
std::string resolve_resource(const std::string &spec, const std::string &kind,
                             const std::vector<std::string> &exts);

/// Bare names of every resource of a kind with one of `exts`, sorted, duplicates removed.
std::vector<std::string> list_resources(const std::string &kind,
                                        const std::vector<std::string> &exts);

} // namespace perfmodel::io
