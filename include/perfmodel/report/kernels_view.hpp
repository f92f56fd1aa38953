// The `perfmodel kernels` view: one predicted (and, where timed, measured) kernel run per row of
// a measurement CSV, and the MAPE over the measured rows. Numbers are computed once into
// KernelsView and rendered as table, CSV, Markdown or JSON ("perfmodel.kernels/1").
//
// Sample (perfmodel kernels --hw zen5-2c --calibration zen5-2c --input runs.csv):
//   kernels on zen5-2c (calibrated: zen5-2c)
//   #  op      dtype  pass  shape                        flops    bytes    predicted  bound
//   measured  error 1  gemm    fp32   fwd   512x512x512                  268MF    3.15MB   1.21ms
//   compute  1.18ms    +2.5% 2  conv2d  fp32   fwd   n1 c64 56x56 o64 k3x3 s1 p1
//   231MF    1.75MB   1.10ms     compute  1.02ms    +7.8% MAPE over 2 measured rows: 5.15%
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfmodel/report/format.hpp"
#include "perfmodel/roofline.hpp"

namespace perfmodel::report {

struct KernelRowView {
  std::string op; // "gemm" | "conv2d"
  std::string dtype;
  std::string pass;  // fwd | bwd_data | bwd_weight
  std::string shape; // human-readable dimensions
  double flops = 0;
  double bytes = 0;
  double predicted_seconds = 0;
  Bound bound = Bound::none;
  std::optional<double> measured_seconds;
  std::optional<double> error; // (predicted - measured) / measured
};

struct KernelsView {
  std::string hardware;
  std::string calibration; // "" = pure roofline
  std::vector<KernelRowView> rows;
  int measured = 0;
  std::optional<double> mape; // mean |error| over measured rows, a fraction
};

/// Fills `error` of every measured row and the summary (measured count, MAPE).
void finish_kernels_view(KernelsView &v);

std::string render_kernels(const KernelsView &v, Format f);

} // namespace perfmodel::report
