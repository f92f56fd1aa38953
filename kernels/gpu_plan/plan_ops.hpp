// Internal: the GPU plan's builder state and the planning of one layer (plan_ops.cpp).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "perfmodel/graph.hpp"
#include "perfmodel/kernels/gpu_plan/layer_plan.hpp"

namespace perfmodel::kernels::gpu_plan::detail {

/// Why a layer cannot run on the GPU executor (caught per layer; becomes
/// PlannedLayer::unsupported).
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_float(DType d);

struct Builder {
  const Graph &g;
  PlanOptions opts;
  ModelPlan plan;
  std::map<std::string, int> by_name; // activations, inputs and constants by name

  /// The storage type of a tensor of graph type `d`: the run's float type, or int64.
  DType storage(DType d) const;
  /// The strides of an activation of `shape`: NHWC for rank 4 with channels_last, else row-major.
  std::vector<int64_t> layout(const std::vector<int64_t> &shape) const;
  /// A new tensor (row-major when `strides` is empty); its index.
  int add(const std::string &name, const std::vector<int64_t> &shape, DType dtype, TensorRole role,
          std::vector<int64_t> strides = {});
  int find(const std::string &name) const;
  StridedView whole(int t) const;
  /// Whether the tensor's elements lie in row-major order of its shape (size-1 dims ignored).
  bool row_major(int t) const;
  int64_t numel(int t) const;
  double bytes(int t) const;
  /// Tensor `t` read over an iteration space of `out_shape`, numpy broadcasting (stride 0);
  /// throws Unsupported where it does not broadcast.
  StridedView broadcast_view(int t, const std::vector<int64_t> &out_shape) const;
  /// A pointwise call of `f` over `shape` (views with one stride per dim), coalesced.
  PlanCall pointwise(const std::string &f, std::vector<StridedView> in, StridedView out,
                     std::vector<int64_t> shape, const std::string &what = "") const;
};

/// Fills `pl.calls` for layer `l`, adding its outputs and parameters to `b`; throws Unsupported.
void plan_layer(Builder &b, const Layer &l, PlannedLayer &pl);

} // namespace perfmodel::kernels::gpu_plan::detail
