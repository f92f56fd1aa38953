// The GPU layer plan of the shipped models: which call each layer becomes, with its shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/kernels/gpu_plan/plan_model.hpp"

using namespace perfmodel;
using namespace perfmodel::kernels::gpu_plan;

namespace {

ModelPlan plan_of(const std::string &model, int64_t batch, DType dtype, bool channels_last) {
  io::ModelLoadOptions lo;
  lo.batch = batch;
  lo.dtype = dtype;
  const Graph g =
      io::read_model_yaml(std::string(PERFMODEL_SOURCE_DIR) + "/models/" + model + ".yaml", lo);
  return plan_gpu_model(g, {dtype, channels_last});
}

const PlannedLayer &layer(const ModelPlan &p, const std::string &name) {
  for (const PlannedLayer &l : p.layers)
    if (l.name == name)
      return l;
  FAIL("no layer " << name);
  return p.layers.front();
}

std::map<std::string, int> paths(const ModelPlan &p) {
  std::map<std::string, int> n;
  for (const PlannedLayer &l : p.layers)
    ++n[l.path];
  return n;
}

const PlanTensor &tensor(const ModelPlan &p, const StridedView &v) {
  return p.tensors.at(size_t(v.tensor));
}

using V = std::vector<int64_t>;

} // namespace

TEST_CASE("GPU plan: coalescing merges what every view steps through as one") {
  // A per-channel bias over NCHW [2, 3, 4, 5]: N stays apart from C (the bias repeats per image).
  std::vector<int64_t> shape{2, 3, 4, 5};
  StridedView out{0, 0, {60, 20, 5, 1}}, x{1, 0, {60, 20, 5, 1}}, bias{2, 0, {0, 1, 0, 0}};
  coalesce(shape, {&out, &x, &bias});
  CHECK(shape == V{2, 3, 20});
  CHECK(out.strides == V{60, 20, 1});
  CHECK(bias.strides == V{0, 1, 0});
  // The same in NHWC: [N*H*W, C].
  shape = {2, 3, 4, 5};
  out = {0, 0, {60, 1, 15, 3}}, x = {1, 0, {60, 1, 15, 3}}, bias = {2, 0, {0, 1, 0, 0}};
  coalesce(shape, {&out, &x, &bias});
  CHECK(shape == V{40, 3});
  CHECK(bias.strides == V{0, 1});
  // Dense and alike: one dimension; size-1 dimensions vanish.
  shape = {1, 8, 1, 9};
  out = {0, 0, {72, 9, 9, 1}}, x = {1, 0, {72, 9, 9, 1}};
  coalesce(shape, {&out, &x});
  CHECK(shape == V{72});
  CHECK(x.strides == V{1});
  // A transpose does not merge.
  shape = {4, 6};
  out = {0, 0, {6, 1}}, x = {1, 0, {1, 4}};
  coalesce(shape, {&out, &x});
  CHECK(shape == V{4, 6});
}

TEST_CASE("GPU plan: resnet50, fp32 NCHW, batch 1") {
  const ModelPlan p = plan_of("resnet50", 1, DType::fp32, false);
  CHECK(p.unsupported().empty());
  const auto n = paths(p);
  CHECK(n.at("cudnn") == 53);
  CHECK(n.at("cublas") == 1);
  CHECK(n.at("pool") == 2);
  CHECK(n.at("view") == 1);                 // flatten
  CHECK(n.at("pointwise") == 53 + 49 + 16); // batch norms, relus, adds
  const PlannedLayer &c1 = p.layers.front();
  REQUIRE(c1.calls.size() >= 1);
  const PlanCall &conv = c1.calls[0];
  CHECK(conv.kind == CallKind::conv);
  CHECK(conv.library == "cuDNN");
  const ConvShape &cs = conv.conv;
  CHECK(V{cs.n, cs.c, cs.h, cs.w, cs.k, cs.r, cs.s} == V{1, 3, 224, 224, 64, 7, 7});
  CHECK(V{cs.stride_h, cs.pad_h, cs.p, cs.q, cs.groups} == V{2, 3, 112, 112, 1});
  CHECK_FALSE(cs.nhwc);
  CHECK(conv.flops == doctest::Approx(2.0 * 64 * 112 * 112 * 3 * 7 * 7));
  CHECK(tensor(p, conv.out).strides == V{64 * 112 * 112, 112 * 112, 112, 1});
  // Batch norm: x * scale[c] + shift[c], coalesced to [C, H*W] at batch 1.
  const PlannedLayer &bn = p.layers[1];
  CHECK(bn.op == "batchnorm");
  REQUIRE(bn.calls.size() == 1);
  CHECK(bn.calls[0].function == "scale_shift");
  CHECK(bn.calls[0].shape == V{64, 112 * 112});
  CHECK(bn.calls[0].in[1].strides == V{1, 0});
  // The classifier: a GEMM with the weight transposed, then its bias.
  const PlannedLayer &fc = p.layers.back();
  REQUIRE(fc.calls.size() == 2);
  const GemmShape &gs = fc.calls[0].gemm;
  CHECK(V{gs.m, gs.n, gs.k, gs.batch} == V{1, 1000, 2048, 1});
  CHECK(gs.trans_b);
  CHECK_FALSE(gs.trans_a);
  CHECK(fc.calls[1].function == "add");
  CHECK(fc.calls[1].in[1].strides == V{1}); // batch 1: the bias along the one dimension left
  // Residual adds and ReLUs on dense tensors: one flat dimension.
  for (const PlannedLayer &l : p.layers)
    if (l.op == "elementwise" || l.op == "activation") {
      REQUIRE(l.calls.size() == 1);
      CHECK(l.calls[0].shape.size() == 1);
    }
}

TEST_CASE("GPU plan: resnet50, fp16 channels-last, batch 32") {
  const ModelPlan p = plan_of("resnet50", 32, DType::fp16, true);
  CHECK(p.unsupported().empty());
  const PlanCall &conv = p.layers.front().calls.at(0);
  CHECK(conv.conv.nhwc);
  const PlanTensor &y = tensor(p, conv.out);
  CHECK(y.dtype == DType::fp16);
  CHECK(y.shape == V{32, 64, 112, 112});
  CHECK(y.strides == V{112 * 112 * 64, 1, 112 * 64, 64});
  const PlanCall &bn = p.layers[1].calls.at(0);
  CHECK(bn.shape == V{32 * 112 * 112, 64});
  CHECK(bn.in[1].strides == V{0, 1});
  // Every conv NHWC, every weight fp16; flatten of [32, 2048, 1, 1] stays a view.
  for (const PlannedLayer &l : p.layers) {
    if (l.path == "cudnn")
      CHECK(l.calls[0].conv.nhwc);
    if (l.op == "flatten")
      CHECK(l.calls.empty());
  }
  for (const PlanTensor &t : p.tensors)
    CHECK(t.dtype == DType::fp16);
  const GemmShape &gs = p.layers.back().calls.at(0).gemm;
  CHECK(V{gs.m, gs.n, gs.k} == V{32, 1000, 2048});
}

TEST_CASE("GPU plan: mobilenet_v2's depthwise convolutions and ReLU6") {
  const ModelPlan p = plan_of("mobilenet_v2", 32, DType::fp32, false);
  CHECK(p.unsupported().empty());
  int depthwise = 0, activations = 0;
  for (const PlannedLayer &l : p.layers) {
    if (l.path == "cudnn" && l.calls[0].conv.groups > 1) {
      ++depthwise;
      CHECK(l.calls[0].conv.groups == l.calls[0].conv.c);
      CHECK(l.calls[0].conv.k == l.calls[0].conv.c);
    }
    if (l.op == "activation") {
      ++activations;
      const PlanCall &a = l.calls.at(0);
      CHECK(((a.function == "clip" && a.alpha == 0 && a.beta == 6) || a.function == "relu6"));
    }
  }
  CHECK(depthwise == 17);
  CHECK(activations == 35);
}

TEST_CASE("GPU plan: vgg16 channels-last copies its flatten to row-major") {
  const ModelPlan p = plan_of("vgg16", 32, DType::fp32, true);
  CHECK(p.unsupported().empty());
  const auto n = paths(p);
  CHECK(n.at("cudnn") == 13);
  CHECK(n.at("cublas") == 3);
  CHECK(n.at("pool") == 5);
  // The adaptive 7x7 pool of a 7x7 input is a copy; flatten of an NHWC tensor is a copy.
  const PlannedLayer &avg = layer(p, "avgpool");
  CHECK(avg.path == "copy");
  const PlannedLayer &flat = layer(p, "flatten");
  REQUIRE(flat.calls.size() == 1);
  CHECK(flat.calls[0].function == "copy");
  CHECK(tensor(p, flat.calls[0].in[0]).strides == V{7 * 7 * 512, 1, 7 * 512, 512});
  const GemmShape &fc = layer(p, "classifier.0").calls.at(0).gemm;
  CHECK(V{fc.m, fc.n, fc.k} == V{32, 4096, 25088});
  CHECK(layer(p, "classifier.2").calls.empty()); // dropout: a view
  // Without channels-last the flatten is a view.
  const ModelPlan q = plan_of("vgg16", 32, DType::fp32, false);
  CHECK(layer(q, "flatten").calls.empty());
  const PlanCall &pool = layer(q, "features.4").calls.at(0);
  CHECK(pool.kind == CallKind::pool);
  CHECK(V{pool.pool.kh, pool.pool.stride_h, pool.pool.p} == V{2, 2, 112});
}

TEST_CASE("GPU plan: bert_base's attention and embeddings") {
  const ModelPlan p = plan_of("bert_base", 1, DType::fp16, false);
  CHECK(p.unsupported().empty());
  const PlannedLayer &tok = p.layers.front();
  REQUIRE(tok.calls.size() == 1);
  CHECK(tok.calls[0].kind == CallKind::gather_rows);
  CHECK(V{tok.calls[0].rows.rows, tok.calls[0].rows.cols} == V{128, 768});
  const PlanTensor &ids = tensor(p, tok.calls[0].in[1]);
  CHECK(ids.dtype == DType::int64);
  CHECK(ids.index_bound == 30522);
  const PlannedLayer &qkv = layer(p, "/encoder/layers.0/self_attn/MatMul");
  const GemmShape &g = qkv.calls.at(0).gemm;
  CHECK(V{g.m, g.n, g.k} == V{128, 2304, 768});
  const PlannedLayer &scores = layer(p, "/encoder/layers.0/self_attn/MatMul_1");
  const GemmShape &s = scores.calls.at(0).gemm;
  CHECK(scores.path == "cublas-batched");
  CHECK(V{s.batch, s.m, s.n, s.k} == V{12, 128, 128, 64});
  CHECK(V{s.stride_a, s.stride_b, s.stride_c} == V{128 * 64, 64 * 128, 128 * 128});
  const PlanCall &sm = layer(p, "/encoder/layers.0/self_attn/Softmax").calls.at(0);
  CHECK(sm.kind == CallKind::softmax);
  CHECK(V{sm.rows.rows, sm.rows.cols} == V{12 * 128, 128});
  const PlanCall &ln = layer(p, "/norm").calls.at(0);
  CHECK(ln.kind == CallKind::layer_norm);
  CHECK(V{ln.rows.rows, ln.rows.cols} == V{128, 768});
  CHECK(ln.in.size() == 3); // x, gamma, beta
  // x / 8: the scalar the importer dropped stands in as a one-element operand (stride 0).
  const PlanCall &div = layer(p, "/encoder/layers.0/self_attn/Div_2").calls.at(0);
  CHECK(div.function == "div");
  CHECK(div.in.size() == 2);
  CHECK(div.in[1].strides == V{0});
  // A transpose [128, 12, 64] -> [12, 128, 64] is a strided copy.
  const PlanCall &tr = layer(p, "/encoder/layers.0/self_attn/Transpose_1").calls.at(0);
  CHECK(tr.function == "copy");
  CHECK(tr.shape.size() >= 2);
}

TEST_CASE("GPU plan: an unsupported layer is listed with its reason; the rest are planned") {
  const Graph g = io::parse_model_yaml(R"(version: 1
name: t
inputs: [{name: x, shape: [2, 8, 4, 4]}]
layers:
  - {name: r, op: reduce_mean, axes: [2, 3]}
  - {name: s, op: relu}
)",
                                       "t.yaml", {});
  const ModelPlan p = plan_gpu_model(g, {});
  REQUIRE(p.unsupported().size() == 1);
  CHECK(p.unsupported()[0] == "r (reduce): reductions have no kernel in the GPU executor");
  CHECK(p.layers[0].path == "unsupported");
  CHECK(p.layers[0].calls.empty());
  CHECK(p.layers[1].calls.size() == 1);
  try {
    plan_gpu_model(g, {DType::bf16, false});
    FAIL("bf16 was planned");
  } catch (const InputError &e) {
    CHECK(e.message() == "--dtype: the CUDA executor runs fp32, tf32 or fp16, not bf16");
  }
}

TEST_CASE("GPU plan: storage of views and strided tensors") {
  PlanTensor t;
  t.shape = {2, 3, 4, 5};
  t.strides = {60, 1, 15, 3};
  CHECK(t.storage_elements() == 120);
  t.strides = {0, 1, 0, 0}; // a broadcast operand
  CHECK(t.storage_elements() == 3);
  const ModelPlan p = plan_of("resnet50", 2, DType::fp32, false);
  double bytes = 0;
  for (const PlanTensor &x : p.tensors)
    if (x.alias < 0)
      bytes += double(x.storage_elements()) * 4;
  CHECK(p.allocated_bytes() == doctest::Approx(bytes));
  CHECK(p.allocated_bytes() > 25.5e6 * 4); // at least the weights
}
