// The CPU Eigen executor's target: its schedule, calls, panels and terms
// (include/perfmodel/targets/cpu_eigen.hpp).
#include "perfmodel/targets/cpu_eigen.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/targets/cpu_eigen/work_split.hpp"

namespace perfmodel::cpu_eigen {

namespace {

// The starting rate of the cross-core term when no probe gave one (bytes per second).
constexpr double kCrossCoreStart = 3e10;
// The fitted cross-core rate stays within [start / 10, start * 100]: the two placements of a
// 2-vCPU host's vCPUs differ by 3-6x, and without the floor a class whose network layers carry
// a few hundred cross-core bytes puts its dispatch time on them (docs/model.md, "Data another
// core wrote").
constexpr double kCrossCoreBelow = 10, kCrossCoreAbove = 100;
// The epilogue rate's start and bounds (bytes of C per second over the passes): a pass over C in
// a core's L2 streams at 50-150 GB/s; the column-split passes measured 20-80 GB/s
// (docs/model.md, "Work split and epilogue, t_e"). The upper bound leaves no visible term.
constexpr double kEpilogueStart = 3e10, kEpilogueMin = 1e9, kEpilogueMax = 1e13;
// The strided gather's rate (bytes of the lowered matrix per second): 25-48 GB/s measured over
// stride 1 (docs/model.md, "Strided gather, t_g"); the bounds as the epilogue's.
constexpr double kGatherStart = 3e10, kGatherMin = 1e9, kGatherMax = 1e13;

// The classes whose kernel is Eigen's product: a partial tile is paid as panels (the depthwise
// convolutions are a kernel of ours, vectorised along the row by the compiler: whole tiles).
bool eigen_product(OpClass c) {
  return c == OpClass::gemm || c == OpClass::gemv || c == OpClass::conv || c == OpClass::pointwise;
}

double given_rate(const TermFitInputs &in, const TargetTerm &t) {
  if (!in.given)
    return 0;
  auto it = in.given->find(t.key);
  return it == in.given->end() ? 0 : it->second;
}

class CpuEigenTarget final : public ExecutionTarget {
public:
  std::string_view name() const override { return "cpu_eigen"; }

  const std::vector<TargetTerm> &terms() const override {
    static const std::vector<TargetTerm> t = {
        {"cross_core_bytes_per_second", "cross-core", TermJoin::memory,
         "rate at which one thread reads data another core wrote and still holds in its cache"},
        {"epilogue_bytes_per_second", "epilogue", TermJoin::serial,
         "rate of a fused epilogue's passes (bias, clamp) over a column-split C"},
        {"weight_bytes_per_second", "weights", TermJoin::serial,
         "rate of a convolution's first read of its weights from DRAM"},
        {"strided_lowering_bytes_per_second", "gather", TermJoin::serial,
         "rate at which im2col gathers a matrix strided along the width, element by element"},
    };
    return t;
  }

  GraphSchedule schedule(const Graph &g, const std::vector<LayerCost> &costs,
                         const Calibration &cal) const override {
    return schedule_for(g, costs, cal.cores, cal.cache_bytes(),
                        cal.has_term(terms()[kCrossCore].key));
  }

  KernelFeatures one_call(const Calibration &, const KernelFeatures &f,
                          double *calls) const override {
    *calls = 1;
    const bool per_image =
        f.images > 1 && (f.op_class == OpClass::conv || f.op_class == OpClass::pointwise);
    const double n = f.images;
    if (!per_image || (f.gemm && f.gemm->m % int64_t(n) != 0))
      return f;
    // One image's call: the counts divided among the images, the reuse distance kept. Dividing
    // the weight bytes charges their cold read once over the calls.
    KernelFeatures one = f;
    one.images = 1;
    one.flops = f.flops / n;
    one.bytes = f.bytes / n;
    one.lowered_bytes = f.lowered_bytes / n;
    one.strided_lowered_bytes = f.strided_lowered_bytes / n;
    one.cross_core_bytes = f.cross_core_bytes / n;
    one.weight_bytes = f.weight_bytes / n;
    if (one.gemm)
      one.gemm->m /= int64_t(n);
    *calls = n;
    return one;
  }

  double tiled_extent(OpClass c, double extent, double tile) const override {
    return eigen_product(c) ? panel_extent(extent, tile) : padded_extent(extent, tile);
  }

  void term_bytes(const Calibration &cal, const KernelFeatures &f, const EfficiencyTerms &e,
                  double *out) const override {
    // Data another core wrote comes from that core's cache, unless the level is the last one
    // (then it comes back from DRAM like any other).
    if (e.level + 1 < cal.memory_levels.size())
      out[kCrossCore] = f.cross_core_bytes;
    if (e.m > 0)
      out[kEpilogue] = epilogue_bytes(f, cal.cores);
    out[kWeight] = f.weight_bytes;
    out[kGather] = f.strided_lowered_bytes;
  }

  std::vector<TermFitRule> fit_rules(const TermFitInputs &in) const override {
    using Kind = TermFitRule::Kind;
    std::vector<TermFitRule> r(terms().size());
    bool any_cross = false, any_strided = false, any_unstrided = false;
    std::set<double> passes_seen;
    for (const KernelFeatures &f : *in.calls) {
      any_cross = any_cross || f.cross_core_bytes > 0;
      any_strided = any_strided || f.strided_lowered_bytes > 0;
      any_unstrided = any_unstrided || (f.lowered_bytes > 0 && !(f.strided_lowered_bytes > 0));
      passes_seen.insert(f.epilogue_sweeps);
    }
    bool any_epilogue = false, any_weights = false;
    for (const EfficiencyTerms &e : *in.terms) {
      any_epilogue = any_epilogue || e.term_bytes[kEpilogue] > 0;
      any_weights = any_weights || e.term_bytes[kWeight] > 0;
    }
    // Cross-core: fitted where samples read data another core wrote (the streaming classes'
    // network layers), from the host probe's rate with a weak prior at it; a class without
    // such samples has no term (a GEMM packs its operands: the reads hide behind packing).
    if (any_cross) {
      const double given = given_rate(in, terms()[kCrossCore]);
      const double start = given > 0 ? given : kCrossCoreStart;
      r[kCrossCore] = {Kind::fitted, start, 0, 0, given > 0, kCrossCoreBelow, kCrossCoreAbove};
    }
    // Epilogue: fitted where some calls run an epilogue over a column-split C and the calls
    // differ in their epilogue passes (else it could not be told from the peak).
    if (in.gemm_class && any_epilogue && passes_seen.size() > 1)
      r[kEpilogue] = {Kind::fitted, kEpilogueStart, kEpilogueMin, kEpilogueMax, false};
    else if (any_epilogue)
      r[kEpilogue] = {Kind::held, kEpilogueStart, 0, 0, false};
    // Cold weights: the given rate (the data-movement class's DRAM bandwidth), not fitted: it
    // would trade places with the Hockney sizes.
    const double weight = given_rate(in, terms()[kWeight]);
    if (any_weights && weight > 0)
      r[kWeight] = {Kind::given, weight, 0, 0, false};
    // Strided gather: fitted where some lowered calls gather with a stride and others copy rows
    // (with one kind only it would trade places with the lowering factor).
    if (any_strided && any_unstrided)
      r[kGather] = {Kind::fitted, kGatherStart, kGatherMin, kGatherMax, false};
    else if (any_strided)
      r[kGather] = {Kind::held, kGatherStart, 0, 0, false};
    return r;
  }

  std::string_view dram_stream_term() const override { return terms()[kWeight].key; }
};

} // namespace

const ExecutionTarget &target() {
  static const CpuEigenTarget t;
  return t;
}

GraphSchedule schedule_for(const Graph &g, const std::vector<LayerCost> &costs, int threads,
                           double cache_bytes, bool cross_core) {
  GraphSchedule s;
  const std::vector<double> reuse = input_reuse_bytes(g, costs);
  const std::vector<double> cross = cross_core
                                        ? input_cross_core_bytes(g, costs, threads, cache_bytes)
                                        : std::vector<double>(g.layers.size(), 0.0);
  s.layers.resize(g.layers.size());
  for (size_t i = 0; i < s.layers.size(); ++i)
    s.layers[i] = {reuse[i], cross[i]};
  s.weights_cached = weights_stay_cached(g, cache_bytes);
  return s;
}

bool weights_stay_cached(const Graph &g, double cache_bytes) {
  // A linear layer's weights are one streaming read per pass (the GEMV of a batch-1
  // classifier): they pass through the cache without displacing what stays.
  int64_t streamed = 0;
  for (const Layer &l : g.layers)
    if (l.op == OpKind::linear)
      for (const TensorDesc &p : l.params)
        streamed += p.bytes();
  return double(memory_footprint(g, Pass::fwd).total_bytes() - streamed) <= cache_bytes;
}

double panel_extent(double extent, double tile) {
  if (!(tile > 1) || !(extent > 0))
    return extent;
  double passes = std::floor(extent / tile), rest = extent - passes * tile;
  for (double width : {std::floor(tile / 2), std::floor(tile / 4)})
    if (width >= 1 && rest >= width)
      passes += 1, rest -= width;
  const double row_share = tile >= 4 ? kPanelRowShare : 1.0; // no quarter panel under 4 rows
  return std::max(extent, (passes + rest * row_share) * tile);
}

double epilogue_bytes(const KernelFeatures &f, int threads) {
  // A convolution's product is C[out channels x pixels] = W * cols, so the kernel's rows are
  // the model's n and its columns the model's m (one image: one_call); a linear layer's is the
  // model's shape as it stands. Per group, as the executor calls it.
  const bool conv = f.op_class == OpClass::conv || f.op_class == OpClass::pointwise;
  const bool gemm = f.op_class == OpClass::gemm || f.op_class == OpClass::gemv;
  if (!(f.epilogue_sweeps > 0) || !f.gemm || !(conv || gemm))
    return 0;
  const GemmShape &s = *f.gemm;
  const int64_t rows = conv ? s.n : s.m, cols = conv ? s.m : s.n;
  if (!work_split::gemm_runs_parallel(rows, cols, s.k, threads) ||
      work_split::gemm_splits_rows(rows, cols, s.k, threads))
    return 0;
  return f.epilogue_sweeps * double(rows) * double(cols) * double(s.groups) *
         double(bytes_of(f.dtype));
}

} // namespace perfmodel::cpu_eigen
