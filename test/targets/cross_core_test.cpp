// Tests of input_cross_core_bytes (the bytes of a layer's inputs one thread reads after another
// wrote them) and of the cross-core term of the calibrated model.
#include <doctest/doctest.h>

#include <limits>

#include "../core/test_graphs.hpp"
#include "../test_approx.hpp"
#include "perfmodel/calibration.hpp"
#include "perfmodel/cost.hpp"
#include "perfmodel/targets/cpu_eigen.hpp"

using namespace perfmodel;
using perfmodel::cpu_eigen::input_cross_core_bytes;
using perfmodel::test::make_graph;
using perfmodel::test::make_layer;

namespace {

// A cache no buffer is pushed out of: every write into lines another core touched counts.
constexpr double kAnyCache = std::numeric_limits<double>::infinity();

Layer conv3x3(const std::string &name, int64_t out, const std::string &input = "x") {
  return make_layer(name, "conv2d",
                    {{"out_channels", out}, {"kernel", int64_t(3)}, {"pad", int64_t(1)}}, {input});
}

std::vector<double> cross_core(const Graph &g, int threads, double cache_bytes) {
  return input_cross_core_bytes(g, graph_cost(g, Pass::fwd), threads, cache_bytes);
}

double bytes_of_tensor(const Graph &g, const std::string &name) {
  return double(g.tensors.at(name).bytes());
}

} // namespace

TEST_CASE("a GEMM that splits columns, read by ops that split elements or planes: a quarter") {
  // 64 x 3136 product (fewer rows than columns): each thread writes half of every plane; the
  // ReLU's and the pool's thread 0 read the first half of the planes, half of it the other's.
  const Graph g = make_graph({{"x", {1, 64, 56, 56}}},
                             {conv3x3("c", 64), make_layer("r", "relu", {}, {"c"}),
                              make_layer("p", "maxpool", {{"kernel", int64_t(2)}}, {"c"})});
  const auto cross = cross_core(g, 2, kAnyCache);
  REQUIRE(cross.size() == 3);
  CHECK(cross[0] == 0); // the graph input: nobody wrote it in the pass
  CHECK(cross[1] == doctest::Approx(0.25 * bytes_of_tensor(g, "c")).epsilon(0.01));
  CHECK(cross[2] == doctest::Approx(0.25 * bytes_of_tensor(g, "c")).epsilon(0.01));
  // The ReLU's output, read by a ReLU: the same elements on the same threads.
  const Graph g2 = make_graph({{"x", {1, 64, 56, 56}}}, {make_layer("r1", "relu", {}, {"x"}),
                                                         make_layer("r2", "relu", {}, {"r1"})});
  CHECK(cross_core(g2, 2, kAnyCache)[1] == 0);
}

TEST_CASE("a GEMM that splits rows matches a plane split at batch 1, not at batch 2") {
  // 512 x 196 product (more rows than columns): thread 0 writes channels 0-255 of each image.
  for (int64_t batch : {1, 2}) {
    const Graph g = make_graph({{"x", {batch, 512, 14, 14}}},
                               {conv3x3("c", 512), make_layer("r", "relu", {}, {"c"})});
    const double expect = batch == 1 ? 0.0 : 0.25 * bytes_of_tensor(g, "c");
    CAPTURE(batch);
    CHECK(cross_core(g, 2, kAnyCache)[1] ==
          doctest::Approx(expect).epsilon(0.01).scale(bytes_of_tensor(g, "c")));
  }
}

TEST_CASE("a GEMM wider than tall splits rows under 1024 columns: its ReLU reads its own half") {
  // 1x1 convolution at 23x23: a 256 x 529 product; thread 0 writes channels 0-127, the first
  // half of the tensor, which the ReLU's thread 0 reads. At 33x33 (1089 columns) the GEMM
  // splits columns and the ReLU reads a quarter from the other core.
  for (int64_t side : {23, 33}) {
    const Graph g = make_graph(
        {{"x", {1, 256, side, side}}},
        {make_layer("c", "conv2d", {{"out_channels", int64_t(256)}, {"kernel", int64_t(1)}}, {"x"}),
         make_layer("r", "relu", {}, {"c"})});
    const double expect = side == 23 ? 0.0 : 0.25 * bytes_of_tensor(g, "c");
    CAPTURE(side);
    CHECK(cross_core(g, 2, kAnyCache)[1] ==
          doctest::Approx(expect).epsilon(0.02).scale(bytes_of_tensor(g, "c")));
  }
}

TEST_CASE("a GEMM that splits rows reads all of its input on every thread") {
  // 1x1 convolution, 512 x 196 x 256: each thread reads the whole input, half of it the other's.
  const Graph g = make_graph(
      {{"x", {1, 256, 14, 14}}},
      {make_layer("r", "relu", {}, {"x"}),
       make_layer("p", "conv2d", {{"out_channels", int64_t(512)}, {"kernel", int64_t(1)}}, {"r"})});
  CHECK(cross_core(g, 2, kAnyCache)[1] ==
        doctest::Approx(0.5 * bytes_of_tensor(g, "r")).epsilon(0.01));
}

TEST_CASE("writing into a reused buffer the other core last touched counts too") {
  // r0 -> 1x1 conv p (256 x 196 x 256: splits rows, so every thread reads all of r0's buffer)
  // -> r1, whose output takes r0's buffer back (the executor's plan): each thread writes its
  // half into lines both cores hold. r1's own input (p splits channels, batch 1) is local.
  const Graph g = make_graph(
      {{"x", {1, 256, 14, 14}}},
      {make_layer("r0", "relu", {}, {"x"}),
       make_layer("p", "conv2d", {{"out_channels", int64_t(256)}, {"kernel", int64_t(1)}}, {"r0"}),
       make_layer("r1", "relu", {}, {"p"})});
  const auto cross = cross_core(g, 2, kAnyCache);
  CHECK(cross[2] == doctest::Approx(0.5 * bytes_of_tensor(g, "r1")).epsilon(0.01));
  CHECK(cross[1] == doctest::Approx(0.5 * bytes_of_tensor(g, "r0")).epsilon(0.01)); // reads
  // Between p's read of r0's buffer and r1's write into it the pass touches p's output and
  // weights (and bias): in a smaller cache the old lines are gone, and the write takes them
  // from DRAM, not from the other core. The reads do not depend on the cache.
  const double between = bytes_of_tensor(g, "p") + 4.0 * (256 * 256 + 256);
  CHECK(cross_core(g, 2, between)[2] == cross[2]);
  CHECK(cross_core(g, 2, 0.99 * between)[2] == 0);
  CHECK(cross_core(g, 2, 0.99 * between)[1] == cross[1]);
}

TEST_CASE("one thread, a small GEMM on one thread, views and unknown ops") {
  const Graph g =
      make_graph({{"x", {1, 64, 56, 56}}}, {conv3x3("c", 64), make_layer("f", "flatten", {}, {"c"}),
                                            make_layer("r", "relu", {}, {"f"})});
  for (double v : cross_core(g, 1, kAnyCache))
    CHECK(v == 0);
  const auto two = cross_core(g, 2, kAnyCache);
  CHECK(two[1] == 0); // a view reads nothing
  // Through the view the ReLU reads the convolution's output: the same quarter.
  CHECK(two[2] == doctest::Approx(0.25 * bytes_of_tensor(g, "c")).epsilon(0.01));
  // 4 x 16 x 9 multiply-adds: the GEMM runs on the caller's thread alone, thread 1 reads it all.
  const Graph small =
      make_graph({{"x", {1, 1, 4, 4}}}, {conv3x3("c", 4), make_layer("r", "relu", {}, {"c"})});
  CHECK(cross_core(small, 2, kAnyCache)[1] == 0); // 64 elements: one relu chunk, thread 0
}

TEST_CASE("the calibrated model adds cross-core bytes at their rate, except from DRAM") {
  Calibration cal;
  cal.target = &cpu_eigen::target();
  cal.cores = 2;
  cal.memory_levels = {{"l2", 1e6}, {"l3", 3e7}, {"dram", 0}};
  ClassCalibration cc;
  cc.op_class = OpClass::elementwise;
  cc.params.peak_flops_per_second = 1e15;
  cc.params.bytes_per_second = {4e11, 2e11, 5e10};
  cc.params.term_rates = {2e10, 0, 0, 0}; // cross_core_bytes_per_second
  cal.classes.push_back(cc);
  HwSpec hw;
  KernelFeatures f;
  f.op_class = OpClass::elementwise;
  f.bytes = 8e6; // l3
  f.cross_core_bytes = 1e6;
  CHECK(calibrated_time(cal, hw, f).seconds == rel(8e6 / 2e11 + 1e6 / 2e10));
  CHECK(calibrated_time(cal, hw, f).memory_seconds == rel(8e6 / 2e11 + 1e6 / 2e10));
  f.reuse_bytes = 1e8; // pushed out to DRAM: it comes back from there, not from the other core
  CHECK(calibrated_time(cal, hw, f).seconds == rel(8e6 / 5e10));
  f.reuse_bytes = 0;
  cal.classes[0].params.term_rates[cpu_eigen::kCrossCore] = 0; // a calibration without the term
  CHECK(calibrated_time(cal, hw, f).seconds == rel(8e6 / 2e11));
}

TEST_CASE("the outermost cache is the level before DRAM") {
  Calibration cal;
  cal.memory_levels = {{"l2", 1e6}, {"l3", 3e7}, {"dram", 0}};
  CHECK(cal.cache_bytes() == 3e7);
  cal.memory_levels = {{"dram", 0}};
  CHECK(cal.cache_bytes() == std::numeric_limits<double>::infinity());
}

TEST_CASE("an im2col lowers the columns its thread multiplies: a quarter, or half on a row split") {
  // The ReLU's thread 0 writes channels 0-31. A 64 x 3136 product splits columns: thread 0
  // lowers the top half of every plane, half of it written by the other core (a quarter of the
  // input). A 512 x 196 product splits rows: each thread lowers all of the input, half of it
  // the other's.
  const Graph cols = make_graph({{"x", {1, 64, 56, 56}}},
                                {make_layer("r", "relu", {}, {"x"}), conv3x3("c", 64, "r")});
  CHECK(cross_core(cols, 2, kAnyCache)[1] ==
        doctest::Approx(0.25 * bytes_of_tensor(cols, "r")).epsilon(0.02));
  const Graph rows = make_graph({{"x", {1, 512, 14, 14}}},
                                {make_layer("r", "relu", {}, {"x"}), conv3x3("c", 512, "r")});
  CHECK(cross_core(rows, 2, kAnyCache)[1] ==
        doctest::Approx(0.5 * bytes_of_tensor(rows, "r")).epsilon(0.02));
}
