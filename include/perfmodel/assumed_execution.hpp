// What a prediction assumes about how the model runs: the timing model (roofline or a
// calibration), the peaks and per-kernel launch overhead it times layers with, the memory
// bandwidth, and how layers map onto kernels (fusion). Every output of `predict` prints it in
// its header, so that a number is never read without the assumptions behind it.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel {

/// One compute rate the prediction timed layers with.
///   roofline:    a unit of the hardware spec at its peak, with the spec's launch overhead
///   calibrated:  an op class's fitted peak and per-call overhead (op_class set); a layer whose
///                class the calibration does not cover falls back to the roofline's entry
struct PeakUsed {
  std::string op_class; // "" = the roofline's (hardware spec) peak
  std::string unit;     // the hardware unit ("tensor", "simt", "vector")
  DType dtype = DType::fp32;
  double flops_per_second = 0;
  double overhead_seconds = 0; // per kernel call
  int layers = 0;              // layers timed with this entry
};

struct AssumedExecution {
  int64_t batch = 1;
  DType dtype = DType::fp32;
  Pass pass = Pass::fwd;
  /// The calibration as the user named it; "" = the pure roofline.
  std::string calibration;
  /// How layers map onto kernels (Prediction::fusion, perfmodel/fusion.hpp): "none", every
  /// layer runs as its own kernel; "inference", layers fused as an inference runtime does.
  std::string fusion = "none";
  /// The activations' layout ("nchw", "nhwc") where the calibration's target reads it (the
  /// GPU target's conversions); "" where it changes nothing (roofline, CPU targets).
  std::string layout;
  /// Distinct rates over the layers that do work, in the order their first layer runs.
  std::vector<PeakUsed> peaks;
  double dram_bytes_per_second = 0;   // the spec's DRAM bandwidth (the roofline's memory term)
  double launch_overhead_seconds = 0; // the spec's per-kernel overhead (the roofline's)
  /// The range of per-call overheads the layers were timed with (equal to the spec's without a
  /// calibration; 0 and 0 when no layer does work).
  double overhead_min_seconds = 0, overhead_max_seconds = 0;
};

/// The assumptions behind `p`, a prediction of `g` on `hw` with `cal` (null: roofline).
/// `calibration_name` is how the user named the calibration ("" without one).
AssumedExecution assumed_execution(const Graph &g, const HwSpec &hw, const Prediction &p,
                                   const Calibration *cal, std::string calibration_name);

} // namespace perfmodel
