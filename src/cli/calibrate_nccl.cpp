// `perfmodel calibrate --from-nccl-tests` (cli/calibrate_nccl.hpp).
#include "cli/calibrate_nccl.hpp"

#include <cstdio>

#include "cli/common.hpp"
#include "perfmodel/calibrate/comm_fit.hpp"
#include "perfmodel/io/comm_calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/nccl_tests.hpp"

namespace perfmodel::cli {

int run_calibrate_nccl(const NcclCalibrateArgs &a) {
  if (a.hw.empty())
    throw InputError("--from-nccl-tests needs --hw naming the spec whose interconnect it "
                     "measures (e.g. --hw h100)");
  if (a.gpus < 2)
    throw InputError("--from-nccl-tests needs --gpus: the GPUs the runs used (2 or more)");
  std::optional<Collective> given;
  if (!a.collective.empty()) {
    given = parse_collective(a.collective);
    if (!given)
      throw InputError("--collective: unknown collective '" + a.collective +
                       "' (all_reduce, reduce_scatter, all_gather, all_to_all, send_recv)");
  }
  const HwSpec hw = io::load_hw(a.hw);
  const LinkLevel *level = hw.interconnect.level_for(a.gpus);
  if (!level)
    throw InputError(hw.loc, hw.interconnect.empty()
                                 ? "the spec has no 'interconnect' section for the fit to refine"
                                 : "no interconnect level of the spec holds " +
                                       std::to_string(a.gpus) + " GPUs");
  CommCalibration cal = calibrate::fit_nccl_tests(io::read_nccl_tests(a.file), a.gpus, given);
  cal.hw = hw.name;
  cal.level = level->name;
  cal.source = a.file;
  for (const auto &[c, f] : cal.fits)
    std::fprintf(stderr,
                 "calibrate: %s over %lld GPUs (%s): latency %.3g us per step, bus bandwidth "
                 "%.4g GB/s (spec %.4g GB/s), %lld samples, RMS relative residual %.2f%%\n",
                 std::string(to_string(c)).c_str(), static_cast<long long>(a.gpus),
                 level->name.c_str(), f.latency_per_step_seconds * 1e6,
                 f.bus_bytes_per_second * 1e-9, level->bytes_per_second * 1e-9,
                 static_cast<long long>(f.samples), 100 * f.rms_relative_residual);
  emit(OutputOptions{"", a.output, false}, io::write_comm_calibration_yaml(cal));
  return 0;
}

} // namespace perfmodel::cli
