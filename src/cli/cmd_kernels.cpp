// `perfmodel kernels`: predicts every kernel run of a measurement CSV (roofline or calibrated) and
// compares with the measured time where the row has one.
#include <memory>

#include "cli/commands.hpp"
#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/io/calibration_yaml.hpp"
#include "perfmodel/io/hw_yaml.hpp"
#include "perfmodel/io/measurements_csv.hpp"
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

std::string shape_of(const io::MeasurementRow &r) {
  auto s = [](int64_t v) { return std::to_string(v); };
  if (r.op == io::KernelOp::gemm)
    return (r.batch > 1 ? s(r.batch) + "*" : "") + s(r.m) + "x" + s(r.n) + "x" + s(r.k);
  std::string out = "n" + s(r.batch) + " c" + s(r.c) + " " + s(r.h) + "x" + s(r.w) + " o" +
                    s(r.out_channels) + " k" + s(r.kernel_h) + "x" + s(r.kernel_w) + " s" +
                    s(r.stride_h) + (r.stride_w != r.stride_h ? "x" + s(r.stride_w) : "") + " p" +
                    s(r.pad_h) + (r.pad_w != r.pad_h ? "x" + s(r.pad_w) : "");
  if (r.dilation_h != 1 || r.dilation_w != 1)
    out += " d" + s(r.dilation_h) + "x" + s(r.dilation_w);
  if (r.groups != 1)
    out += " g" + s(r.groups);
  return out;
}

// The roofline of one pass part alone: the part's counts as a one-pass LayerCost.
LayerTiming roofline_of(const HwSpec &hw, const calibrate::KernelCounts &k, DType dtype) {
  LayerCost c;
  c.fwd.flops = int64_t(k.features.flops);
  c.fwd.bytes_input = int64_t(k.features.bytes);
  c.total = c.fwd;
  c.gemm = k.features.gemm;
  c.gemm_like = k.cost.gemm_like;
  return roofline_time(hw, c, dtype);
}

int run_kernels(const KernelsArgs &a) {
  const HwSpec hw = io::load_hw(a.hw);
  std::optional<Calibration> cal;
  if (!a.calibration.empty())
    cal = load_calibration_for(a.calibration, hw, a.calibration_other_hardware);
  const auto rows = io::read_measurements_csv(a.input);

  report::KernelsView v;
  v.hardware = hw.name;
  v.calibration = cal ? a.calibration : "";
  for (const auto &row : rows) {
    const calibrate::KernelCounts k = calibrate::kernel_counts(row);
    LayerTiming t;
    try {
      t = cal ? calibrated_time(*cal, hw, k.features) : roofline_of(hw, k, row.dtype);
    } catch (const InputError &e) {
      // the device cannot run the row's dtype: located at that cell
      throw InputError(row.dtype_loc, e.message());
    }
    report::KernelRowView r;
    r.op = row.op == io::KernelOp::gemm ? "gemm" : "conv2d";
    r.dtype = std::string(to_string(row.dtype));
    r.pass = std::string(to_string(row.pass));
    r.shape = shape_of(row);
    r.flops = k.features.flops;
    r.bytes = k.features.bytes;
    r.predicted_seconds = t.seconds;
    r.bound = t.bound;
    r.measured_seconds = row.seconds;
    v.rows.push_back(r);
  }
  report::finish_kernels_view(v);
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
