// `perfmodel kernels`: predicts every kernel run of a measurement CSV (roofline or calibrated) and
// compares with the measured time where the row has one.
#include <memory>

#include "cli/commands.hpp"
#include "perfmodel/app/commands.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/report/kernels_view.hpp"

namespace perfmodel::cli {

namespace {

struct KernelsArgs {
  std::string hw;
  std::string calibration;
  bool calibration_other_hardware = false; // --calibration-for-other-hardware
  std::string input;
  OutputOptions out;
};

int run_kernels(const KernelsArgs &a) {
  const HwSpec hw = io::load_hw(a.hw);
  const report::KernelsView v =
      app::kernels(hw, a.calibration, a.calibration_other_hardware, a.input);
  emit(a.out, report::render_kernels(v, output_format(a.out)));
  return 0;
}

} // namespace

void register_kernels(CLI::App &app, Runner &run) {
  auto a = std::make_shared<KernelsArgs>();
  CLI::App *cmd = app.add_subcommand(
      "kernels", "Predict single GEMM/conv runs of a measurement CSV; compare with measured times");
  cmd->footer(
      "The CSV has the header op,dtype,pass,m,n,k,batch,c,h,w,out_channels,kernel_h,kernel_w,\n"
      "stride_h,stride_w,pad_h,pad_w,dilation_h,dilation_w,groups,seconds (docs/calibration.md);\n"
      "empty cells take the defaults, unknown columns are ignored.\n\n"
      "Examples:\n"
      "  perfmodel kernels --hw v100 --input kernels.csv\n"
      "  perfmodel kernels --hw zen5-2c --calibration zen5-2c --input kernels.csv --format json");
  cmd->add_option("--hw", a->hw, "Hardware: a .yaml path or a name in hw_specs/")->required();
  cmd->add_option("--calibration", a->calibration,
                  "Calibration: a .yaml path or a name in calibration/ (default: pure roofline)");
  add_other_hardware_flag(cmd, a->calibration_other_hardware);
  cmd->add_option("--input,-i", a->input, "Measurement CSV")->required();
  add_output_options(cmd, a->out);
  cmd->callback([a, &run] { run = [a] { return run_kernels(*a); }; });
}

} // namespace perfmodel::cli
