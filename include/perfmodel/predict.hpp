// Whole-model prediction: cost, time, bound and energy per layer, totals and rates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/cost.hpp"
#include "perfmodel/energy.hpp"
#include "perfmodel/fusion.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/roofline.hpp"

namespace perfmodel {

struct Calibration; // calibration.hpp: fitted efficiency model

struct PredictOptions {
  Pass pass = Pass::fwd;
  std::optional<double> power_watts;        // --power: power for the power-x-time energy (else TDP)
  std::optional<double> runtime_seconds;    // --runtime: measured total time for measured rates
  const Calibration *calibration = nullptr; // fitted efficiency model; null = pure roofline
  /// The fusion the graph given to predict() was prepared with (fuse(g, fusion, pass)): predict
  /// does not fuse, it records the mode in Prediction::fusion for the views.
  Fusion fusion = Fusion::none;
};

struct LayerPrediction {
  const Layer *layer = nullptr; // points into the Graph passed to predict()
  LayerCost cost;
  LayerTiming timing;
  double energy_joules = 0;            // component model
  double energy_power_time_joules = 0; // power x predicted time
};

struct Totals {
  PassCost cost;
  int64_t params = 0;
  int layers = 0;
  double predicted_seconds = 0;
  double energy_joules = 0;
  double energy_power_time_joules = 0;
  Rates predicted;               // over the predicted time and component energy
  std::optional<Rates> measured; // over --runtime, with energy = power x runtime (boda)
  double seconds_compute_bound = 0, seconds_memory_bound = 0, seconds_overhead_bound = 0;
};

struct Prediction {
  std::string model;
  std::string hardware;
  int64_t batch = 1;
  DType dtype = DType::fp32;
  Pass pass = Pass::fwd;
  double power_watts = 0; // the power used for power x time
  bool calibrated = false;
  Fusion fusion = Fusion::none; // how the layers are assumed to run (PredictOptions::fusion)
  std::vector<LayerPrediction> layers;
  Totals totals;      // all layers
  Totals gemm_totals; // conv and matrix layers only (boda's FWD TOTALS)
  /// With a calibration that has a pass excess (calibration.hpp, PassExcess): what a whole
  /// forward pass adds to totals.predicted_seconds, the sum of its layers; else 0.
  double pass_excess_seconds = 0;
  /// The predicted time of a whole pass: the layers' sum plus the pass excess.
  double pass_seconds() const { return totals.predicted_seconds + pass_excess_seconds; }
};

/// Layers that run a kernel: all but the views (flatten, reshape, identity, dropout), which
/// share their input's buffer. The pass excess is counted per such layer.
int kernel_layer_count(const Graph &g);

/// Predicts every layer of a shape-inferred graph. Throws InputError when the hardware has
/// no compute unit for a layer's data type.
Prediction predict(const Graph &g, const HwSpec &hw, const PredictOptions &opts);
/// The same with the layer costs given (graph_cost(g, opts.pass), one per layer): a sweep over
/// several pieces of hardware computes them once per graph.
Prediction predict(const Graph &g, const HwSpec &hw, const PredictOptions &opts,
                   const std::vector<LayerCost> &costs);

/// Sums a subset of layer predictions (all when `gemm_only` is false).
Totals sum_totals(const std::vector<LayerPrediction> &layers, bool gemm_only,
                  const PredictOptions &opts, double power_watts);
/// The same over layers[order[0]], layers[order[1]], ... in that order (a layer may appear more
/// than once): equal, bit for bit, to sum_totals of the vector of those predictions.
Totals sum_totals(const std::vector<LayerPrediction> &layers, const std::vector<uint32_t> &order,
                  bool gemm_only, const PredictOptions &opts, double power_watts);

/// What predict() gives layer `l` of cost `cost` without a calibration: its roofline time and
/// energy (`power_watts`: the power of the power-x-time energy).
LayerPrediction roofline_layer(const HwSpec &hw, const Layer &l, const LayerCost &cost,
                               double power_watts);

/// Sets the data type of every tensor and layer (the --dtype override).
void set_dtype(Graph &g, DType dtype);

} // namespace perfmodel
