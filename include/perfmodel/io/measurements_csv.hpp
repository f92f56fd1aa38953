// Reads the measurement CSV of issue 4: one kernel run per row (gemm or conv2d), timed or not.
//
// Header names (any order, unknown columns ignored, empty cells = defaults):
//   op,dtype,pass,m,n,k,batch,c,h,w,out_channels,kernel_h,kernel_w,stride_h,stride_w,
//   pad_h,pad_w,dilation_h,dilation_w,groups,seconds
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/calibration.hpp"
#include "perfmodel/dtype.hpp"
#include "perfmodel/error.hpp"
#include "perfmodel/layout.hpp"

namespace perfmodel::io {

enum class KernelOp { gemm, conv2d };

struct MeasurementRow {
  SourceLoc loc;       // file:line of the row
  SourceLoc dtype_loc; // file:line:col of its dtype cell (the row's first column without one)
  KernelOp op = KernelOp::gemm;
  DType dtype = DType::fp32;         // default fp32
  KernelPart pass = KernelPart::fwd; // conv2d only; default fwd
  int64_t m = 0, n = 0, k = 0;       // gemm: C[m x n] = A[m x k] B[k x n]
  int64_t batch = 1;                 // gemm: independent products; conv2d: N
  int64_t c = 0, h = 0, w = 0, out_channels = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t dilation_h = 1, dilation_w = 1, groups = 1;
  std::optional<double> seconds; // measured time of one run, when given
  // conv2d: the epilogue fused into the product (perfmodel/epilogue.hpp). Optional columns
  // beyond the issue's: `bias` 0|1 (default 0), `activation` none|relu|relu6 (default none).
  bool bias = false;
  std::string activation; // "" = none
  // conv2d: the activations' layout the kernel was timed in, optional column `layout`
  // (nchw, nhwc or channels-last; default nchw). The GPU target's layout conversions read it.
  Layout layout = Layout::nchw;
};

/// The column names the reader understands, in the order.
const std::vector<std::string> &measurement_columns();

/// Parses CSV text (RFC 4180 quoting); `file` names it in errors. Every problem of a row
/// (unknown op or dtype, missing or non-positive size, bad number) throws
/// InputError("file:line:col: error: ...").
std::vector<MeasurementRow> parse_measurements_csv(const std::string &text,
                                                   const std::string &file);
std::vector<MeasurementRow> read_measurements_csv(const std::string &path);

/// One CSV line (with header order measurement_columns()) for a row; used by writers and tests.
std::string measurements_csv_header();
std::string measurements_csv_line(const MeasurementRow &r);

} // namespace perfmodel::io
