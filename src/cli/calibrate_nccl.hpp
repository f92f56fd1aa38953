// `perfmodel calibrate --from-nccl-tests FILE`: collective latency and bus bandwidth fitted to
// nccl-tests output (docs/parallel.md, "Calibrating from nccl-tests").
#pragma once

#include <cstdint>
#include <string>

namespace perfmodel::cli {

struct NcclCalibrateArgs {
  std::string file;       // --from-nccl-tests
  std::string hw;         // --hw: the spec whose interconnect the fit refines
  int64_t gpus = 0;       // --gpus: the ranks of the runs
  std::string collective; // --collective: for runs that do not name theirs
  std::string output;     // -o (stdout when empty)
};

/// Fits every run of the file and writes the YAML (-o FILE atomically, else stdout); one line
/// per collective on stderr. InputError (exit 2) for a bad file, --gpus missing or not matching
/// the runs, or a spec without an interconnect level for that many GPUs.
int run_calibrate_nccl(const NcclCalibrateArgs &a);

} // namespace perfmodel::cli
