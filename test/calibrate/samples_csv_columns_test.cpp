// Tests of the fit-sample CSV's feature columns: every KernelFeatures field a fit reads (the
// conv geometry and parallel units included) comes back from a written file, and bad values of
// the newer columns are located errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../core/test_graphs.hpp"
#include "perfmodel/calibrate/samples_csv.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;
using V = std::vector<int64_t>;

namespace {

// Every KernelFeatures field of `a` equals `b`'s (doubles exactly: the file keeps all digits).
void check_same_features(const KernelFeatures &a, const KernelFeatures &b) {
  CHECK(a.op_class == b.op_class);
  CHECK(a.dtype == b.dtype);
  CHECK(a.pass == b.pass);
  CHECK(a.flops == b.flops);
  CHECK(a.bytes == b.bytes);
  REQUIRE(a.gemm.has_value() == b.gemm.has_value());
  if (a.gemm) {
    CHECK(a.gemm->m == b.gemm->m);
    CHECK(a.gemm->n == b.gemm->n);
    CHECK(a.gemm->k == b.gemm->k);
    CHECK(a.gemm->groups == b.gemm->groups);
  }
  CHECK(a.lowered_bytes == b.lowered_bytes);
  CHECK(a.reuse_bytes == b.reuse_bytes);
  CHECK(a.cross_core_bytes == b.cross_core_bytes);
  CHECK(a.images == b.images);
  CHECK(a.plane_elements == b.plane_elements);
  CHECK(a.epilogue_sweeps == b.epilogue_sweeps);
  CHECK(a.weight_bytes == b.weight_bytes);
  CHECK(a.strided_lowered_bytes == b.strided_lowered_bytes);
  CHECK(a.parallel_units == b.parallel_units);
  CHECK(a.channel_elements == b.channel_elements);
  CHECK(a.layout == b.layout);
  REQUIRE(a.conv.has_value() == b.conv.has_value());
  if (a.conv) {
    const ConvGeometry &x = *a.conv, &y = *b.conv;
    CHECK(x.batch == y.batch);
    CHECK(x.in_channels == y.in_channels);
    CHECK(x.out_channels == y.out_channels);
    CHECK(x.in_h == y.in_h);
    CHECK(x.in_w == y.in_w);
    CHECK(x.out_h == y.out_h);
    CHECK(x.out_w == y.out_w);
    CHECK(x.kernel_h == y.kernel_h);
    CHECK(x.kernel_w == y.kernel_w);
    CHECK(x.stride_h == y.stride_h);
    CHECK(x.stride_w == y.stride_w);
    CHECK(x.dilation_h == y.dilation_h);
    CHECK(x.dilation_w == y.dilation_w);
    CHECK(x.groups == y.groups);
  }
}

// The header of the layout with parallel_units and the conv geometry (34 fields).
const std::string kHead34 =
    "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,reuse_bytes,"
    "cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,strided_lowered_bytes,"
    "parallel_units,conv_batch,conv_in_channels,conv_out_channels,conv_in_h,conv_in_w,conv_out_h,"
    "conv_out_w,conv_kernel_h,conv_kernel_w,conv_stride_h,conv_stride_w,conv_dilation_h,"
    "conv_dilation_w,conv_groups,time (s),source\n";

std::string error_of(const std::string &text) {
  try {
    parse_samples_csv(text, "s.csv");
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

// A row of the newest layout: a conv sample's counts, then parallel units, the 14 conv_*
// fields and the time.
std::string row(const std::string &parallel, const std::string &conv) {
  return "conv,fp32,fwd,1,2,4,4,4,1,0,0,0,1,0,0,0,0," + parallel + "," + conv + ",1e-3,x\n";
}

} // namespace

TEST_CASE("conv, streaming and GEMM samples keep every feature through the CSV") {
  // Real layers' features (layer_features): a strided, dilated, grouped convolution in each
  // pass, streaming layers with their parallel units, a GEMM.
  const Graph conv =
      test::one_layer({2, 8, 33, 31}, test::make_layer("c", "conv2d",
                                                       {{"out_channels", int64_t(12)},
                                                        {"kernel", V{3, 5}},
                                                        {"stride", V{2, 1}},
                                                        {"pad", V{1, 2}},
                                                        {"dilation", V{1, 2}},
                                                        {"groups", int64_t(4)}}));
  const Graph relu = test::one_layer({3, 5, 7, 9}, test::make_layer("r", "relu"));
  const Graph bn = test::one_layer({3, 5, 7, 9}, test::make_layer("b", "batchnorm"));
  const Graph pool = test::one_layer(
      {2, 4, 16, 16}, test::make_layer("p", "maxpool", {{"kernel", V{2, 2}}, {"stride", V{2, 2}}}));
  const Graph fc =
      test::one_layer({4, 100}, test::make_layer("fc", "linear", {{"out_features", int64_t{10}}}));
  std::vector<Sample> samples;
  for (KernelPart part : {KernelPart::fwd, KernelPart::bwd_data, KernelPart::bwd_weight})
    samples.push_back(sample_from_layer(conv, conv.layers[0], part, 1.2345678901234e-4,
                                        "trace:conv \"odd\", name", 3e6, 1e5));
  samples.push_back(sample_from_layer(relu, relu.layers[0], KernelPart::fwd, 1e-5 / 3, "relu"));
  samples.push_back(sample_from_layer(bn, bn.layers[0], KernelPart::bwd_data, 2e-5 / 7, "bn"));
  samples.push_back(sample_from_layer(pool, pool.layers[0], KernelPart::fwd, 3e-6, "pool"));
  samples.push_back(sample_from_layer(fc, fc.layers[0], KernelPart::bwd_weight, 0.1 / 3, "fc"));
  // What the GPU rules read is there to be lost: a geometry and parallel units.
  REQUIRE(samples[0].conv);
  CHECK(samples[0].conv->groups == 4);
  CHECK(samples[3].parallel_units == 3 * 5 * 7 * 9); // relu: its outputs
  CHECK(samples[4].parallel_units == 5);             // batch norm: its channels
  CHECK(samples[5].parallel_units > 0);              // pool: its outputs
  CHECK(samples[4].channel_elements == 3 * 7 * 9);   // batch norm: N*H*W per channel
  samples[1].layout = Layout::nhwc;                  // a channels-last call

  const std::string text = write_samples_csv(samples);
  const auto back = parse_samples_csv(text, "s.csv");
  REQUIRE(back.size() == samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    CAPTURE(i);
    check_same_features(back[i].features(), samples[i].features());
    CHECK(back[i].seconds == samples[i].seconds); // exactly: a refit fits the same times
    CHECK(back[i].source == samples[i].source);
  }
  CHECK(write_samples_csv(back) == text);
}

TEST_CASE("a sample file from before the conv geometry reads no geometry and no parallel units") {
  const std::string old =
      "op_class,dtype,pass,flops,bytes,gemm_m,gemm_n,gemm_k,gemm_groups,lowered_bytes,"
      "reuse_bytes,cross_core_bytes,images,plane,epilogue_sweeps,weight_bytes,"
      "strided_lowered_bytes,time (s),source\n"
      "conv,fp32,fwd,1,2,4,4,4,1,64,5,7,2,9,2,11,64,1e-3,x\n";
  const auto back = parse_samples_csv(old, "old.csv");
  REQUIRE(back.size() == 1);
  CHECK_FALSE(back[0].conv);
  CHECK(back[0].parallel_units == 0);
  CHECK(back[0].strided_lowered_bytes == 64);
  CHECK(back[0].seconds == 1e-3);
  CHECK(back[0].source == "x");
}

TEST_CASE("the newest layout's columns are checked, each error at its field") {
  // The layout of 34 fields: later layouts append columns, and this one still reads.
  const std::string head = kHead34;
  const std::string none = "0,0,0,0,0,0,0,0,0,0,0,0,0,0";
  const std::string geom = "2,8,12,33,31,17,31,3,5,2,1,1,2,4";
  // A layout between two known ones (here: parallel_units alone) is no layout.
  CHECK(error_of(head.substr(0, head.find(",conv_batch")) + ",time (s),source\n")
            .find("s.csv:1:1: error: expected the header") == 0);
  CHECK(error_of(head + "conv,fp32,fwd,1,2\n") == "s.csv:2:1: error: expected 34 fields, found 5");
  const auto good = parse_samples_csv(head + row("77", geom) + row("0", none), "s.csv");
  REQUIRE(good.size() == 2);
  REQUIRE(good[0].conv);
  CHECK(good[0].conv->out_h == 17);
  CHECK(good[0].conv->dilation_w == 2);
  CHECK(good[0].parallel_units == 77);
  CHECK_FALSE(good[1].conv);
  // parallel_units (column 43 of these rows): a whole count.
  CHECK(error_of(head + row("2.5", geom)) ==
        "s.csv:2:43: error: expected a whole number from 0 to 2^50, not '2.5'");
  CHECK(error_of(head + row("-1", geom)) ==
        "s.csv:2:43: error: expected a non-negative number, not '-1'");
  CHECK(error_of(head + row("nan", geom)) ==
        "s.csv:2:43: error: expected a non-negative number, not 'nan'");
  // conv_batch at column 45, conv_in_channels at 47, conv_groups at 76.
  CHECK(error_of(head + row("0", "inf,8,12,33,31,17,31,3,5,2,1,1,2,4")) ==
        "s.csv:2:45: error: expected a non-negative number, not 'inf'");
  CHECK(error_of(head + row("0", "2,8.5,12,33,31,17,31,3,5,2,1,1,2,4")) ==
        "s.csv:2:47: error: expected a whole number from 0 to 2^50, not '8.5'");
  CHECK(error_of(head + row("0", "2,8,12,33,31,17,31,3,5,2,1,1,2,1e20")) ==
        "s.csv:2:76: error: expected a whole number from 0 to 2^50, not '1e20'");
  // A geometry is all 0 (none) or counts from 1: a stride of 0 is neither.
  CHECK(error_of(head + row("0", "2,8,12,33,31,17,31,3,5,0,1,1,2,4")) ==
        "s.csv:2:68: error: expected a conv geometry of counts from 1 (or all 0: none), not '0'");
  // Each count within 2^50, but the input tensor past it (its int64 product overflows).
  CHECK(error_of(head + row("0", "1125899906842624,8,12,33,31,17,31,3,5,2,1,1,2,4")) ==
        "s.csv:2:45: error: expected a conv geometry whose input and output have at most 2^50 "
        "elements, not '1125899906842624'");
  // The time and source follow the geometry.
  CHECK(error_of(head + "conv,fp32,fwd,1,2,4,4,4,1,0,0,0,1,0,0,0,0,0," + none + ",0,x\n") ==
        "s.csv:2:73: error: expected a positive time, not '0'");
}

TEST_CASE("a 34-field sample file reads no channel elements and the nchw layout; a bad layout is "
          "located") {
  const auto back = parse_samples_csv(kHead34 + row("5", "1,2,3,4,4,2,2,3,3,2,2,1,1,1"), "s.csv");
  REQUIRE(back.size() == 1);
  CHECK(back[0].channel_elements == 0);
  CHECK(back[0].layout == Layout::nchw);
  const std::string head36 = std::string(kHead34).replace(
      kHead34.find(",time (s)"), 0, ",channel_elements,layout");
  const std::string good = "conv,fp32,fwd,1,2,4,4,4,1,0,0,0,1,0,0,0,0,5,"
                           "1,2,3,4,4,2,2,3,3,2,2,1,1,1,0,nhwc,1e-3,x\n";
  const auto cl = parse_samples_csv(head36 + good, "s.csv");
  REQUIRE(cl.size() == 1);
  CHECK(cl[0].layout == Layout::nhwc);
  std::string bad = good;
  bad.replace(bad.find("nhwc"), 4, "nhcw");
  const std::string e = error_of(head36 + bad);
  CHECK(e.find("s.csv:2:") == 0);
  CHECK(e.find("expected a layout") != std::string::npos);
}
