// The bytes each layer's threads move between cores under the CPU executor's work split and
// memory plan: inputs another thread wrote, and output lines (of a reused buffer) another
// thread last touched (docs/model.md, "Cross-core traffic").
//
// The split is kernels/cpu's (the rule and its constants: cpu_eigen/work_split.hpp):
// parallel_for(n, grain) gives thread i the i-th of min(threads, ceil(n/grain)) contiguous
// chunks; a GEMM splits the rows of each image's product or its columns in 16-wide blocks
// (gemm_splits_rows), and runs on one thread when it is small
// (kernels/cpu/gemm.cpp); streaming ops split contiguous elements or planes
// (kernels/cpu/elementwise.cpp, pool.cpp, normalize.cpp, conv.cpp's depthwise); an im2col
// lowers the columns of the product its thread computes (conv.cpp).
// The buffers outputs reuse: cpu_eigen/buffer_plan.hpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/reuse.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"
#include "perfmodel/targets/cpu_eigen/buffer_plan.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

namespace perfmodel::cpu_eigen {

namespace {

using namespace work_split;

constexpr int kEveryThread = -1; // an element every thread reads
constexpr int kSamples = 4096;   // elements looked at per input

// Which thread touches element e of one tensor (flat index, row-major).
struct Split {
  enum Kind {
    units,  // parallel_for(units, grain) over runs of `unit` elements
    gemm_c, // the product C (m x n) of each block of m*n elements: its writer
    gemm_b, // the operand B (k x n) of each block's product: its reader
    gemm_a, // the operand A (m x k) of one product: its reader
    im2col, // the input of an im2col, block = one image's group of `channels` planes
  } kind = units;
  int64_t unit = 1, units_count = 1, grain = 1; // units
  int64_t m = 0, n = 0, k = 0;                  // gemm_*: the product's dimensions
  // im2col: the input plane (h*w), its height and width, the output's height and width
  int64_t plane = 1, in_h = 1, in_w = 1, out_h = 1, out_w = 1;
};

bool gemm_parallel(const Split &s, int threads) {
  return gemm_runs_parallel(s.m, s.n, s.k, threads);
}

// The thread of the product's output column j (a column split: 16-column blocks are split).
int gemm_column_thread(const Split &s, int64_t j, int threads) {
  return chunk_of(j / kGemmColumnBlock, (s.n + kGemmColumnBlock - 1) / kGemmColumnBlock, 1,
                  threads);
}

int owner(const Split &s, int64_t e, int threads) {
  switch (s.kind) {
  case Split::units:
    return chunk_of(e / s.unit, s.units_count, s.grain, threads);
  case Split::gemm_c: {
    if (!gemm_parallel(s, threads))
      return 0;
    const int64_t q = e % (s.m * s.n);
    return gemm_splits_rows(s.m, s.n, s.k, threads) ? chunk_of(q / s.n, s.m, kGemmRowGrain, threads)
                                                    : gemm_column_thread(s, q % s.n, threads);
  }
  case Split::gemm_b: // a row split reads all of B on every thread
    if (!gemm_parallel(s, threads))
      return 0;
    return gemm_splits_rows(s.m, s.n, s.k, threads) ? kEveryThread
                                                    : gemm_column_thread(s, e % s.n, threads);
  case Split::gemm_a: // a column split reads all of A on every thread
    if (!gemm_parallel(s, threads))
      return 0;
    return gemm_splits_rows(s.m, s.n, s.k, threads) ? chunk_of(e / s.k, s.m, kGemmRowGrain, threads)
                                                    : kEveryThread;
  case Split::im2col: {
    // Each thread lowers the columns of the product it computes (conv.cpp): all of them where
    // the product splits its rows; else the input pixel's output position (scaled to the
    // output plane) stands for the columns that read it.
    if (!gemm_parallel(s, threads))
      return 0;
    if (gemm_splits_rows(s.m, s.n, s.k, threads))
      return kEveryThread;
    const int64_t p = e % s.plane, y = p / s.in_w, x = p % s.in_w;
    const int64_t oy = std::min(s.out_h - 1, y * s.out_h / s.in_h);
    const int64_t ox = std::min(s.out_w - 1, x * s.out_w / s.in_w);
    return gemm_column_thread(s, oy * s.out_w + ox, threads);
  }
  }
  return 0;
}

int64_t numel_of(const Graph &g, const std::string &name) {
  const auto it = g.tensors.find(name);
  return it == g.tensors.end() ? 0 : numel(it->second.shape);
}

const Shape *shape_of(const Graph &g, const std::string &name) {
  const auto it = g.tensors.find(name);
  return it == g.tensors.end() ? nullptr : &it->second.shape;
}

Split planes(const Shape &s, int64_t grain) {
  Split p;
  p.unit = s[2] * s[3];
  p.units_count = s[0] * s[1];
  p.grain = grain;
  return p;
}

Split flat(int64_t numel) {
  Split p;
  p.units_count = numel;
  p.grain = kElementwiseGrain;
  return p;
}

struct Conv {
  enum Path { im2col, direct1x1, depthwise, other } path = other;
  int64_t groups = 1;
  std::array<int64_t, 2> kernel{1, 1};
};

// The executor's convolution path (conv.cpp conv_path), from the layer's shapes.
Conv conv_of(const Graph &g, const Layer &l) {
  Conv c;
  if (l.op != OpKind::conv2d || l.inputs.empty() || l.outputs.empty())
    return c;
  const Shape *in = shape_of(g, l.inputs[0]), *out = shape_of(g, l.outputs[0]);
  if (!in || !out || in->size() != 4 || out->size() != 4)
    return c;
  c.groups = std::max<int64_t>(1, l.attrs.get_int("groups", 1));
  auto k = l.attrs.get_ints("kernel", {1, 1}, 2);
  if (!l.params.empty() && l.params[0].shape.size() == 4)
    k = {l.params[0].shape[2], l.params[0].shape[3]};
  if (k.size() == 2)
    c.kernel = {k[0], k[1]};
  const auto stride = l.attrs.get_ints("stride", {1, 1}, 2);
  if (c.groups == (*in)[1] && c.groups > 1 && (*out)[1] % (*in)[1] == 0)
    c.path = Conv::depthwise;
  else if (c.kernel == std::array<int64_t, 2>{1, 1} && stride == std::vector<int64_t>{1, 1} &&
           (*out)[2] == (*in)[2] && (*out)[3] == (*in)[3])
    c.path = Conv::direct1x1; // no padding either: the same plane size with a 1x1 window
  else
    c.path = Conv::im2col;
  return c;
}

// How a layer's threads write its output 0; nullopt where the model does not follow it.
std::optional<Split> writer_split(const Graph &g, const Layer &l) {
  if (l.outputs.empty() || l.inputs.empty())
    return std::nullopt;
  const Shape *out = shape_of(g, l.outputs[0]), *in = shape_of(g, l.inputs[0]);
  if (!out || !in)
    return std::nullopt;
  const int64_t numel = numel_of(g, l.outputs[0]);
  switch (l.op) {
  case OpKind::activation:
  case OpKind::elementwise:
    return flat(numel);
  case OpKind::batch_norm:
    if (out->size() < 2 || (*out)[0] * (*out)[1] <= 0)
      return std::nullopt;
    {
      Split s;
      s.units_count = (*out)[0] * (*out)[1];
      s.unit = numel / s.units_count;
      s.grain = batch_norm_grain(s.unit);
      return s;
    }
  case OpKind::max_pool:
  case OpKind::avg_pool:
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
    return out->size() == 4 ? std::optional<Split>(planes(*out, 1)) : std::nullopt;
  case OpKind::conv2d: {
    const Conv c = conv_of(g, l);
    if (c.path == Conv::depthwise)
      return planes(*out, 1);
    if (c.path == Conv::other)
      return std::nullopt;
    Split s;
    s.kind = Split::gemm_c;
    s.m = (*out)[1] / c.groups;
    s.n = (*out)[2] * (*out)[3];
    s.k = (*in)[1] / c.groups * c.kernel[0] * c.kernel[1];
    return s;
  }
  case OpKind::linear: {
    Split s;
    s.kind = Split::gemm_c;
    s.n = out->empty() ? 0 : out->back();
    s.k = in->empty() ? 0 : in->back();
    s.m = s.n > 0 ? numel / s.n : 0;
    return s.m > 0 ? std::optional<Split>(s) : std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

// How a layer's threads read its input `index`; nullopt where the model does not follow it.
std::optional<Split> reader_split(const Graph &g, const Layer &l, size_t index) {
  const Shape *in = shape_of(g, l.inputs[index]);
  const Shape *out = l.outputs.empty() ? nullptr : shape_of(g, l.outputs[0]);
  if (!in || !out)
    return std::nullopt;
  const int64_t numel = numel_of(g, l.inputs[index]);
  switch (l.op) {
  case OpKind::activation:
  case OpKind::elementwise: // a broadcast operand is read by every thread: not followed
    return numel == numel_of(g, l.outputs[0]) ? std::optional<Split>(flat(numel)) : std::nullopt;
  case OpKind::batch_norm:
    if (index != 0)
      return std::nullopt;
    return writer_split(g, l); // the same planes as its output
  case OpKind::max_pool:
  case OpKind::avg_pool:
  case OpKind::global_avg_pool:
  case OpKind::global_max_pool:
    return index == 0 && in->size() == 4 ? std::optional<Split>(planes(*in, 1)) : std::nullopt;
  case OpKind::conv2d: {
    const Conv c = conv_of(g, l);
    if (index != 0 || c.path == Conv::other)
      return std::nullopt;
    if (c.path == Conv::depthwise) // output plane p reads input plane p (multiplier 1)
      return (*out)[1] == (*in)[1] ? std::optional<Split>(planes(*in, 1)) : std::nullopt;
    Split s;
    if (c.path == Conv::direct1x1) {
      s = *writer_split(g, l);
      s.kind = Split::gemm_b;
      return s;
    }
    s.kind = Split::im2col; // the lowered product of one image and group
    s.in_h = (*in)[2], s.in_w = (*in)[3], s.out_h = (*out)[2], s.out_w = (*out)[3];
    s.plane = s.in_h * s.in_w;
    s.m = (*out)[1] / c.groups;
    s.n = s.out_h * s.out_w;
    s.k = (*in)[1] / c.groups * c.kernel[0] * c.kernel[1];
    return s;
  }
  case OpKind::linear: {
    if (index != 0)
      return std::nullopt;
    auto s = writer_split(g, l);
    if (s)
      s->kind = Split::gemm_a;
    return s;
  }
  default:
    return std::nullopt;
  }
}

// The largest over the threads of the elements of a tensor that thread reads and another
// wrote, estimated from kSamples elements spread by the golden ratio (no aliasing with the
// 16-column blocks or plane sizes), as a fraction of the tensor.
double cross_fraction(const Split &writer, const Split &reader, int64_t numel, int threads) {
  const int samples = int(std::min<int64_t>(numel, kSamples));
  std::vector<int64_t> cross(size_t(threads), 0);
  const double phi = 0.6180339887498949;
  for (int i = 0; i < samples; ++i) {
    const double u = std::fmod(0.5 + i * phi, 1.0);
    const int64_t e = std::min<int64_t>(numel - 1, int64_t(u * double(numel)));
    const int w = owner(writer, e, threads), r = owner(reader, e, threads);
    for (int t = 0; t < threads; ++t)
      if ((r == t || r == kEveryThread) && w != t)
        ++cross[size_t(t)];
  }
  return samples > 0 ? double(*std::max_element(cross.begin(), cross.end())) / samples : 0.0;
}

// The fields that decide a split, for memoising cross_fraction (networks repeat their shapes).
auto key_of(const Split &s) {
  return std::tuple(int(s.kind), s.unit, s.units_count, s.grain, s.m, s.n, s.k, s.plane, s.in_h,
                    s.in_w, s.out_h, s.out_w);
}

} // namespace

std::vector<double> input_cross_core_bytes(const Graph &g, const std::vector<LayerCost> &costs,
                                           int threads, double cache_bytes) {
  std::vector<double> out(g.layers.size(), 0.0);
  if (threads < 2)
    return out;
  std::map<std::tuple<decltype(key_of(Split{})), decltype(key_of(Split{})), int64_t>, double> memo;
  // The share of `numel` elements that the threads of `now` touch after another thread
  // touched them under `before` (the most over the threads).
  auto fraction = [&](const Split &before, const Split &now, int64_t numel) {
    const auto key = std::tuple(key_of(before), key_of(now), numel);
    auto it = memo.find(key);
    if (it == memo.end())
      it = memo.emplace(key, cross_fraction(before, now, numel, threads)).first;
    return it->second;
  };
  const ViewStorages storages(g);
  std::map<std::string, size_t> writer; // storage -> the layer that wrote it
  // The executor's buffers, and how the last layer to touch each one split it (with the
  // elements that layer touched, the layer and the tensor that lived there); absent where that
  // split is not followed.
  const BufferAssignment plan = plan_reused_buffers(g);
  struct Touch {
    Split split;
    int64_t numel = 0;
    size_t layer = 0;
    std::string tensor;
  };
  std::map<int, Touch> last_touch;
  const PassTouches touches(g, costs);
  auto buffer_of = [&](const std::string &t) {
    const auto it = plan.buffer_of.find(t);
    return it == plan.buffer_of.end() ? -1 : it->second;
  };
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer &l = g.layers[i];
    if (ViewStorages::is_view(l))
      continue;
    // Reads: data another thread wrote.
    for (size_t k = 0; k < l.inputs.size(); ++k) {
      const std::string storage = storages.of(l.inputs[k]);
      const auto w = writer.find(storage);
      if (w == writer.end())
        continue; // a graph input or a constant: nobody in the pass wrote it
      const auto ws = writer_split(g, g.layers[w->second]);
      const auto rs = reader_split(g, l, k);
      const int64_t numel = numel_of(g, storage);
      if (!ws || !rs || numel <= 0 || numel != numel_of(g, l.inputs[k]))
        continue;
      out[i] += fraction(*ws, *rs, numel) * double(g.tensors.at(storage).bytes());
    }
    // Writes: into a reused buffer whose lines another core last touched (wrote, or read: a
    // line every thread read is in both cores' caches, and a write must take it from the other)
    // and still holds: the pass has touched no more than `cache_bytes` since. Lines pushed out
    // since come from DRAM, as any write's.
    const auto ws = writer_split(g, l);
    for (size_t k = 0; k < l.outputs.size(); ++k) {
      const int b = buffer_of(l.outputs[k]);
      const auto prev = last_touch.find(b);
      const int64_t numel = numel_of(g, l.outputs[k]);
      if (k != 0 || !ws || b < 0 || prev == last_touch.end() || numel <= 0)
        continue;
      const Touch &t = prev->second;
      if (touches.distance(t.layer, i, t.tensor) > cache_bytes)
        continue;
      const int64_t overlap = std::min(numel, t.numel);
      const double bytes =
          double(g.tensors.at(l.outputs[k]).bytes()) * double(overlap) / double(numel);
      out[i] += fraction(t.split, *ws, overlap) * bytes;
    }
    // What this layer leaves behind.
    for (size_t k = 0; k < l.inputs.size(); ++k) {
      const int b = buffer_of(l.inputs[k]);
      const auto rs = reader_split(g, l, k);
      if (b < 0)
        continue; // a graph input or constant: no pool buffer
      if (rs)
        last_touch[b] = {*rs, numel_of(g, l.inputs[k]), i, storages.of(l.inputs[k])};
      else
        last_touch.erase(b);
    }
    for (size_t k = 0; k < l.outputs.size(); ++k) {
      const int b = buffer_of(l.outputs[k]);
      if (b < 0)
        continue;
      if (k == 0 && ws)
        last_touch[b] = {*ws, numel_of(g, l.outputs[k]), i, l.outputs[k]};
      else
        last_touch.erase(b);
    }
    for (const std::string &o : l.outputs)
      writer[o] = i;
  }
  return out;
}

} // namespace perfmodel::cpu_eigen
