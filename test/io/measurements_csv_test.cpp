// Tests of the measurement CSV reader: defaults, quoting, unknown columns, and bad rows.
#include <doctest/doctest.h>

#include <string>

#include "../test_approx.hpp"
#include "perfmodel/io/measurements_csv.hpp"

using namespace perfmodel;
using namespace perfmodel::io;

namespace {

// The message of the InputError `text` raises ("" when it parses).
std::string error_of(const std::string &text) {
  try {
    parse_measurements_csv(text, "m.csv");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("gemm and conv rows with defaults and an unknown column") {
  const std::string text =
      "op,dtype,pass,m,n,k,batch,c,h,w,out_channels,kernel_h,kernel_w,stride_h,stride_w,pad_h,"
      "pad_w,dilation_h,dilation_w,groups,seconds,note\n"
      "gemm,,,64,32,16,,,,,,,,,,,,,,,1.5e-5,\"hello, world\"\n"
      "conv2d,fp16,bwd_filter,,,,2,3,32,32,8,3,3,2,2,1,1,,,,,\n"; // bwd_filter = bwd_weight
  const auto rows = parse_measurements_csv(text, "m.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].op == KernelOp::gemm);
  CHECK(rows[0].dtype == DType::fp32);
  CHECK(rows[0].pass == KernelPart::fwd);
  CHECK(rows[0].m == 64);
  CHECK(rows[0].n == 32);
  CHECK(rows[0].k == 16);
  CHECK(rows[0].batch == 1);
  REQUIRE(rows[0].seconds);
  CHECK(*rows[0].seconds == rel(1.5e-5));
  CHECK(rows[0].loc.line == 2);
  CHECK(rows[1].op == KernelOp::conv2d);
  CHECK(rows[1].dtype == DType::fp16);
  CHECK(rows[1].pass == KernelPart::bwd_weight);
  CHECK(rows[1].batch == 2);
  CHECK(rows[1].stride_w == 2);
  CHECK(rows[1].dilation_h == 1);
  CHECK(rows[1].groups == 1);
  CHECK_FALSE(rows[1].seconds);
}

TEST_CASE("columns in any order, CRLF line ends, missing columns default") {
  const auto rows = parse_measurements_csv("seconds,k,n,m,op\r\n0.001,8,4,2,gemm\r\n\r\n", "x.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].m == 2);
  CHECK(rows[0].n == 4);
  CHECK(rows[0].k == 8);
  CHECK(*rows[0].seconds == rel(0.001));
}

TEST_CASE("bad rows name file, line and column") {
  const std::string head = "op,m,n,k,seconds\n";
  CHECK(error_of(head + "gemm,1,2,3,0.1\nfoo,1,2,3,0.1\n") ==
        "m.csv:3:1: error: unknown op 'foo' (gemm or conv2d)");
  CHECK(error_of(head + "gemm,1,,3,0.1\n") == "m.csv:2:8: error: gemm needs a value for 'n'");
  CHECK(error_of(head + "gemm,1,2x,3,0.1\n") ==
        "m.csv:2:8: error: 'n' must be a whole number, not '2x'");
  CHECK(error_of(head + "gemm,1,0,3,0.1\n") == "m.csv:2:8: error: 'n' must be at least 1");
  CHECK(error_of(head + "gemm,1,2,3,-1\n") ==
        "m.csv:2:12: error: 'seconds' must be a positive number, not '-1'");
  CHECK(error_of("m,n\n1,2\n") == "m.csv:1:1: error: the header has no 'op' column");
  CHECK(error_of("case,round,counted\ngemm/1,0,1\n")
            .find("m.csv:1:1: error: this is calibrate --save-runs output") == 0);
  CHECK(error_of("op,pass,c,h,w,out_channels,kernel_h,kernel_w\nconv2d,bwd,1,4,4,1,1,1\n") ==
        "m.csv:2:8: error: unknown pass 'bwd' (fwd, bwd_data or bwd_weight; bwd_filter is read "
        "as bwd_weight)");
  CHECK(error_of("") == "m.csv:1:1: error: empty measurement file (no header)");
  CHECK(error_of("op,dtype\ngemm,fp99\n").find("m.csv:2:6: error: unknown dtype 'fp99'") == 0);
  CHECK(error_of("op,pass,m,n,k\ngemm,bwd_data,1,1,1\n") ==
        "m.csv:2:6: error: pass 'bwd_data' applies to conv2d rows only");
  CHECK(error_of("op,\"m\nx\n").find("unterminated quoted field") != std::string::npos);
}

TEST_CASE("conv rows are checked for groups and geometry") {
  const std::string head = "op,c,h,w,out_channels,kernel_h,kernel_w,groups,pad_h\n";
  CHECK(error_of(head + "conv2d,6,8,8,4,3,3,4,\n") ==
        "m.csv:2:20: error: groups (4) must divide c and out_channels");
  CHECK(error_of(head + "conv2d,4,2,2,4,5,5,,0\n").find("does not fit the padded input") !=
        std::string::npos);
  CHECK(error_of(head + "conv2d,4,8,8,4,,3,,\n") ==
        "m.csv:2:16: error: conv2d needs a value for 'kernel_h'");
  // Pads and dilations whose output size overflows int64 (before: undefined behaviour that
  // wrapped to a plausible size and a prediction).
  const std::string big = "9223372036854775807";
  CHECK(error_of(head + "conv2d,4,8,8,4,3,3,1," + big + "\n") ==
        "m.csv:2:1: error: the output size overflows 64-bit integers (pad, dilation or kernel "
        "too large)");
  CHECK(error_of("op,c,h,w,out_channels,kernel_h,kernel_w,dilation_h\nconv2d,4,8,8,4,3,3," + big +
                 "\n") ==
        "m.csv:2:1: error: the output size overflows 64-bit integers (pad, dilation or kernel "
        "too large)");
  CHECK(error_of("op,c,h,w,out_channels,kernel_h,kernel_w,dilation_h\nconv2d,4,8,8,4," + big +
                 ",3,2\n") ==
        "m.csv:2:1: error: the output size overflows 64-bit integers (pad, dilation or kernel "
        "too large)");
}

TEST_CASE("conv rows may give their fused epilogue: a bias and a clamping activation") {
  const std::string head = "op,c,h,w,out_channels,kernel_h,kernel_w,bias,activation\n";
  const auto rows = parse_measurements_csv(head + "conv2d,4,8,8,4,1,1,1,relu\n"
                                                  "conv2d,4,8,8,4,1,1,,none\n"
                                                  "conv2d,4,8,8,4,1,1,0,\n",
                                           "m.csv");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].bias);
  CHECK(rows[0].activation == "relu");
  CHECK_FALSE(rows[1].bias);
  CHECK(rows[1].activation.empty());
  CHECK(rows[2].activation.empty());
  CHECK(error_of(head + "conv2d,4,8,8,4,1,1,2,\n") == "m.csv:2:20: error: 'bias' must be 0 or 1");
  CHECK(error_of(head + "conv2d,4,8,8,4,1,1,-1,\n") == "m.csv:2:20: error: 'bias' must be 0 or 1");
  CHECK(error_of(head + "conv2d,4,8,8,4,1,1,1,gelu\n") ==
        "m.csv:2:22: error: unknown activation 'gelu' (none, relu or relu6: the ones a GEMM "
        "epilogue fuses)");
}

TEST_CASE("a written line reads back") {
  MeasurementRow r;
  r.op = KernelOp::conv2d;
  r.pass = KernelPart::bwd_weight;
  r.batch = 2, r.c = 4, r.h = 9, r.w = 7, r.out_channels = 6, r.kernel_h = 3, r.kernel_w = 1;
  r.pad_h = 1;
  r.groups = 2;
  r.seconds = 2.5e-4;
  r.bias = true;
  r.activation = "relu6";
  r.layout = Layout::nhwc;
  const auto back =
      parse_measurements_csv(measurements_csv_header() + measurements_csv_line(r), "r.csv");
  REQUIRE(back.size() == 1);
  CHECK(back[0].pass == KernelPart::bwd_weight);
  CHECK(measurements_csv_line(r).find(",bwd_weight,") != std::string::npos);
  CHECK(back[0].w == 7);
  CHECK(back[0].kernel_w == 1);
  CHECK(back[0].groups == 2);
  CHECK(*back[0].seconds == rel(2.5e-4));
  CHECK(back[0].bias);
  CHECK(back[0].activation == "relu6");
  CHECK(back[0].layout == Layout::nhwc);
}

TEST_CASE("the layout column: empty is nchw, channels-last is nhwc") {
  const auto rows = parse_measurements_csv("op,c,h,w,out_channels,kernel_h,kernel_w,layout\n"
                                           "conv2d,8,7,7,8,3,3,\n"
                                           "conv2d,8,7,7,8,3,3,NCHW\n"
                                           "conv2d,8,7,7,8,3,3,channels-last\n"
                                           "conv2d,8,7,7,8,3,3,nhwc\n",
                                           "l.csv");
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].layout == Layout::nchw);
  CHECK(rows[1].layout == Layout::nchw);
  CHECK(rows[2].layout == Layout::nhwc);
  CHECK(rows[3].layout == Layout::nhwc);
  CHECK(error_of("op,c,h,w,out_channels,kernel_h,kernel_w,layout\nconv2d,8,7,7,8,3,3,hwcn\n") ==
        "m.csv:2:20: error: unknown layout 'hwcn' (nchw, nhwc or channels-last)");
  CHECK(error_of("op,m,n,k,layout\ngemm,8,8,8,nhwc\n") ==
        "m.csv:2:12: error: layout 'nhwc' applies to conv2d rows only");
}
