// The GPU target (include/perfmodel/targets/gpu.hpp): its calls, tiles, terms and fit rules.
#include "perfmodel/targets/gpu.hpp"

#include <algorithm>

#include "perfmodel/calibration.hpp"
#include "perfmodel/targets/gpu/arch.hpp"
#include "perfmodel/targets/gpu/conv_rules.hpp"
#include "perfmodel/targets/gpu/direct.hpp"
#include "perfmodel/targets/gpu/layout.hpp"
#include "perfmodel/targets/gpu/streaming.hpp"
#include "perfmodel/targets/gpu/tiles.hpp"

namespace perfmodel::gpu {

namespace {

// The split-K partial sums' rate when the fit is given none (bytes per second) and its bounds
// as factors around it: the sums of a call that does not fill the SMs stay in L2 or reach DRAM.
constexpr double kSplitKStart = 2e12, kSplitKBelow = 20, kSplitKAbove = 20;
// The per-CTA start-up rate's start (CTAs per SM per second: 1 us per CTA per SM) and its
// bounds (0.1 ns to 100 us per CTA per SM).
constexpr double kCtaStartStart = 1e6, kCtaStartMin = 1e4, kCtaStartMax = 1e10;
// The layout conversions' rate's bounds as factors around its start (gpu/layout.hpp).
constexpr double kLayoutBelow = 20, kLayoutAbove = 4;

const GpuArch &arch_of(const Calibration &cal) {
  return arch_for(cal.hardware.empty() ? cal.device.name : cal.hardware);
}

class GpuTarget final : public ExecutionTarget {
public:
  std::string_view name() const override { return "gpu"; }

  const std::vector<TargetTerm> &terms() const override {
    static const std::vector<TargetTerm> t = {
        {"split_k_bytes_per_second", "split-K", TermJoin::memory,
         "rate at which a split-K call writes its partial sums and reads them back"},
        {"cta_starts_per_second", "CTA starts", TermJoin::serial,
         "rate at which each SM runs a streaming kernel's CTAs besides their bytes (its count: "
         "the call's CTAs per SM)",
         "/s"},
        {"layout_bytes_per_second", "layout", TermJoin::serial,
         "rate of the layout conversions around a convolution run in a layout other than its "
         "kernel's"},
    };
    return t;
  }

  KernelFeatures one_call(const Calibration &cal, const KernelFeatures &f,
                          double *calls) const override {
    *calls = 1;
    KernelFeatures one = f;
    one.images = 1;
    one.lowered_bytes = 0; // implicit GEMM: the im2col matrix is never written
    one.strided_lowered_bytes = 0;
    one.bytes = std::max(0.0, f.bytes - strided_1x1_unread_bytes(f)) +
                batch_norm_reread_bytes(f, arch_of(cal).bn_single_read_bytes);
    return one;
  }

  bool tile_call(const Calibration &cal, const KernelFeatures &f, const EfficiencyParams *p,
                 EfficiencyTerms *e) const override {
    // A depthwise convolution runs PyTorch's direct kernels (direct.hpp): their work, no CTA
    // tiles and no Hockney factor but the parallelism factor of its CTAs (plane_of).
    if (is_depthwise(f.op_class)) {
      e->quantized_flops = f.flops * depthwise_work_factor(f);
      e->m = e->n = e->k = 0;
      e->splits = 1;
      return true;
    }
    // A matrix-vector product runs cuBLAS's GEMV kernels, not CTA tiles of a product: the
    // generic tiles of its class.
    if (f.op_class != OpClass::gemm && f.op_class != OpClass::conv &&
        f.op_class != OpClass::pointwise)
      return false;
    const GpuArch &arch = arch_of(cal);
    const GemmShape &s = *f.gemm;
    const bool tensor = tensor_dtype(f.dtype) && tensor_cores_aligned(f);
    TileRates r;
    if (p && e->level < p->bytes_per_second.size())
      r = {p->peak_flops_per_second, p->bytes_per_second[e->level], p->m_half, p->n_half,
           p->k_half};
    const TileChoice c =
        choose_tiles(tensor ? arch.tensor_tiles : arch.simt_tiles, cal.cores, double(s.m),
                     double(s.n), double(s.k), double(s.groups), f.bytes, p ? &r : nullptr);
    const double factor = winograd_work_factor(f) * alignment_work_factor(f, arch);
    e->quantized_flops = f.flops * (c.useful > 0 ? c.work / c.useful : 1.0) * factor;
    e->m = c.tile.m;
    e->n = c.tile.n;
    e->k = c.k_per_split;
    e->splits = c.splits;
    return true;
  }

  // The streaming classes' and the depthwise kernels' parallelism: CTAs per SM (streaming.hpp,
  // direct.hpp); a windowed pool's plane of the generic model gives way to it.
  double plane_of(const Calibration &cal, const KernelFeatures &f) const override {
    if (is_depthwise(f.op_class))
      return depthwise_plane(f, cal.cores);
    return streaming_plane(f, cal.cores);
  }

  bool per_pass_classes() const override { return true; }
  bool reads_layout() const override { return true; } // conversions (gpu/layout.hpp)

  void term_bytes(const Calibration &cal, const KernelFeatures &f, const EfficiencyTerms &e,
                  double *out) const override {
    if (e.splits > 1 && f.gemm)
      out[kSplitK] =
          8.0 * double(f.gemm->m) * double(f.gemm->n) * double(f.gemm->groups) * e.splits;
    out[kCtaStart] = cta_start_count(f, cal.cores);
    out[kLayout] = layout_conversion_bytes(f);
  }

  double unfitted_term_rate(const Calibration &cal, const KernelFeatures &f,
                            size_t j) const override {
    return j == kLayout ? layout_unfitted_rate(cal, f, j) : 0.0;
  }

  std::vector<TermFitRule> fit_rules(const TermFitInputs &in) const override {
    using Kind = TermFitRule::Kind;
    std::vector<TermFitRule> r(terms().size());
    bool split = false, unsplit = false;
    for (const EfficiencyTerms &e : *in.terms)
      (e.term_bytes[kSplitK] > 0 ? split : unsplit) = true;
    // Fitted where some calls split and others do not (else it trades places with the peak);
    // held at its start where all split.
    if (split && unsplit)
      r[kSplitK] = {Kind::fitted, kSplitKStart, 0, 0, true, kSplitKBelow, kSplitKAbove};
    else if (split)
      r[kSplitK] = {Kind::given, kSplitKStart, 0, 0, false};
    // Fitted where the calls' bytes per CTA and CTAs per SM both vary (streaming.hpp); else
    // absent, and the class keeps the formula it had without the term.
    std::vector<double> planes; // CTAs per SM: the spans of the CTAs themselves
    for (const EfficiencyTerms &e : *in.terms)
      planes.push_back(e.term_bytes[kCtaStart]);
    if (cta_start_visible(*in.calls, planes))
      r[kCtaStart] = {Kind::fitted, kCtaStartStart, kCtaStartMin, kCtaStartMax, false};
    // The conversions: fitted where some calls convert and others do not (the same shapes in
    // both layouts tell them apart); held at the start where all convert (written as 0: a
    // prediction then takes layout_unfitted_rate).
    bool converted = false, native = false;
    for (const EfficiencyTerms &e : *in.terms)
      (e.term_bytes[kLayout] > 0 ? converted : native) = true;
    if (converted && native)
      r[kLayout] = {Kind::fitted, kLayoutStart, 0, 0, true, kLayoutBelow, kLayoutAbove};
    else if (converted)
      r[kLayout] = {Kind::held, kLayoutStart, 0, 0, false};
    return r;
  }
};

} // namespace

const ExecutionTarget &target() {
  static const GpuTarget t;
  return t;
}

} // namespace perfmodel::gpu
