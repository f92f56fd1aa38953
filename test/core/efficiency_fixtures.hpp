// Fixtures shared by the efficiency model's tests (efficiency_test.cpp,
// efficiency_cpu_terms_test.cpp): a two-level calibration, a tiny CPU, one-layer graphs.
#pragma once

#include "perfmodel/calibration.hpp"
#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"
#include "test_graphs.hpp"

namespace perfmodel::test {

inline Calibration two_level_calibration() {
  Calibration c;
  c.cores = 2;
  c.memory_levels = {{"cache", 1e6}, {"dram", 0}};
  ClassCalibration g;
  g.op_class = OpClass::gemm;
  g.params.peak_flops_per_second = 1e11;
  g.params.bytes_per_second = {1e11, 1e10};
  g.params.overhead_seconds = 1e-6;
  c.classes.push_back(g);
  ClassCalibration e;
  e.op_class = OpClass::elementwise;
  e.params.peak_flops_per_second = 1e12;
  e.params.bytes_per_second = {2e11, 2e10};
  e.params.overhead_seconds = 2e-6;
  c.classes.push_back(e);
  return c;
}

inline HwSpec tiny_hw() {
  HwSpec hw;
  hw.name = "tiny";
  hw.kind = "cpu";
  hw.compute = {ComputeUnit{"vector", DType::fp32, 2e11, false, 0}};
  hw.memory = {MemoryLevel{"dram", 1e10, 0, 0}};
  hw.units = 2;
  return hw;
}

// A graph of one layer `l` (its op and attributes set) reading x of `shape`, shapes inferred.
inline Graph one_layer_graph(Layer l, const Shape &shape) {
  Graph g;
  g.name = "t";
  g.inputs = {TensorDesc{"x", shape, DType::fp32}};
  l.inputs = {"x"};
  l.outputs = {"y"};
  g.layers.push_back(l);
  infer_shapes(g);
  return g;
}

// A conv2d layer of oc output channels, a k x k kernel padded k / 2.
inline Layer conv_layer(int64_t oc, int64_t k, int64_t stride = 1, int64_t groups = 1) {
  Layer l;
  l.name = "conv";
  l.op = OpKind::conv2d;
  l.op_name = "conv2d";
  l.attrs.set("out_channels", oc);
  l.attrs.set("kernel", k);
  l.attrs.set("stride", stride);
  l.attrs.set("pad", k / 2);
  l.attrs.set("groups", groups);
  return l;
}

inline Graph conv_graph(int64_t c, int64_t oc, int64_t k, int64_t stride, int64_t groups) {
  return one_layer_graph(conv_layer(oc, k, stride, groups), {1, c, 16, 16});
}

// The forward features of the one layer of `g`.
inline KernelFeatures fwd_features(const Graph &g) {
  return layer_features(g, g.layers[0], layer_cost(g, g.layers[0], Pass::fwd), KernelPart::fwd);
}

} // namespace perfmodel::test
