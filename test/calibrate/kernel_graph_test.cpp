// Tests of the one-layer kernel graphs: counts come from the core's rules for each pass.
#include <doctest/doctest.h>

#include "perfmodel/calibrate/kernel_graph.hpp"

using namespace perfmodel;
using namespace perfmodel::calibrate;

namespace {

io::MeasurementRow conv_row() {
  io::MeasurementRow r;
  r.op = io::KernelOp::conv2d;
  r.batch = 2, r.c = 16, r.h = 28, r.w = 28, r.out_channels = 32;
  r.kernel_h = r.kernel_w = 3;
  r.pad_h = r.pad_w = 1;
  r.seconds = 1e-3;
  r.loc = SourceLoc{"k.csv", 4, 0};
  return r;
}

} // namespace

TEST_CASE("gemm rows: boda FLOPs and compulsory bytes, batch as groups") {
  io::MeasurementRow r;
  r.m = 64, r.n = 32, r.k = 16;
  KernelCounts k = kernel_counts(r);
  CHECK(k.features.op_class == OpClass::gemm);
  CHECK(k.features.flops == 2.0 * 64 * 32 * 16);
  CHECK(k.features.bytes == 4.0 * (64 * 16 + 16 * 32 + 64 * 32));
  REQUIRE(k.features.gemm);
  CHECK(k.features.gemm->m == 64);
  CHECK(k.features.gemm->groups == 1);
  r.batch = 3;
  k = kernel_counts(r);
  CHECK(k.features.flops == 3 * 2.0 * 64 * 32 * 16);
  CHECK(k.features.gemm->groups == 3);
}

TEST_CASE("conv rows: forward and the two backward parts") {
  io::MeasurementRow r = conv_row();
  const KernelCounts f = kernel_counts(r);
  CHECK(f.features.op_class == OpClass::conv);
  const double macs = 2.0 * 28 * 28 * 32 * 16 * 9;
  CHECK(f.features.flops == 2 * macs);
  CHECK(f.features.bytes == 4.0 * (2 * 16 * 28 * 28 + 32 * 16 * 9 + 2 * 32 * 28 * 28));
  CHECK(f.features.lowered_bytes == 4.0 * 2 * 28 * 28 * 16 * 9);
  r.pass = KernelPart::bwd_data;
  const KernelCounts d = kernel_counts(r);
  CHECK(d.features.flops == double(d.cost.bwd_data.flops));
  CHECK(d.features.gemm->n == 16 * 9);
  r.pass = KernelPart::bwd_weight;
  const KernelCounts w = kernel_counts(r);
  CHECK(w.features.flops == double(w.cost.bwd_weight.flops));
  CHECK(w.features.gemm->k == 2 * 28 * 28);
}

TEST_CASE("conv rows with a bias and a fused activation count the bias and the epilogue") {
  io::MeasurementRow r = conv_row();
  const KernelCounts plain = kernel_counts(r);
  CHECK(plain.features.epilogue_sweeps == 0);
  r.bias = true;
  const KernelCounts biased = kernel_counts(r);
  CHECK(biased.features.epilogue_sweeps == 1);
  CHECK(biased.features.bytes == plain.features.bytes + 4.0 * 32); // one bias per channel
  CHECK(plain.features.weight_bytes == 4.0 * 32 * 16 * 9);
  CHECK(biased.features.weight_bytes == plain.features.weight_bytes); // the bias is no weight
  r.activation = "relu";
  CHECK(kernel_counts(r).features.epilogue_sweeps == 2);
  r.pass = KernelPart::bwd_data; // a backward product has no epilogue
  CHECK(kernel_counts(r).features.epilogue_sweeps == 0);
}

TEST_CASE("depthwise rows and samples") {
  io::MeasurementRow r = conv_row();
  r.groups = 16;
  r.out_channels = 16;
  const Sample s = kernel_sample(r);
  CHECK(s.op_class == OpClass::depthwise);
  CHECK(s.seconds == 1e-3);
  CHECK(s.source == "k.csv:4");
  CHECK(s.lowered_bytes == 0);
  r.seconds.reset();
  CHECK_THROWS_AS(kernel_sample(r), InputError);
}
