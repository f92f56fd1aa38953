// The GPU plan's plain helpers: pointwise functions, strides, coalescing, listing.
#include <algorithm>

#include "perfmodel/error.hpp"
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"

namespace perfmodel::kernels::gpu_plan {

const std::vector<std::pair<std::string, int>> &pointwise_functions() {
  // The CUDA kernel (kernels/cuda/layer_kernels.cu, pointwise_op) implements exactly these.
  static const std::vector<std::pair<std::string, int>> f = {
      {"copy", 1}, {"relu", 1},       {"relu6", 1},     {"sigmoid", 1},     {"tanh", 1},
      {"gelu", 1}, {"silu", 1},       {"hardswish", 1}, {"hardsigmoid", 1}, {"leaky_relu", 1},
      {"elu", 1},  {"clip", 1},       {"exp", 1},       {"log", 1},         {"sqrt", 1},
      {"neg", 1},  {"abs", 1},        {"erf", 1},       {"softplus", 1},    {"add", 2},
      {"sub", 2},  {"mul", 2},        {"div", 2},       {"max", 2},         {"min", 2},
      {"pow", 2},  {"scale_shift", 3}};
  return f;
}

int pointwise_arity(const std::string &f) {
  for (const auto &[name, n] : pointwise_functions())
    if (name == f)
      return n;
  return 0;
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    s[d - 1] = s[d] * std::max<int64_t>(shape[d], 1);
  return s;
}

void coalesce(std::vector<int64_t> &shape, std::vector<StridedView *> views) {
  // Dimensions of size 1 address nothing; the rest in the order of the output's strides.
  std::vector<size_t> order;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1)
      order.push_back(d);
  const StridedView &out = *views.front();
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return out.strides[a] > out.strides[b]; });
  std::vector<int64_t> ns;
  std::vector<std::vector<int64_t>> nstr(views.size());
  for (size_t d : order) {
    bool merge = !ns.empty();
    for (size_t i = 0; merge && i < views.size(); ++i)
      merge = nstr[i].back() == views[i]->strides[d] * shape[d];
    if (merge) {
      ns.back() *= shape[d];
      for (size_t i = 0; i < views.size(); ++i)
        nstr[i].back() = views[i]->strides[d];
    } else {
      ns.push_back(shape[d]);
      for (size_t i = 0; i < views.size(); ++i)
        nstr[i].push_back(views[i]->strides[d]);
    }
  }
  if (ns.empty()) {
    ns.push_back(1);
    for (auto &s : nstr)
      s.push_back(0);
  }
  if (ns.size() > 6)
    throw InputError("GPU plan: a pointwise call over " + std::to_string(ns.size()) +
                     " dimensions that do not merge (at most 6)");
  shape = ns;
  for (size_t i = 0; i < views.size(); ++i)
    views[i]->strides = nstr[i];
}

std::vector<std::string> ModelPlan::unsupported() const {
  std::vector<std::string> out;
  for (const PlannedLayer &l : layers)
    if (!l.unsupported.empty())
      out.push_back(l.name + " (" + l.op + "): " + l.unsupported);
  return out;
}

double ModelPlan::allocated_bytes() const {
  double b = 0;
  for (const PlanTensor &t : tensors)
    if (t.alias < 0)
      b += double(t.storage_elements()) * double(bytes_of(t.dtype));
  return b;
}

std::string describe_plan(const ModelPlan &plan) {
  std::string s;
  for (const PlannedLayer &l : plan.layers) {
    s += l.name + "  " + l.op + "  " + l.path;
    if (!l.unsupported.empty())
      s += "  unsupported: " + l.unsupported;
    for (const PlanCall &c : l.calls)
      s += "  [" + c.library + ": " + c.what + "]";
    s += "\n";
  }
  return s;
}

} // namespace perfmodel::kernels::gpu_plan
