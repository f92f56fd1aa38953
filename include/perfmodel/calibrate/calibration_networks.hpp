// Calibration networks: small synthetic CNNs whose layers, timed inside their forward passes,
// are microbenchmarks in the state real layers run in (docs/calibration.md, "Calibration
// networks").
//
// An isolated kernel microbenchmark can emulate the caches around a layer, but not which core
// wrote which part of its input: in a network a batch norm reads a tensor half written by the
// other core (the GEMM before it split its columns), and ran 1.4-4.6x what the isolated
// microbenchmarks predict in ResNet-50 on the 2-core calibration host. These networks reproduce
// such producer / consumer pairs with generic shapes: no layer of them has the shape of a layer of
// the models the accuracy is judged on (test/calibrate/calibration_networks_test.cpp checks it).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/graph.hpp"

namespace perfmodel::calibrate {

/// The calibration networks, shape-inferred, batch 1: a bottleneck residual CNN, an inverted-
/// residual depthwise CNN, a plain (VGG / NIN-like) CNN with fused ReLUs and windowed pools, and
/// wide residual blocks whose batch norms, ReLUs and adds stream 3.8-7 MB tensors.
std::vector<Graph> calibration_networks();

/// Whether calibration fits the network layers of this class: the streaming classes
/// (elementwise, norm, pool, reduce) and the depthwise convolutions (a direct kernel that
/// streams its planes), whose in-network cost the isolated microbenchmarks miss. The GEMM
/// classes keep their isolated microbenchmarks: fitting their network layers too made NIN's
/// per-layer medians worse (docs/calibration.md, "Tried and not kept").
bool network_sample_fitted(OpClass c);

/// Whether a sample is a calibration network's layer of a class not fitted on them (source
/// "network:…", network_sample_fitted false): such samples are saved with the others and
/// scored against the fitted model (calibrate's held-out check, --residuals), never fitted.
bool held_out(const Sample &s);

/// The samples that are not held out, in order.
std::vector<Sample> fitted_samples(const std::vector<Sample> &samples);

/// The held-out samples scored against `cal`, one line per class x dtype with any:
/// "held out: conv/fp32, 26 network layers: median error -4.1%, their sum -6.0% (predicted -
/// measured)". A fitted model that misses layers inside a network shows here, before any
/// judged model is measured. Classes `cal` does not fit are left out.
std::vector<std::string> held_out_report(const Calibration &cal,
                                         const std::vector<Sample> &samples);

/// One timed layer of a network: its name and measured seconds.
struct LayerTime {
  std::string name;
  double seconds = 0;
};

/// Fit samples for the timed layers of `g`, counted by layer_cost as predictions are; names not
/// in the graph, untimed layers and layers that move nothing (views) are skipped. Sources read
/// "<prefix><graph>:<layer>". `threads`: the threads the layers ran on, and `cache_bytes` the
/// outermost cache of the hardware spec (their cross-core bytes, input_cross_core_bytes).
std::vector<Sample>
samples_from_layer_times(const Graph &g, const std::vector<LayerTime> &times,
                         const std::string &prefix, int threads = 1,
                         double cache_bytes = std::numeric_limits<double>::infinity());

/// `samples` with each calibration network layer (source "network:<graph>:<layer>") counted
/// again by this build's rules (samples_from_layer_times on calibration_networks(), its time
/// kept), the others as they are, in order: a change to the counting is compared on saved
/// samples without measuring again (calibrate --from-samples --recount-networks). A network
/// source that names no layer of these networks is an InputError.
std::vector<Sample> recount_network_samples(const std::vector<Sample> &samples, int threads,
                                            double cache_bytes);

} // namespace perfmodel::calibrate
