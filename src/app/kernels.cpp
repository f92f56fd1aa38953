// `kernels` as a library function (perfmodel/app/commands.hpp).
#include "perfmodel/app/commands.hpp"
#include "perfmodel/calibrate/kernel_graph.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/io/measurements_csv.hpp"
#include "perfmodel/roofline.hpp"

namespace perfmodel::app {

namespace {

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
  if (r.layout != Layout::nchw)
    out += " " + std::string(to_string(r.layout)); // the default layout is not named
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

} // namespace

report::KernelsView kernels(const HwSpec &hw, const std::string &calibration,
                            bool calibration_other_hardware, const std::string &csv) {
  std::optional<Calibration> cal;
  if (!calibration.empty())
    cal = io::load_calibration_for(calibration, hw, calibration_other_hardware);
  const auto rows = io::read_measurements_csv(csv);

  report::KernelsView v;
  v.hardware = hw.name;
  v.calibration = cal ? calibration : "";
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
  return v;
}

} // namespace perfmodel::app
