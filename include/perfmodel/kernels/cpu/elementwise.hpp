// Activations and elementwise functions with numpy broadcasting, fp32, split across threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel::kernels::cpu {

/// Parameters of activations that have them (leaky_relu alpha, clip min/max).
struct ActivationParams {
  float alpha = 0.01f;
  float min = 0.0f, max = 6.0f;
};

/// True when `function` is an activation this file implements.
bool has_activation(const std::string &function);
/// out[i] = f(in[i]); in == out is allowed. Throws InputError for an unknown function.
void activation(const std::string &function, const ActivationParams &p, const float *in, float *out,
                int64_t n);

/// True when `function` is an elementwise function this file implements (unary, binary, where).
bool has_elementwise(const std::string &function);
/// Number of operands the function takes (1, 2 or 3 for where).
int elementwise_arity(const std::string &function);

/// out = f(inputs...) with numpy broadcasting of every input shape to `out_shape`.
/// Throws InputError when the shapes do not broadcast or the arity is wrong.
void elementwise(const std::string &function, const std::vector<const float *> &inputs,
                 const std::vector<Shape> &shapes, const Shape &out_shape, float *out);

} // namespace perfmodel::kernels::cpu
