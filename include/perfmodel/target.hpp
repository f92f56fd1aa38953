// An execution target: what one executor does to a kernel call's cost beyond the generic
// efficiency model (docs/model.md, "Execution targets").
//
// The generic model (calibration.hpp) prices a call from its counts: compute at a fitted peak
// with Hockney sizes and tile quantization, traffic at the bandwidth of a memory level, an
// overlap and a per-call overhead. A target supplies the rest, the way llvm-mca's targets
// supply CustomBehaviour:
//   - how a forward pass of a graph runs on it (schedule: the inputs' reuse distances, bytes
//     another core wrote, whether the weights stay cached between passes);
//   - which calls it makes for one layer (one_call: e.g. a convolution image by image);
//   - what a partial GEMM tile costs (tiled_extent);
//   - the terms it adds to the formula, each a number of bytes at a fitted rate of its own
//     (terms, term_bytes), and how the fit treats each term's rate (fit_rules).
// A calibration names its target (YAML `target:`); the rates of the target's terms are stored
// per class in EfficiencyParams::term_rates, in the order of terms().
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel {

struct Calibration;
struct KernelFeatures;
struct EfficiencyTerms;
struct EfficiencyParams;
enum class OpClass;

/// Where a target term's time goes in the formula: added to the memory time t_m (it overlaps
/// the product like any traffic) or after the product (it adds to the call's time).
enum class TermJoin { memory, serial };

/// One term a target adds: `key` names its rate (bytes per second, or a count per second where
/// the term counts something else) in the calibration YAML and in views; its bytes (or count)
/// come from ExecutionTarget::term_bytes.
struct TargetTerm {
  std::string key;
  std::string header; // a short column header for views ("epilogue")
  TermJoin join = TermJoin::serial;
  std::string description;  // one line, for docs and views
  std::string unit = "B/s"; // the rate's unit in views ("/s" for a count's rate)
};

/// What the executor's schedule of a forward pass gives one layer.
struct LayerSchedule {
  double reuse_bytes = 0;      // the inputs' LRU stack distance (input_reuse_bytes)
  double cross_core_bytes = 0; // bytes one thread moves from another core (0: none)
};

/// A forward pass of a graph on the target: one LayerSchedule per layer (graph order), and
/// whether the pass finds its weights still cached from the pass before.
struct GraphSchedule {
  std::vector<LayerSchedule> layers;
  bool weights_cached = false;
};

/// How the fit treats one target term's rate in one class's solve.
struct TermFitRule {
  enum class Kind {
    absent, // rate 0: the term is not in the model (no sample has its bytes, or it does not apply)
    given,  // rate `start`, not fitted, written as is
    fitted, // fitted in [lower, upper] from `start` (with a weak prior at `start` if `prior`)
    held,   // held at `start` during the solve and written as 0: the samples carry the term's
            // bytes but cannot tell its rate from the other parameters
  };
  Kind kind = Kind::absent;
  double start = 0;
  /// fitted: the bounds, either absolute (lower, upper) or, where `below` > 0, as factors under
  /// and over the start (start / below, start * above). With a hw spec the fit lowers the upper
  /// bound to the spec's fastest memory level's bandwidth (no bytes move faster:
  /// calibrate/bounds.hpp, term_rate_limit), and reports a rate that ends on either bound.
  double lower = 0, upper = 0;
  bool prior = false;
  double below = 0, above = 0;
};

/// What fit_rules sees of one class's solve.
struct TermFitInputs {
  const std::vector<KernelFeatures> *calls = nullptr;  // the samples as single calls
  const std::vector<EfficiencyTerms> *terms = nullptr; // their terms at the solve's tiles
  bool gemm_class = false;
  /// Rates known before the fit, by term key (e.g. a host probe's cross-core read rate).
  const std::map<std::string, double> *given = nullptr;
};

class ExecutionTarget {
public:
  virtual ~ExecutionTarget() = default;

  /// The name a calibration file gives (`target: <name>`).
  virtual std::string_view name() const = 0;
  /// The terms this target adds to the generic formula (none by default).
  virtual const std::vector<TargetTerm> &terms() const;
  /// Index of the term with `key` in terms(), or npos.
  size_t term_index(std::string_view key) const;

  /// A forward pass of g (one forward cost per layer, graph_cost) under `cal`. Default: the
  /// generic LRU reuse distances (input_reuse_bytes), no cross-core bytes, weights not cached.
  virtual GraphSchedule schedule(const Graph &g, const std::vector<LayerCost> &costs,
                                 const Calibration &cal) const;

  /// The call the model times for `f` on `cal`'s device, and how many of them run one after
  /// another (`*calls`). Default: `f` itself, once.
  virtual KernelFeatures one_call(const Calibration &cal, const KernelFeatures &f,
                                  double *calls) const;

  /// What one GEMM dimension of `extent` costs, in rows, under tiles of `tile` rows for a call of
  /// class `c`. Default: whole tiles, ceil(extent/tile)*tile (a partial tile costs a whole one);
  /// `extent` itself for tile <= 1.
  virtual double tiled_extent(OpClass c, double extent, double tile) const;

  /// A GEMM-like call whose tiles the target chooses itself, per call (a GPU's CTA tiles, waves
  /// and split-K): fills e's quantized_flops, m, n, k (the Hockney dimensions) and splits, and
  /// returns true; `p`, when given, is the class's parameters (the target may choose the tiles
  /// its own model finds fastest at them). False (the default): the class's tiles over the
  /// calibration's cores, as efficiency_terms does for every target.
  virtual bool tile_call(const Calibration &cal, const KernelFeatures &f, const EfficiencyParams *p,
                         EfficiencyTerms *e) const;

  /// The plane of the call's Hockney factor plane / (plane + m_half) on its whole time
  /// (calibration.hpp, plane_factor_of; 0: none). Default: a windowed pool's input plane
  /// (KernelFeatures::plane_elements), for every other call none.
  virtual double plane_of(const Calibration &cal, const KernelFeatures &f) const;

  /// Whether the fit gives each pass part (fwd, bwd_data, bwd_weight) of a class its own
  /// parameters where the samples hold several parts (ClassCalibration::pass). Default: no.
  virtual bool per_pass_classes() const { return false; }
  /// Whether the activations' layout (KernelFeatures::layout, `--layout`) changes its times:
  /// a prediction then names the layout it assumed.
  virtual bool reads_layout() const { return false; }

  /// The bytes of each of terms() for one call (`out` has terms().size() entries, zeroed), given
  /// the generic terms `e` already chosen (memory level, GEMM dimensions).
  virtual void term_bytes(const Calibration &cal, const KernelFeatures &f, const EfficiencyTerms &e,
                          double *out) const;

  /// The rate of term j (index in terms()) for a call `f` with bytes in it whose class has no
  /// rate of its own (a class fitted without such calls, or the term held in its fit). Default
  /// 0: the term is absent there.
  virtual double unfitted_term_rate(const Calibration &cal, const KernelFeatures &f,
                                    size_t j) const;

  /// How the fit treats each of terms() (one rule per term) for one class's solve.
  virtual std::vector<TermFitRule> fit_rules(const TermFitInputs &in) const;

  /// The key of the term whose rate, when not given, is the DRAM bandwidth of the fp32
  /// data_movement class (fitted first); empty: none.
  virtual std::string_view dram_stream_term() const { return {}; }
};

/// The target of calibrations that name none and of the generic model: batched calls, whole
/// tiles, no added terms.
const ExecutionTarget &generic_target();

/// Whole tiles: ceil(extent/tile)*tile; `extent` itself for tile <= 1 or extent <= 0.
double padded_extent(double extent, double tile);

} // namespace perfmodel
