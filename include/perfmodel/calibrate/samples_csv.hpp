// Fit samples as CSV (raw SI numbers, units in the header), so that a microbenchmark run can be
// kept and fitted again later (`calibrate --save-samples` / `--from-samples`).
//
//   op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,reuse_bytes,
//   cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,strided_lowered_bytes,
//   parallel_units,conv_batch,conv_in_channels,conv_out_channels,conv_in_h,conv_in_w,conv_out_h,
//   conv_out_w,conv_kernel_h,conv_kernel_w,conv_stride_h,conv_stride_w,conv_dilation_h,
//   conv_dilation_w,conv_groups,time (s),source
// (one column per Sample field, the conv_* columns all 0 for no geometry; docs/calibration.md
// lists them). A sample written and read back has the same features() and time, exactly, so a
// refit from the file is the fit of the samples. Files written before a column was added read
// it at its default.
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
