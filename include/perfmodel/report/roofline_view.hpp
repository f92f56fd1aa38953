// The roofline view's data: ceilings, memory diagonals, ridge points and one point per layer.
//
// Computed once from a Prediction and its HwSpec; rendered as text/CSV/JSON/Markdown here and
// drawn by report/plot/roofline_plot. Sample (perfmodel roofline --model nin --hw v100 --batch 5):
//
//   roofline of nin on v100, batch 5, fp32, fwd
//   ceiling  simt fp32    15.7TF/s   ridge 17.4F/B (dram)  ...
//   memory   dram         900GB/s
//   layer    op      AI       attainable  predicted  time    bound
//   conv1    conv2d  46.5F/B  15.7TF/s    13.9TF/s   75.2us  compute
//
// A point's AI is the layer's FLOPs over its compulsory bytes; "attainable" is the roofline
// min(peak, AI x DRAM bandwidth) of the unit it runs on; "predicted" is FLOPs over the
// predicted time (launch overhead and calibration included). Measured points come from
// `perfmodel measure --format json` ("perfmodel.measurement/1") and are matched by layer name.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/predict.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

struct RooflineCeiling {
  std::string unit;
  DType dtype = DType::fp32;
  double flops_per_second = 0;
  bool matrix_only = false;
  bool selected = false; // a data type the layers run at (drawn solid, ridges marked)
};

struct RooflineDiagonal {
  std::string level;
  double bytes_per_second = 0;
};

struct RidgePoint {
  size_t ceiling = 0;  // index into ceilings
  size_t diagonal = 0; // index into diagonals
  double arithmetic_intensity = 0;
  double flops_per_second = 0;
};

struct RooflinePoint {
  std::string phase; // a language model's pass ("prefill", "decode"); "" for one graph
  std::string name;
  std::string op;
  int64_t flops = 0;
  int64_t bytes = 0;
  double arithmetic_intensity = 0;
  double seconds = 0;
  double attainable_flops_per_second = 0;
  double predicted_flops_per_second = 0;
  std::string bound;
  std::string unit; // "tensor fp16"
  std::optional<double> measured_seconds;
  std::optional<double> measured_flops_per_second;
  bool drawable() const { return flops > 0 && bytes > 0 && seconds > 0; }
};

/// One pass of a roofline of several (a language model's prefill and decode step).
struct RooflinePhase {
  std::string name;    // "prefill", "decode"
  int64_t tokens = 0;  // new tokens per sequence (prefill: the prompt; decode: 1)
  int64_t context = 0; // tokens already in the KV cache (decode: the KV length; prefill: 0)
  double seconds = 0;  // the pass's predicted time
};

struct RooflineData {
  std::string hardware, model;
  int64_t batch = 1;
  DType dtype = DType::fp32;
  Pass pass = Pass::fwd;
  bool calibrated = false;
  std::vector<RooflineCeiling> ceilings;
  std::vector<RooflineDiagonal> diagonals; // innermost first, DRAM last (as in the spec)
  std::vector<RidgePoint> ridges;
  std::vector<RooflinePoint> points;               // layer order (phase after phase)
  std::vector<RooflinePhase> phases;               // empty: one graph's pass (`pass`)
  std::vector<std::string> unmatched_measurements; // measured names with no such layer
  double total_seconds = 0; // with phases: their sum (one prefill and one decode step)
  /// "resnet50 on a100, batch 64, fp16, fwd"; with phases "llama-3-8b on h100, batch 8, fp16,
  /// prefill 2048 + decode at KV 4096".
  std::string title() const;
};

/// Measured seconds per layer name from `perfmodel measure --format json` output. Entries
/// without a positive `measured_seconds` are left out. Throws InputError with file:line:col.
std::map<std::string, double> parse_measurement_json(const std::string &text,
                                                     const std::string &file);

RooflineData make_roofline(const Prediction &pred, const HwSpec &hw,
                           const std::map<std::string, double> &measured = {});

/// One roofline of a language model's passes on `hw`: each (phase, prediction) pass's layers
/// as points tagged with its phase, in the order given; a ceiling is used when any pass runs
/// on it; total_seconds is the passes' sum. The predictions are of the same model, batch and
/// data type (the first one's are shown).
RooflineData
make_phase_roofline(const std::vector<std::pair<RooflinePhase, const Prediction *>> &passes,
                    const HwSpec &hw);

/// Indices of the `n` drawable points with the largest time, largest first.
std::vector<size_t> top_points_by_time(const RooflineData &d, size_t n);

std::string render_roofline(const RooflineData &d, Format f);

} // namespace perfmodel::report
