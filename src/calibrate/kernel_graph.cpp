// One-layer graphs for single kernel runs and the samples and counts they give.
#include "perfmodel/calibrate/kernel_graph.hpp"

namespace perfmodel::calibrate {

Graph kernel_graph(const io::MeasurementRow &row) {
  Graph g;
  g.name = "kernel";
  g.dtype = row.dtype;
  g.layout = row.layout;
  g.loc = row.loc;
  Layer l;
  l.name = "kernel";
  l.dtype = row.dtype;
  l.loc = row.loc;
  l.outputs = {"y"};
  if (row.op == io::KernelOp::gemm) {
    l.op = OpKind::matmul;
    l.op_name = "matmul";
    Shape a{row.m, row.k}, b{row.k, row.n};
    if (row.batch > 1) {
      a.insert(a.begin(), row.batch);
      b.insert(b.begin(), row.batch);
    }
    g.inputs = {TensorDesc{"a", a, row.dtype}, TensorDesc{"b", b, row.dtype}};
    l.inputs = {"a", "b"};
  } else {
    l.op = OpKind::conv2d;
    l.op_name = "conv2d";
    g.inputs = {TensorDesc{"x", {row.batch, row.c, row.h, row.w}, row.dtype}};
    l.inputs = {"x"};
    l.attrs.set("out_channels", row.out_channels);
    l.attrs.set("kernel", std::vector<int64_t>{row.kernel_h, row.kernel_w});
    l.attrs.set("stride", std::vector<int64_t>{row.stride_h, row.stride_w});
    l.attrs.set("pad", std::vector<int64_t>{row.pad_h, row.pad_w});
    l.attrs.set("dilation", std::vector<int64_t>{row.dilation_h, row.dilation_w});
    l.attrs.set("groups", row.groups);
    l.attrs.set("bias", int64_t{row.bias ? 1 : 0});
    l.activation = row.activation;
  }
  g.layers.push_back(std::move(l));
  infer_shapes(g);
  return g;
}

KernelCounts kernel_counts(const io::MeasurementRow &row) {
  const Graph g = kernel_graph(row);
  const Layer &l = g.layers.at(0);
  KernelCounts k;
  k.cost = layer_cost(g, l, row.pass == KernelPart::fwd ? Pass::fwd : Pass::train);
  k.features = layer_features(g, l, k.cost, row.pass);
  return k;
}

Sample kernel_sample(const io::MeasurementRow &row) {
  if (!row.seconds)
    throw InputError(row.loc, "the row has no measured 'seconds'");
  const Graph g = kernel_graph(row);
  return sample_from_layer(g, g.layers.at(0), row.pass, *row.seconds, row.loc.str());
}

} // namespace perfmodel::calibrate
