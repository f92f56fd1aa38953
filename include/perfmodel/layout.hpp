// The memory layout of a prediction's activations (`--layout`): NCHW or NHWC (channels-last).
// Only the GPU target reads it (docs/gpu_model.md, "Layouts"); CPU targets ignore it.
#pragma once

#include <optional>
#include <string_view>

namespace perfmodel {

/// Rank-4 activation layouts: nchw (PyTorch's and ONNX's default) or nhwc (PyTorch's
/// channels_last memory format).
enum class Layout { nchw, nhwc };

/// "nchw" or "nhwc".
std::string_view to_string(Layout l);

/// Parses nchw, nhwc, channels-last or channels_last (any case); nullopt when unknown.
std::optional<Layout> parse_layout(std::string_view s);

/// The spellings parse_layout takes, for messages: "nchw, nhwc (channels-last)".
std::string_view layout_choices_text();

} // namespace perfmodel
