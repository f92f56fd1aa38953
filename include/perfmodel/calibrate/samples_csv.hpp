// Fit samples as CSV (raw SI numbers, units in the header), so that a microbenchmark run can be
// kept and fitted again later (`calibrate --save-samples` / `--from-samples`).
//
//   op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,reuse_bytes,
//   cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,strided_lowered_bytes,time (s),
//   source
// (one column per Sample field; docs/calibration.md lists them). Files written before a column
// was added read it at its default.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/calibrate/sample.hpp"

namespace perfmodel::calibrate {

std::string write_samples_csv(const std::vector<Sample> &samples);
/// Errors are "file:line:col: error: ..." (InputError).
std::vector<Sample> parse_samples_csv(const std::string &text, const std::string &file);
std::vector<Sample> read_samples_csv(const std::string &path);

/// Every sample with the calibration's prediction and error (`calibrate --residuals`):
///   op_class,dtype,source,flops,bytes,measured (s),predicted (s),error,fitted
/// error = (predicted - measured) / measured; empty where the class was not fitted. fitted: 1,
/// or 0 for a sample held out of the fit (calibration_networks.hpp, held_out).
std::string write_residuals_csv(const Calibration &cal, const std::vector<Sample> &samples);

} // namespace perfmodel::calibrate
