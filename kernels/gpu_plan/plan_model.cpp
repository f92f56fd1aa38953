// plan_gpu_model(): every layer of a graph as cuDNN / cuBLAS calls or kernels of our own.
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"
#include "kernels/gpu_plan/plan_ops.hpp"

namespace perfmodel::kernels::gpu_plan {

namespace detail {

bool is_float(DType d) {
  return d == DType::fp64 || d == DType::fp32 || d == DType::tf32 || d == DType::fp16 ||
         d == DType::bf16 || d == DType::fp8;
}

DType Builder::storage(DType d) const {
  if (!is_float(d))
    return DType::int64;
  return opts.dtype == DType::fp16 ? DType::fp16 : DType::fp32;
}

std::vector<int64_t> Builder::layout(const std::vector<int64_t> &shape) const {
  if (opts.channels_last && shape.size() == 4) {
    const int64_t c = shape[1], h = shape[2], w = shape[3];
    return {h * w * c, 1, w * c, c};
  }
  return row_major_strides(shape);
}

int Builder::add(const std::string &name, const std::vector<int64_t> &shape, DType dtype,
                 TensorRole role, std::vector<int64_t> strides) {
  PlanTensor t;
  t.name = name;
  t.shape = shape;
  t.strides = strides.empty() ? row_major_strides(shape) : std::move(strides);
  t.dtype = dtype;
  t.role = role;
  plan.tensors.push_back(std::move(t));
  const int i = int(plan.tensors.size() - 1);
  if (role != TensorRole::param)
    by_name[name] = i;
  return i;
}

int Builder::find(const std::string &name) const {
  const auto it = by_name.find(name);
  if (it == by_name.end())
    throw InputError("GPU plan: tensor '" + name + "' is not planned");
  return it->second;
}

StridedView Builder::whole(int t) const { return {t, 0, plan.tensors[size_t(t)].strides}; }

bool Builder::row_major(int t) const {
  const PlanTensor &x = plan.tensors[size_t(t)];
  const std::vector<int64_t> rm = row_major_strides(x.shape);
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (x.shape[d] > 1 && x.strides[d] != rm[d])
      return false;
  return true;
}

int64_t Builder::numel(int t) const {
  int64_t n = 1;
  for (int64_t d : plan.tensors[size_t(t)].shape)
    n *= d;
  return n;
}

double Builder::bytes(int t) const {
  return double(numel(t)) * double(bytes_of(plan.tensors[size_t(t)].dtype));
}

PlanCall Builder::pointwise(const std::string &f, std::vector<StridedView> in, StridedView out,
                            std::vector<int64_t> shape, const std::string &what) const {
  PlanCall c;
  c.kind = CallKind::pointwise;
  c.library = "own";
  c.function = f;
  c.in = std::move(in);
  c.out = std::move(out);
  std::vector<StridedView *> views{&c.out};
  for (StridedView &v : c.in)
    views.push_back(&v);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  c.bytes = double(n) * double(bytes_of(plan.tensors[size_t(c.out.tensor)].dtype)) *
            double(1 + c.in.size());
  coalesce(shape, views);
  c.shape = std::move(shape);
  c.what = what.empty() ? f : what;
  return c;
}

StridedView Builder::broadcast_view(int t, const std::vector<int64_t> &out_shape) const {
  const PlanTensor &x = plan.tensors[size_t(t)];
  const size_t r = x.shape.size(), R = out_shape.size();
  StridedView v{t, 0, std::vector<int64_t>(R, 0)};
  if (r > R)
    throw Unsupported("operand " + x.name + " has more dimensions than the output");
  for (size_t d = 0; d < r; ++d) {
    const int64_t s = x.shape[d], o = out_shape[R - r + d];
    if (s == o)
      v.strides[R - r + d] = s == 1 ? 0 : x.strides[d];
    else if (s != 1)
      throw Unsupported("operand " + x.name + " does not broadcast to the output");
  }
  return v;
}

} // namespace detail

namespace {

using detail::Builder;
using detail::Unsupported;

std::string layer_path(const PlannedLayer &l) {
  if (l.calls.empty())
    return "view";
  const PlanCall &c = l.calls.front();
  switch (c.kind) {
  case CallKind::conv:
    return "cudnn";
  case CallKind::gemm:
    return c.gemm.batch > 1 ? "cublas-batched" : "cublas";
  case CallKind::pointwise:
    return c.function == "copy" ? "copy" : "pointwise";
  case CallKind::layer_norm:
  case CallKind::softmax:
    return "rows";
  case CallKind::pool:
  case CallKind::global_pool:
    return "pool";
  case CallKind::gather_rows:
    return "gather";
  }
  return "own";
}

} // namespace

ModelPlan plan_gpu_model(const Graph &g, const PlanOptions &opts) {
  if (opts.dtype != DType::fp32 && opts.dtype != DType::tf32 && opts.dtype != DType::fp16)
    throw InputError("--dtype: the CUDA executor runs fp32, tf32 or fp16, not " +
                     std::string(to_string(opts.dtype)));
  Builder b{g, opts, {}, {}};
  b.plan.model = g.name;
  b.plan.dtype = opts.dtype;
  b.plan.channels_last = opts.channels_last;
  for (const TensorDesc &t : g.inputs)
    b.add(t.name, t.shape, b.storage(t.dtype), TensorRole::input, b.layout(t.shape));
  for (const TensorDesc &t : g.constants)
    b.add(t.name, t.shape, b.storage(t.dtype), TensorRole::constant);
  for (const Layer &l : g.layers) {
    PlannedLayer pl;
    pl.name = l.name;
    pl.op = std::string(to_string(l.op));
    try {
      detail::plan_layer(b, l, pl);
    } catch (const Unsupported &u) {
      pl.calls.clear();
      pl.unsupported = u.what();
    }
    // Every output exists afterwards, so that the layers after an unsupported one are planned.
    for (const std::string &o : l.outputs)
      if (!b.by_name.count(o)) {
        const TensorDesc &t = g.tensor(o);
        b.add(o, t.shape, b.storage(t.dtype), TensorRole::activation, b.layout(t.shape));
      }
    if (!pl.unsupported.empty())
      pl.path = "unsupported";
    else if (pl.path.empty())
      pl.path = layer_path(pl);
    b.plan.layers.push_back(std::move(pl));
  }
  return std::move(b.plan);
}

} // namespace perfmodel::kernels::gpu_plan
