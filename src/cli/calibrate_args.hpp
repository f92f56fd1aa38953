// `perfmodel calibrate`'s arguments and its samples from microbenchmarks (--device cpu, --device
// cuda), private to the command: cmd_calibrate.cpp parses the options, calibrate_device.cpp
// measures.
#pragma once

#include <string>
#include <vector>

#include "cli/calibrate_nccl.hpp"
#include "perfmodel/calibrate/sample.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/hw_spec.hpp"
#include "perfmodel/policy/measurement_policy.hpp"

namespace perfmodel::cli {

// The options of `perfmodel calibrate`, as register_calibrate parses them.
struct CalibrateArgs {
  std::string device;
  std::string measurements;
  std::string samples;
  std::vector<std::string> traces; // --from-trace: PyTorch profiler traces (one or more)
  NcclCalibrateArgs nccl;          // --from-nccl-tests (its -o and --hw are this command's)
  std::string hw;
  std::string save_samples;
  std::string residuals;      // --residuals: per-sample prediction and error
  std::string save_runs;      // --save-runs: every run of every case with the probes beside it
  double probe_interval = -1; // --probe-interval (0: between rounds only; < 0: not given)
  int attempts = policy::CalibrationRetryPolicy{}.attempts; // --attempts
  int warmup = 0, iters = 0, rounds = 0;                    // 0 = the plan's defaults
  std::string statistic = "p20"; // of each case's timed runs: median, p20 or min
  bool quick = false;
  bool no_networks = false; // --no-networks: isolated kernel microbenchmarks only
  bool recount = false;     // --recount-networks: saved network samples counted again
  bool progress = false;    // --progress: measurement progress on stderr also when not a TTY
  int threads = 0;
  std::string loss = "soft_l1";
  double loss_scale = 0.1;
  std::string format; // "" = from -o's extension (.yaml/.yml, .csv, ...), else yaml
  std::string output;
  std::string target; // --target: the execution target ("" = the hardware kind's)
};

/// Whether the measurements' progress lines go to stderr (--progress, or stderr a terminal):
/// set by the command before it measures; findings and warnings are printed either way.
void set_calibrate_progress(bool on);

/// --device cpu: the microbenchmark rounds (taken again while the host's state changed, one
/// attempt kept) and, unless --no-networks, the calibration networks' layers, as fit samples;
/// `cal` gets the device, source, host state and pass excess they were measured with.
std::vector<calibrate::Sample> microbenchmark_samples(const CalibrateArgs &a, const HwSpec &hw,
                                                      Calibration &cal);

/// --device cuda: the GPU plan's microbenchmarks run by the CUDA plugin, as fit samples; `cal`
/// gets the device and source. No plugin, no CUDA libraries or no GPU: RuntimeFailure (exit 1).
std::vector<calibrate::Sample> gpu_microbenchmark_samples(const CalibrateArgs &a, Calibration &cal);

} // namespace perfmodel::cli
