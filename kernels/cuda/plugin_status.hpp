// How the CUDA plugin keeps exceptions on its side of the dlopen boundary
// (kernels/cuda/plugin.hpp).
#pragma once

#include <functional>

#include "perfmodel/kernels/cuda/plugin.hpp"

namespace perfmodel::cuda_plugin {

/// Runs f and returns what it threw as a Status, never throwing itself: InputError as
/// input_error with its message and location (so that the binary's InputError(loc, message) has
/// the same what()), RuntimeFailure as runtime_failure with its what(), any other exception
/// as runtime_failure "CUDA backend: <what()>".
Status status_of(const std::function<void()> &f) noexcept;

} // namespace perfmodel::cuda_plugin
