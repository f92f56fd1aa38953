// Known answers of the GPU target's formulas: architectures, CTA tiles, waves and split-K, the
// Winograd, alignment and strided-convolution rules, and the terms a call gets
// (include/perfmodel/targets/gpu.hpp, docs/gpu_model.md).
#include <doctest/doctest.h>

#include <cmath>

#include "perfmodel/calibration.hpp"
#include "perfmodel/targets/gpu.hpp"
#include "perfmodel/targets/gpu/arch.hpp"
#include "perfmodel/targets/gpu/conv_rules.hpp"
#include "perfmodel/targets/gpu/tiles.hpp"

using namespace perfmodel;
using namespace perfmodel::gpu;

namespace {

KernelFeatures conv_call(DType dtype, KernelPart pass, int64_t c, int64_t k, int64_t hw,
                         int64_t kernel, int64_t stride) {
  ConvGeometry g;
  g.batch = 32;
  g.in_channels = c;
  g.out_channels = k;
  g.in_h = g.in_w = hw;
  g.out_h = g.out_w = (hw + 2 * (kernel / 2) - kernel) / stride + 1;
  g.kernel_h = g.kernel_w = kernel;
  g.stride_h = g.stride_w = stride;
  KernelFeatures f;
  f.op_class = OpClass::conv;
  f.dtype = dtype;
  f.pass = pass;
  f.conv = g;
  const int64_t m = g.batch * g.out_h * g.out_w, n = k, kk = c * kernel * kernel;
  f.gemm = GemmShape{m, n, kk, 1};
  f.flops = 2.0 * double(m) * double(n) * double(kk);
  f.bytes = 4.0 * double(g.batch * c * hw * hw + k * kk + m * n);
  return f;
}

Calibration h200_frame() {
  Calibration c;
  c.hardware = "h200";
  c.cores = 132;
  c.memory_levels = {{"l2", 50e6}, {"dram", 0}};
  c.target = &gpu::target();
  return c;
}

} // namespace

TEST_CASE("GPU architectures are found by the family in a spec or device name") {
  CHECK(arch_for("v100").name == "volta");
  CHECK(arch_for("Tesla V100-SXM2-16GB").name == "volta");
  CHECK(arch_for("t4").name == "turing");
  CHECK(arch_for("NVIDIA A100-SXM4-80GB").name == "ampere");
  CHECK(arch_for("h200").name == "hopper");
  CHECK(arch_for("NVIDIA H100 80GB HBM3").name == "hopper");
  CHECK(arch_for("v1000").name == "hopper"); // no family: the newest table
  CHECK(arch_for("h200").tensor_over_simt == doctest::Approx(989.0 / 133.8));
  CHECK(resident_ctas({128, 128}) == 1);
  CHECK(resident_ctas({256, 128}) == 1);
  CHECK(resident_ctas({128, 64}) == 2);
  CHECK(resident_ctas({64, 64}) == 4);
  CHECK(resident_ctas({32, 32}) == 4);
}

TEST_CASE("waves are whole: the last wave's idle slots cost their work") {
  // 1024 x 1024 in 128x128 tiles: 64 tiles on 132 SMs, one wave of 132 slots.
  const TileChoice c = tile_choice({128, 128}, 1, 132, 1024, 1024, 512, 1);
  CHECK(c.tiles == 64);
  CHECK(c.waves == 1);
  CHECK(c.work == doctest::Approx(132.0 * 128 * 128 * 512));
  CHECK(c.useful == doctest::Approx(1024.0 * 1024 * 512));
  // 133 tiles need a second wave: twice 132 slots.
  const TileChoice d = tile_choice({128, 128}, 1, 132, 128 * 7, 128 * 19, 64, 1);
  CHECK(d.tiles == 133);
  CHECK(d.waves == 2);
  CHECK(d.work == doctest::Approx(2 * 132.0 * 128 * 128 * 64));
  // Partial tiles cost whole ones; groups multiply the tiles.
  const TileChoice e = tile_choice({64, 64}, 1, 10, 65, 64, 32, 3);
  CHECK(e.tiles == 6);
  CHECK(e.waves == 1); // 10 SMs x 4 resident 64x64 CTAs
  CHECK(e.work == doctest::Approx(40.0 * 64 * 64 * 32));
}

TEST_CASE("split-K is tried only when the tiles do not fill the SMs") {
  CHECK(split_allowed({128, 128}, 4, 132, 512, 512, 8192, 1));    // 16 tiles
  CHECK(split_allowed({128, 128}, 16, 132, 512, 512, 8192, 1));   // 256 CTAs: two waves
  CHECK(!split_allowed({128, 128}, 32, 132, 512, 512, 8192, 1));  // 512 > 2 x 132 CTAs
  CHECK(!split_allowed({128, 128}, 2, 132, 4096, 4096, 8192, 1)); // 1024 tiles fill them
  CHECK(!split_allowed({128, 128}, 8, 132, 512, 512, 512, 1));    // 64 of k per split
  CHECK(split_allowed({64, 64}, 64, 132, 64, 256, 100352, 1));    // 4 x 64 <= 2 x 528 slots
  const TileChoice s = tile_choice({128, 128}, 4, 132, 512, 512, 8192, 1);
  CHECK(s.k_per_split == 2048);
  CHECK(s.split_bytes == doctest::Approx(8.0 * 512 * 512 * 4));
  // By the work alone, a deep product with few tiles splits; a large one does not.
  const std::vector<CtaTile> tiles = {{128, 128}, {64, 64}};
  CHECK(choose_tiles(tiles, 132, 512, 512, 8192, 1, 0, nullptr).splits > 1);
  const TileChoice big = choose_tiles(tiles, 132, 8192, 8192, 8192, 1, 0, nullptr);
  CHECK(big.splits == 1);
  // 8192^2 tiles fill the slots exactly in either tile: the tie goes to the tile listed first.
  CHECK(big.tile.m == 128);
  // At rates that make the partial sums dear (a slow bandwidth), the split is not taken.
  TileRates slow;
  slow.peak = 1e15;
  slow.bandwidth = 1e9;
  CHECK(choose_tiles(tiles, 132, 512, 512, 8192, 1, 0, &slow).splits == 1);
}

TEST_CASE("Winograd applies to fp32 3x3 and 5x5 stride-1 convolutions with enough channels") {
  const KernelFeatures f = conv_call(DType::fp32, KernelPart::fwd, 64, 64, 56, 3, 1);
  CHECK(winograd_applies(f));
  // 56 x 56 outputs: whole 2x2 tiles, 2.25x fewer multiplies.
  CHECK(winograd_work_factor(f) == doctest::Approx(1 / 2.25));
  // 7 x 7: rounded up to 8 x 8.
  const KernelFeatures odd = conv_call(DType::fp32, KernelPart::fwd, 512, 512, 7, 3, 1);
  CHECK(winograd_work_factor(odd) == doctest::Approx(64.0 / 49 / 2.25));
  const KernelFeatures five = conv_call(DType::fp32, KernelPart::bwd_weight, 64, 64, 28, 5, 1);
  CHECK(winograd_work_factor(five) == doctest::Approx(36.0 / 100));
  CHECK(!winograd_applies(conv_call(DType::fp16, KernelPart::fwd, 64, 64, 56, 3, 1)));
  CHECK(!winograd_applies(conv_call(DType::tf32, KernelPart::fwd, 64, 64, 56, 3, 1)));
  CHECK(!winograd_applies(conv_call(DType::fp32, KernelPart::fwd, 64, 64, 56, 3, 2)));
  CHECK(!winograd_applies(conv_call(DType::fp32, KernelPart::fwd, 3, 64, 224, 3, 1)));
  CHECK(!winograd_applies(conv_call(DType::fp32, KernelPart::fwd, 64, 64, 56, 1, 1)));
  CHECK(!winograd_applies(conv_call(DType::fp32, KernelPart::fwd, 64, 64, 56, 7, 1)));
  KernelFeatures grouped = f;
  grouped.conv->groups = 2;
  CHECK(!winograd_applies(grouped));
  KernelFeatures gemm;
  gemm.gemm = GemmShape{64, 64, 64, 1};
  CHECK(winograd_work_factor(gemm) == 1);
}

TEST_CASE("half-precision channels not a multiple of 8 leave the tensor cores") {
  const GpuArch &hopper = arch_for("h200");
  CHECK(tensor_alignment(DType::fp16) == 8);
  CHECK(tensor_alignment(DType::tf32) == 4);
  CHECK(tensor_alignment(DType::int8) == 16);
  CHECK(tensor_cores_aligned(conv_call(DType::fp16, KernelPart::fwd, 64, 64, 56, 3, 1)));
  const KernelFeatures rgb = conv_call(DType::fp16, KernelPart::fwd, 3, 64, 224, 7, 2);
  CHECK(!tensor_cores_aligned(rgb));
  CHECK(alignment_work_factor(rgb, hopper) == doctest::Approx(989.0 / 133.8));
  CHECK(!tensor_cores_aligned(conv_call(DType::fp16, KernelPart::fwd, 64, 60, 56, 3, 1)));
  // fp32 never uses them: nothing to lose.
  CHECK(tensor_cores_aligned(conv_call(DType::fp32, KernelPart::fwd, 3, 64, 224, 7, 2)));
  KernelFeatures g;
  g.dtype = DType::fp16;
  g.gemm = GemmShape{100, 4096, 4096, 1};
  CHECK(tensor_cores_aligned(g)); // m is free
  g.gemm = GemmShape{100, 4096, 4095, 1};
  CHECK(!tensor_cores_aligned(g));
}

TEST_CASE("a strided 1x1 convolution reads only the rows it uses") {
  const KernelFeatures p = conv_call(DType::fp32, KernelPart::fwd, 256, 512, 56, 1, 2);
  CHECK(strided_1x1_unread_bytes(p) == doctest::Approx(32.0 * 256 * 56 * 56 * 4 / 2));
  CHECK(strided_1x1_unread_bytes(conv_call(DType::fp32, KernelPart::fwd, 256, 512, 56, 1, 1)) == 0);
  CHECK(strided_1x1_unread_bytes(
            conv_call(DType::fp32, KernelPart::bwd_data, 256, 512, 56, 1, 2)) == 0);
}

TEST_CASE("the GPU target tiles GEMM-like calls itself and charges split-K's partial sums") {
  const Calibration cal = h200_frame();
  const ExecutionTarget &t = gpu::target();
  CHECK(t.per_pass_classes());
  KernelFeatures f = conv_call(DType::fp32, KernelPart::fwd, 64, 64, 56, 3, 1);
  double calls = 0;
  const KernelFeatures one = t.one_call(f, &calls);
  CHECK(calls == 1);
  CHECK(one.lowered_bytes == 0);
  const EfficiencyTerms e = efficiency_terms(cal, 1, 1, one);
  const TileChoice c = choose_tiles(arch_for("h200").simt_tiles, 132, double(f.gemm->m),
                                    double(f.gemm->n), double(f.gemm->k), 1, f.bytes, nullptr);
  CHECK(e.quantized_flops == doctest::Approx(f.flops * c.work / c.useful / 2.25));
  CHECK(e.m == c.tile.m);
  CHECK(e.n == c.tile.n);
  CHECK(e.splits == 1);
  CHECK(e.term_bytes.size() == 2); // split-K, layout
  CHECK(e.term_bytes[kSplitK] == 0);
  // A deep product with few tiles: split, and its partial sums are the term's bytes.
  KernelFeatures g;
  g.op_class = OpClass::gemm;
  g.dtype = DType::fp16;
  g.gemm = GemmShape{256, 256, 16384, 1};
  g.flops = 2.0 * 256 * 256 * 16384;
  g.bytes = 2.0 * (256 * 16384 * 2 + 256 * 256);
  const EfficiencyTerms s = efficiency_terms(cal, 1, 1, g);
  CHECK(s.splits > 1);
  CHECK(s.term_bytes[kSplitK] == doctest::Approx(8.0 * 256 * 256 * s.splits));
  // Streaming calls and depthwise convolutions keep the generic rule.
  KernelFeatures dw = f;
  dw.op_class = OpClass::depthwise;
  const double tiles = double(f.gemm->m) * double(f.gemm->n); // 1x1 tiles over 132 SMs
  CHECK(efficiency_terms(cal, 1, 1, dw).quantized_flops ==
        doctest::Approx(f.flops * std::ceil(tiles / 132) * 132 / tiles));
}

TEST_CASE("a class fitted on one pass part times that part; others fall back") {
  Calibration cal = h200_frame();
  ClassCalibration fwd, data, any;
  fwd.op_class = data.op_class = any.op_class = OpClass::conv;
  fwd.pass = KernelPart::fwd;
  data.pass = KernelPart::bwd_data;
  fwd.params.peak_flops_per_second = 1;
  data.params.peak_flops_per_second = 2;
  any.params.peak_flops_per_second = 3;
  cal.classes = {fwd, data};
  CHECK(cal.find_for_pass(OpClass::conv, DType::fp32, KernelPart::bwd_data)
            ->params.peak_flops_per_second == 2);
  CHECK(cal.find_for_pass(OpClass::conv, DType::fp32, KernelPart::bwd_weight)
            ->params.peak_flops_per_second == 1); // no class of its own: the forward one
  cal.classes.push_back(any);
  CHECK(cal.find_for_pass(OpClass::conv, DType::fp32, KernelPart::bwd_weight)
            ->params.peak_flops_per_second == 3); // one fitted on every part comes first
  CHECK(cal.find_for_pass(OpClass::gemm, DType::fp32, KernelPart::fwd) == nullptr);
}
