// `--layout` (cli/layout_option.hpp).
#include "cli/layout_option.hpp"

#include "cli/arg_checks.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/name_choice.hpp"

namespace perfmodel::cli {

void add_layout_option(CLI::App *cmd, std::string &layout) {
  cmd->add_option("--layout", layout,
                  "Activation layout of the convolutions: nchw (PyTorch's and ONNX's default) or "
                  "nhwc (channels-last); a GPU calibration charges the layout conversions cuDNN "
                  "runs around a convolution whose kernel takes the other (docs/gpu_model.md); "
                  "CPU targets ignore it")
      ->transform(one_of("layout", layout_choices()))
      ->default_str("nchw");
}

Layout layout_option(const std::string &layout) {
  if (layout.empty())
    return Layout::nchw;
  const auto name = canonical_name(layout_choices(), layout);
  const auto l = name ? parse_layout(*name) : std::nullopt;
  if (!l)
    throw InputError("--layout: " + unknown_name_message("layout", layout_choices(), layout));
  return *l;
}

} // namespace perfmodel::cli
