// `perfmodel measure --device cuda`: a model run layer by layer on GPU 0 (the CUDA plugin's
// executor), each layer and the whole pass timed from CUDA-graph replays, with the NVML energy
// of the timed passes, against the prediction (docs/cli/measure.md, docs/cuda.md).
#pragma once

#include <string>
#include <vector>

#include "cli/common.hpp"

namespace perfmodel::cli {

struct CudaMeasureArgs {
  ModelOptions model;
  std::string hw;
  std::vector<std::string> calibrations;
  std::string statistic = "p20";
  int warmup = 3, iters = 10;
  double min_time = 0;      // the timed passes last at least max(min_time, 1 s)
  double min_layer_us = 20; // layers below it are left out of the MAPE
  bool channels_last = false;
  bool plan_only = false; // --plan: print the layer plan and run nothing
  bool quiet = false;
  std::string save_samples;
  std::vector<std::string> cpu_only_given; // CPU-only options given: refused
  OutputOptions out;
};

/// Bad input (exit 2) is found before the plugin is loaded; without the plugin, its libraries
/// or a device the run fails (exit 1) with one line and writes nothing.
int run_measure_cuda(const CudaMeasureArgs &a);

} // namespace perfmodel::cli
