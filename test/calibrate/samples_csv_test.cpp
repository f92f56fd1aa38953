// Tests of the fit-sample CSV: round trip and errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../test_approx.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

// The one sample of a file in an older layout.
Sample only_sample(const std::string &text) {
  const auto back = parse_samples_csv(text, "old.csv");
  REQUIRE(back.size() == 1);
  return back[0];
}

} // namespace

TEST_CASE("samples round-trip through CSV, quoted sources included") {
  Sample a;
  a.op_class = OpClass::conv;
  a.pass = KernelPart::bwd_data;
  a.flops = 123456789;
  a.bytes = 98765;
  a.gemm = GemmShape{10, 20, 30, 2};
  a.lowered_bytes = 4800;
  a.reuse_bytes = 2.5e7;
  a.cross_core_bytes = 1.5e6;
  a.images = 3;
  a.epilogue_sweeps = 2;
  a.weight_bytes = 73728;
  a.strided_lowered_bytes = 4800;
  a.seconds = 1.25e-4;
  a.source = "microbench:conv, \"odd\" name";
  Sample b;
  b.op_class = OpClass::pool;
  b.dtype = DType::fp16;
  b.bytes = 1e6;
  b.plane_elements = 729;
  b.seconds = 3e-5;
  const auto back = parse_samples_csv(write_samples_csv({a, b}), "s.csv");
  REQUIRE(back.size() == 2);
  CHECK(back[0].op_class == OpClass::conv);
  CHECK(back[0].pass == KernelPart::bwd_data);
  CHECK(back[0].flops == 123456789);
  REQUIRE(back[0].gemm);
  CHECK(back[0].gemm->groups == 2);
  CHECK(back[0].lowered_bytes == 4800);
  CHECK(back[0].reuse_bytes == 2.5e7);
  CHECK(back[1].reuse_bytes == 0);
  CHECK(back[0].cross_core_bytes == 1.5e6);
  CHECK(back[1].cross_core_bytes == 0);
  CHECK(back[0].images == 3);
  CHECK(back[1].images == 1);
  CHECK(back[0].plane_elements == 0);
  CHECK(back[1].plane_elements == 729);
  CHECK(back[0].epilogue_sweeps == 2);
  CHECK(back[1].epilogue_sweeps == 0);
  CHECK(back[0].weight_bytes == 73728);
  CHECK(back[1].weight_bytes == 0);
  CHECK(back[0].strided_lowered_bytes == 4800);
  CHECK(back[1].strided_lowered_bytes == 0);
  CHECK(back[0].seconds == rel(1.25e-4));
  CHECK(back[0].source == a.source);
  CHECK_FALSE(back[1].gemm);
  CHECK(back[1].dtype == DType::fp16);
}

TEST_CASE("bad sample files name the place") {
  auto error_of = [](const std::string &text) -> std::string {
    try {
      parse_samples_csv(text, "s.csv");
    } catch (const InputError &e) {
      return e.what();
    }
    return "";
  };
  // The layout of 19 fields (before parallel_units and the conv geometry): its columns keep
  // their places in the newer layouts.
  const std::string head =
      "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,"
      "reuse_bytes,cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,"
      "strided_lowered_bytes,time (s),source\n";
  CHECK(error_of("a,b\n").find("s.csv:1:1: error: expected the header") == 0);
  CHECK(error_of(head + "conv,fp32,fwd,1,2\n") == "s.csv:2:1: error: expected 19 fields, found 5");
  CHECK(error_of(head + "nope,fp32,fwd,1,2,0,0,0,0,0,0,0,1,0,0,0,0,1e-3,x\n") ==
        "s.csv:2:1: error: unknown op class, not 'nope'");
  CHECK(error_of(head + "pool,fp32,fwd,1,2,0,0,0,0,0,0,0,1,0,0,0,0,0,x\n") ==
        "s.csv:2:43: error: expected a positive time, not '0'");
  CHECK(error_of(head + "pool,fp32,fwd,1,z,0,0,0,0,0,0,0,1,0,0,0,0,1,x\n") ==
        "s.csv:2:17: error: expected a non-negative number, not 'z'");
  CHECK(error_of(head + "pool,fp32,fwd,1,2,0,0,0,0,0,-1,0,1,0,0,0,0,1,x\n") ==
        "s.csv:2:29: error: expected a non-negative number, not '-1'");
  CHECK(error_of(head + "pool,fp32,fwd,1,2,0,0,0,0,0,0,0,0.5,0,0,0,0,1,x\n") ==
        "s.csv:2:33: error: expected at least 1 image, not '0.5'");
  CHECK(error_of(head + "pool,fp32,fwd,1,2,0,0,0,0,0,0,0,1,-4,0,0,0,1,x\n") ==
        "s.csv:2:35: error: expected a non-negative number, not '-4'");
  CHECK(error_of(head + "conv,fp32,fwd,1,2,0,0,0,0,0,0,0,1,0,-2,0,0,1,x\n") ==
        "s.csv:2:37: error: expected a non-negative number, not '-2'");
  CHECK(error_of(head + "conv,fp32,fwd,1,2,0,0,0,0,0,0,0,1,0,0,-8,0,1,x\n") ==
        "s.csv:2:39: error: expected a non-negative number, not '-8'");
  CHECK(error_of(head + "conv,fp32,fwd,1,2,0,0,0,0,0,0,0,1,0,0,0,-3,1,x\n") ==
        "s.csv:2:41: error: expected a non-negative number, not '-3'");
  // GEMM dimensions are whole numbers that fit int64 exactly (before: 1e30 was converted to an
  // integer, which is undefined).
  CHECK(error_of(head + "gemm,fp32,fwd,1,2,1e30,4,4,1,0,0,0,1,0,0,0,0,1,x\n") ==
        "s.csv:2:19: error: expected a whole number from 0 to 2^50, not '1e30'");
  CHECK(error_of(head + "gemm,fp32,fwd,1,2,4,4.5,4,1,0,0,0,1,0,0,0,0,1,x\n") ==
        "s.csv:2:21: error: expected a whole number from 0 to 2^50, not '4.5'");
  CHECK(error_of(head + "gemm,fp32,fwd,1,2,4,4,4,inf,0,0,0,1,0,0,0,0,1,x\n") ==
        "s.csv:2:25: error: expected a non-negative number, not 'inf'");
}

TEST_CASE("sample files written before a column read it at its default") {
  // The columns added after lowered_bytes, in order, each with the value a file gives it.
  const std::vector<std::string> cols = {
      "reuse_bytes",  "cross_core_bytes",     "images", "plane", "epilogue_sweeps",
      "weight_bytes", "strided_lowered_bytes"};
  const std::vector<double> given = {5, 7, 2, 9, 2, 11, 64};
  const std::vector<double> defaults = {0, 0, 1, 0, 0, 0, 0};
  for (size_t n = 0; n < cols.size(); ++n) { // a file with the first n of them
    CAPTURE(n);
    std::string head = "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,"
                       "lowered_bytes",
                row = "conv,fp32,fwd,1,2,4,4,4,1,64";
    for (size_t i = 0; i < n; ++i)
      head += "," + cols[i], row += "," + std::to_string(given[i]);
    const Sample s = only_sample(head + ",time (s),source\n" + row + ",1e-3,x\n");
    const double got[] = {s.reuse_bytes,          s.cross_core_bytes, s.images,
                          s.plane_elements,       s.epilogue_sweeps,  s.weight_bytes,
                          s.strided_lowered_bytes};
    for (size_t i = 0; i < cols.size(); ++i) {
      CAPTURE(cols[i]);
      CHECK(got[i] == (i < n ? given[i] : defaults[i]));
    }
    CHECK(s.lowered_bytes == 64);
    CHECK(s.seconds == rel(1e-3));
    CHECK(s.source == "x");
  }
}

TEST_CASE("an old sample file's rows have its header's field count") {
  const std::string old =
      "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,time (s),"
      "source\npool,fp32,fwd,1,2,0,0,0,0,0,1e-3,x\n";
  CHECK_THROWS_WITH_AS(parse_samples_csv(old + "pool,fp32,fwd,1,2,0,0,0,0,0,0,1e-3,x\n", "old.csv"),
                       "old.csv:3:1: error: expected 12 fields, found 13", InputError);
}

TEST_CASE("residuals give each sample's prediction, error and whether it was fitted") {
  Calibration cal;
  cal.memory_levels = {{"DRAM", 0}};
  ClassCalibration cc;
  cc.op_class = OpClass::elementwise;
  cc.params.peak_flops_per_second = 1e12;
  cc.params.bytes_per_second = {1e10}; // 1 MB: 100 us
  cal.classes.push_back(cc);
  Sample s;
  s.op_class = OpClass::elementwise;
  s.bytes = 1e6;
  s.seconds = 8e-5;
  s.source = "microbench:map/relu";
  Sample held = s;
  held.op_class = OpClass::conv; // a network layer of a class the networks do not fit
  held.gemm = GemmShape{8, 8, 8, 1};
  held.source = "network:calib_res:c1";
  const std::string csv = write_residuals_csv(cal, {s, held});
  CHECK(csv == "op_class,dtype,source,flops,bytes,measured (s),predicted (s),error,fitted\n"
               "elementwise,fp32,microbench:map/relu,0,1000000,8e-05,0.0001,0.25,1\n"
               "conv,fp32,network:calib_res:c1,0,1000000,8e-05,,,0\n");
}
