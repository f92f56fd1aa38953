// Small graphs and hardware built in code for the sweep and memory-footprint tests.
#pragma once

#include "perfmodel/graph.hpp"
#include "perfmodel/hw_spec.hpp"

namespace perfmodel::test {

inline Layer make_layer(const std::string &name, OpKind op, const std::string &op_name,
                        std::vector<std::string> in, std::vector<std::string> out) {
  Layer l;
  l.name = name;
  l.op = op;
  l.op_name = op_name;
  l.inputs = std::move(in);
  l.outputs = std::move(out);
  return l;
}

/// x[b,3,8,8] -> conv(4, 3x3, pad 1) -> relu -> flatten -> linear(10) -> y[b,10].
/// With `fixed_reshape` the flatten is a reshape to {2, 256}: it holds only at batch 2.
inline Graph tiny_net(int64_t batch = 2, bool fixed_reshape = false) {
  Graph g;
  g.name = "tiny";
  g.inputs = {TensorDesc{"x", {batch, 3, 8, 8}, DType::fp32}};
  Layer conv = make_layer("conv", OpKind::conv2d, "conv2d", {"x"}, {"c"});
  conv.attrs.set("out_channels", int64_t(4));
  conv.attrs.set("kernel", int64_t(3));
  conv.attrs.set("pad", int64_t(1));
  Layer relu = make_layer("relu", OpKind::activation, "relu", {"c"}, {"r"});
  relu.attrs.set("function", std::string("relu"));
  Layer flat = fixed_reshape ? make_layer("flat", OpKind::reshape, "reshape", {"r"}, {"f"})
                             : make_layer("flat", OpKind::flatten, "flatten", {"r"}, {"f"});
  if (fixed_reshape)
    flat.attrs.set("shape", std::vector<int64_t>{2, 256});
  Layer fc = make_layer("fc", OpKind::linear, "linear", {"f"}, {"y"});
  fc.attrs.set("out_features", int64_t(10));
  g.layers = {conv, relu, flat, fc};
  infer_shapes(g);
  return g;
}

/// A GPU-like spec: fp32 SIMT and fp16 tensor units, one DRAM level of `capacity` bytes.
inline HwSpec tiny_gpu(const std::string &name = "gpu1", double capacity = 1e9) {
  HwSpec hw;
  hw.name = name;
  hw.kind = "gpu";
  hw.compute = {{"simt", DType::fp32, 10e12, false, 1e-12},
                {"tensor", DType::fp16, 100e12, true, 0.5e-12}};
  hw.memory = {{"l2", 4e12, 4e6, 5e-12}, {"dram", 1e12, capacity, 20e-12}};
  hw.tdp_watts = 300;
  hw.static_watts = 50;
  hw.launch_overhead_seconds = 2e-6;
  hw.units = 80;
  hw.clock_hz = 1.5e9;
  return hw;
}

} // namespace perfmodel::test
