// The executor on small graphs: each op's attributes reach the kernel (checked against the
// references with the executor's own weights), views share buffers, timing covers every layer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/kernels/cpu/parallel.hpp"
#include "reference.hpp"
#include "test_layer.hpp"

using namespace perfmodel;
using namespace perfmodel::kernels::cpu;

namespace {

using perfmodel::test::layer;

Graph graph(Shape input, std::vector<Layer> layers) {
  Graph g;
  g.name = "t";
  g.inputs.push_back(TensorDesc{"x", std::move(input), DType::fp32});
  g.layers = std::move(layers);
  infer_shapes(g);
  return g;
}

using V = std::vector<int64_t>;

} // namespace

TEST_CASE("executor conv layers use the attributes and weights the reference gets") {
  const Graph g = graph({2, 4, 9, 9}, {layer("c", OpKind::conv2d, "conv2d", {"x"},
                                             {{"out_channels", int64_t(6)},
                                              {"kernel", V{3, 3}},
                                              {"stride", V{2, 2}},
                                              {"pad", V{1, 1}},
                                              {"dilation", V{1, 1}},
                                              {"groups", int64_t(2)}})});
  TensorStore store;
  store["x"] = random_tensor({2, 4, 9, 9}, 3);
  PreparedLayer p = prepare_layer(g, g.layers[0], store, 7);
  CHECK(p.path == "im2col+gemm");
  p.run();
  const Tensor &out = store.at("c");
  REQUIRE(out.shape == Shape{2, 6, 5, 5});
  ref::Conv r{2, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2};
  const auto expect = ref::conv2d(r, store.at("x").ptr(), p.owned[0].ptr(), p.owned[1].ptr());
  CHECK(ref::max_abs_diff(out.ptr(), expect.data(), expect.size()) < 1e-4);
}

TEST_CASE("executor transposed conv, linear and matmul") {
  Graph g = graph({1, 3, 4, 4},
                  {layer("t", OpKind::conv_transpose2d, "conv_transpose2d", {"x"},
                         {{"out_channels", int64_t(2)},
                          {"kernel", V{3, 3}},
                          {"stride", V{2, 2}},
                          {"pad", V{1, 1}}}),
                   layer("f", OpKind::flatten, "flatten", {"t"}),
                   layer("l", OpKind::linear, "linear", {"f"}, {{"out_features", int64_t(5)}})});
  Executor ex(g, 3);
  CHECK(ex.path(1) == "view");
  ex.run_all();
  CHECK(ex.tensor("f").data == ex.tensor("t").data); // flatten is a view
  TensorStore store;
  store["x"] = ex.tensor("x");
  PreparedLayer t = prepare_layer(g, g.layers[0], store, 1);
  t.run();
  ref::Conv r{1, 3, 4, 4, 2, 7, 7, 3, 3, 2, 2, 1, 1, 1, 1, 1};
  const auto expect =
      ref::conv_transpose2d(r, store.at("x").ptr(), t.owned[0].ptr(), t.owned[1].ptr());
  CHECK(ref::max_abs_diff(store.at("t").ptr(), expect.data(), expect.size()) < 1e-4);
  store["f"] = Tensor{{1, 98}, store.at("t").data};
  PreparedLayer l = prepare_layer(g, g.layers[2], store, 1);
  l.run();
  // y = x W^T + b with W [5, 98]
  for (int j = 0; j < 5; ++j) {
    double acc = l.owned[1].ptr()[j];
    for (int k = 0; k < 98; ++k)
      acc += double(store.at("f").ptr()[k]) * l.owned[0].ptr()[j * 98 + k];
    CHECK(store.at("l").ptr()[j] == doctest::Approx(acc).epsilon(1e-4));
  }
}

TEST_CASE("executor matmul broadcasts batch dims") {
  Graph g;
  g.inputs = {TensorDesc{"a", {2, 1, 3, 4}, DType::fp32}, TensorDesc{"b", {3, 4, 5}, DType::fp32}};
  g.layers = {layer("m", OpKind::matmul, "matmul", {"a", "b"})};
  infer_shapes(g);
  Executor ex(g, 5);
  ex.run_all();
  const Tensor &out = ex.tensor("m");
  REQUIRE(out.shape == Shape{2, 3, 3, 5});
  const float *a = ex.tensor("a").ptr();
  const float *b = ex.tensor("b").ptr();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      const auto expect = ref::matmul(3, 5, 4, a + i * 12, b + j * 20);
      CHECK(ref::max_abs_diff(out.ptr() + (i * 3 + j) * 15, expect.data(), 15) < 1e-5);
    }
}

TEST_CASE("executor pools with ceil mode, activations, softmax, concat, transpose, fused relu") {
  Layer conv = layer("c", OpKind::conv2d, "conv2d", {"x"},
                     {{"out_channels", int64_t(4)}, {"kernel", V{1, 1}}});
  conv.activation = "relu";
  Graph g = graph(
      {1, 3, 7, 7},
      {conv,
       layer("p", OpKind::max_pool, "maxpool", {"c"},
             {{"kernel", V{2, 2}}, {"stride", V{2, 2}}, {"ceil_mode", int64_t(1)}}),
       layer("a", OpKind::avg_pool, "avgpool", {"c"},
             {{"kernel", V{3, 3}}, {"stride", V{2, 2}}, {"pad", V{1, 1}}}),
       layer("k", OpKind::concat, "concat", {"p", "a"}, {{"axis", int64_t(1)}}),
       layer("s", OpKind::activation, "sigmoid", {"k"}, {{"function", std::string("sigmoid")}}),
       layer("m", OpKind::softmax, "softmax", {"s"}, {{"axis", int64_t(1)}}),
       layer("t", OpKind::transpose, "transpose", {"m"}, {{"perm", V{0, 2, 3, 1}}}),
       layer("g", OpKind::global_avg_pool, "global_avgpool", {"m"})});
  Executor ex(g, 9);
  CHECK(ex.path(0) == "gemm+relu");
  ex.run_all();
  const Tensor &c = ex.tensor("c");
  for (int64_t i = 0; i < c.size(); ++i)
    CHECK(c.ptr()[i] >= 0.0f);
  REQUIRE(ex.tensor("p").shape == Shape{1, 4, 4, 4});
  ref::Conv pr{1, 4, 7, 7, 4, 4, 4, 2, 2, 2, 2, 0, 0, 1, 1, 1};
  const auto pmax = ref::pool(pr, c.ptr(), true, false);
  CHECK(ref::max_abs_diff(ex.tensor("p").ptr(), pmax.data(), pmax.size()) == 0.0);
  const Tensor &m = ex.tensor("m"); // softmax over 8 channels sums to 1 per pixel
  for (int px = 0; px < 16; ++px) {
    double s = 0;
    for (int ch = 0; ch < 8; ++ch)
      s += m.ptr()[ch * 16 + px];
    CHECK(s == doctest::Approx(1.0));
  }
  CHECK(ex.tensor("t").ptr()[1] == m.ptr()[16]); // [0,0,0,1] <- [0,1,0,0]
  double mean0 = 0;
  for (int px = 0; px < 16; ++px)
    mean0 += m.ptr()[px] / 16.0;
  CHECK(ex.tensor("g").ptr()[0] == doctest::Approx(mean0));
}

TEST_CASE("executor batch norm, layer norm, elementwise broadcast, embedding, slice, generic") {
  Graph g = graph({2, 3, 4}, {layer("bn", OpKind::batch_norm, "batchnorm", {"x"}),
                              layer("ln", OpKind::layer_norm, "layernorm", {"bn"}),
                              layer("add", OpKind::elementwise, "add", {"ln", "x"},
                                    {{"function", std::string("add")}}),
                              layer("sl", OpKind::slice, "slice", {"add"},
                                    {{"starts", V{1}}, {"ends", V{3}}, {"axes", V{2}}})});
  Executor ex(g, 2);
  ex.run_all();
  const float *ln = ex.tensor("ln").ptr();
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += ln[i];
  CHECK(std::isfinite(s));
  const float *add = ex.tensor("add").ptr();
  CHECK(add[5] == ln[5] + ex.tensor("x").ptr()[5]);
  REQUIRE(ex.tensor("sl").shape == Shape{2, 3, 2});
  CHECK(ex.tensor("sl").ptr()[0] == add[1]);

  Graph e;
  e.inputs = {TensorDesc{"ids", {2, 3}, DType::int64}};
  e.layers = {layer("emb", OpKind::embedding, "embedding", {"ids"},
                    {{"num_embeddings", int64_t(10)}, {"embedding_dim", int64_t(4)}})};
  infer_shapes(e);
  Executor ee(e, 4);
  ee.run_all();
  const float *ids = ee.tensor("ids").ptr();
  REQUIRE(ee.tensor("emb").shape == Shape{2, 3, 4});
  CHECK(ids[0] >= 0.0f);
  CHECK(ids[0] < 1000.0f);
  const float *table = ee.tensor("emb").ptr();
  CHECK(std::isfinite(table[0]));

  // generic: no kernel, a copy of its compulsory bytes (input 96 B + output 64 B -> 80 B copied)
  Graph gg;
  gg.inputs = {TensorDesc{"in", {24}, DType::fp32}};
  gg.tensors["in"] = gg.inputs[0];
  gg.tensors["out"] = TensorDesc{"out", {16}, DType::fp32};
  Layer gl = layer("out", OpKind::generic, "Mystery", {"in"});
  TensorStore st;
  st["in"] = random_tensor({24}, 1);
  PreparedLayer p = prepare_layer(gg, gl, st, 1);
  CHECK(p.path == "memcpy");
  REQUIRE(p.owned.size() == 2);
  CHECK(p.owned[0].size() == 20);
  p.run();
  CHECK(std::equal(p.owned[0].ptr(), p.owned[0].ptr() + 20, p.owned[1].ptr()));
  CHECK(st.at("out").shape == Shape{16});
}

namespace {
Graph conv_relu() {
  return graph(
      {1, 3, 16, 16},
      {layer("c", OpKind::conv2d, "conv2d", {"x"},
             {{"out_channels", int64_t(8)}, {"kernel", V{3, 3}}, {"pad", V{1, 1}}}),
       layer("r", OpKind::activation, "relu", {"c"}, {{"function", std::string("relu")}})});
}
} // namespace

TEST_CASE("measure_graph times every layer inside forward passes") {
  MeasureOptions o;
  o.warmup = 1;
  o.iters = 3;
  size_t progress = 0;
  o.progress = [&](size_t, size_t n, const std::string &) {
    ++progress;
    CHECK(n == 4); // one call per pass, warm-up included
  };
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  REQUIRE(m.layers.size() == 2);
  CHECK(progress == 4);
  CHECK(m.layers[0].path == "im2col+gemm");
  CHECK(m.layers[0].time.iters == 3);
  CHECK(m.layers[0].time.cache_state == "in-network");
  CHECK(m.layers[0].time.median_seconds > 0);
  CHECK(m.network.iters == 3);
  CHECK(m.network.cache_state == "in-network");
  // A pass is its layers back to back: each pass's total is the sum of its layer samples.
  for (size_t i = 0; i < 3; ++i)
    CHECK(m.network.samples_seconds[i] == doctest::Approx(m.layers[0].time.samples_seconds[i] +
                                                          m.layers[1].time.samples_seconds[i]));
  CHECK(m.threads >= 1);
  CHECK_FALSE(m.host_before); // no probe unless asked for
  CHECK_FALSE(m.host_after);
  o.iters = 0;
  CHECK_THROWS_AS(measure_graph(conv_relu(), o), InputError);
}

TEST_CASE("measure_graph isolated: each layer repeated alone, then whole passes") {
  MeasureOptions o;
  o.timing = LayerTiming::isolated;
  o.warmup = 1;
  o.iters = 3;
  size_t progress = 0;
  o.progress = [&](size_t, size_t, const std::string &) { ++progress; };
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  REQUIRE(m.layers.size() == 2);
  CHECK(progress == 2);
  CHECK(m.layers[1].time.iters == 3);
  CHECK(m.layers[1].time.cache_state == "warm");
  CHECK(m.network.iters == 3);
  CHECK(m.network.median_seconds > 0);
}

TEST_CASE("measure_graph: a minimum time adds timed passes beyond --iters") {
  MeasureOptions o;
  o.warmup = 0;
  o.iters = 1;
  o.min_seconds = 0.02; // a conv_relu pass takes microseconds: many passes are needed
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  CHECK(m.network.iters > 1);
  double total = 0;
  for (double s : m.network.samples_seconds)
    total += s;
  CHECK(total >= 0.02);
  CHECK(m.layers[0].time.iters == m.network.iters);
  o.timing = LayerTiming::isolated;
  CHECK_THROWS_AS(measure_graph(conv_relu(), o), InputError);
  o.timing = LayerTiming::in_network;
  o.min_seconds = -1;
  CHECK_THROWS_AS(measure_graph(conv_relu(), o), InputError);
}

TEST_CASE("measure_graph: faster_placement probes around every timed pass and keeps a subset") {
  MeasureOptions o;
  o.warmup = 1;
  o.iters = 8;
  o.threads = 2;
  o.faster_placement = true;
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  if (m.threads < 2) { // a one-core machine: nothing to probe
    CHECK_FALSE(m.placement);
    return;
  }
  REQUIRE(m.placement);
  CHECK(m.placement->passes_timed == 8);
  REQUIRE(m.placement->round_trip_seconds.size() == 9);
  for (double r : m.placement->round_trip_seconds)
    CHECK(r > 0);
  const size_t kept = m.placement->selection.kept.size();
  CHECK(kept >= 1);
  CHECK(kept <= 8);
  // the statistics are over the kept passes only, layers and passes alike
  CHECK(m.network.iters == int(kept));
  CHECK(m.layers[0].time.iters == int(kept));
  CHECK(m.network.samples_seconds[0] ==
        doctest::Approx(m.layers[0].time.samples_seconds[0] + m.layers[1].time.samples_seconds[0]));
  o.threads = 1;
  CHECK_FALSE(measure_graph(conv_relu(), o).placement); // one thread: no round trip
  o.threads = 2;
  o.faster_placement = false;
  CHECK_FALSE(measure_graph(conv_relu(), o).placement);
}

TEST_CASE("measure_graph: quiet probes enclose the timed passes and keep a subset") {
  MeasureOptions o;
  o.warmup = 1;
  o.iters = 6;
  o.quiet_probe_interval_seconds = 1e-6; // a probe before every pass
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  REQUIRE(m.quiet);
  CHECK(m.quiet->passes_timed == 6);
  CHECK(m.quiet->pass_seconds.size() == 6);
  CHECK(m.quiet->interval_seconds == 1e-6); // the options the view reports
  CHECK(m.quiet->outside_reference_flops_per_second == 0);
  REQUIRE(m.quiet->probes.size() == 7);
  for (size_t i = 0; i < 7; ++i) {
    CHECK(m.quiet->probes[i].before_pass == i);
    CHECK(m.quiet->probes[i].conv_flops_per_second > 0);
  }
  const auto &sel = m.quiet->selection;
  CHECK(sel.quiet_passes + sel.spell_passes == 6);
  CHECK(m.network.iters == int(sel.kept.size()));
  CHECK(m.layers[0].time.iters == int(sel.kept.size()));
  o.quiet_probe_interval_seconds = 3600; // once before the first pass, once after the last
  const GraphMeasurement one = measure_graph(conv_relu(), o);
  REQUIRE(one.quiet);
  REQUIRE(one.quiet->probes.size() == 2);
  CHECK(one.quiet->probes[0].before_pass == 0);
  CHECK(one.quiet->probes[1].before_pass == 6);
  // both probes quiet (every pass kept) or one not (none quiet: every pass kept, flagged)
  CHECK(one.network.iters == 6);
  o.quiet_probe_interval_seconds = 0;
  CHECK_FALSE(measure_graph(conv_relu(), o).quiet);
  o.quiet_probe_interval_seconds = 1e-6;
  o.timing = LayerTiming::isolated;
  CHECK_FALSE(measure_graph(conv_relu(), o).quiet); // in-network timing only
}

TEST_CASE("measure_graph probes the host before and after the timed runs when asked") {
  MeasureOptions o;
  o.warmup = 0;
  o.iters = 1;
  o.probe_host = true;
  const GraphMeasurement m = measure_graph(conv_relu(), o);
  REQUIRE(m.host_before);
  REQUIRE(m.host_after);
  CHECK(m.host_before->fp32_flops_per_second > 0);
  CHECK(m.host_after->dram_bytes_per_second > 0);
}

TEST_CASE("executor errors carry the layer") {
  Graph g =
      graph({1, 3, 8, 8},
            {layer("r", OpKind::activation, "relu", {"x"}, {{"function", std::string("relu")}})});
  g.layers[0].attrs.set("function", std::string("nosuch"));
  CHECK_THROWS_WITH_AS(Executor(g, 1), doctest::Contains("layer 'r'"), InputError);
}

TEST_CASE("a pool's bad window is reported once, with its layer") {
  Graph g = graph({1, 3, 8, 8}, {layer("p", OpKind::max_pool, "maxpool", {"x"},
                                       {{"kernel", std::vector<int64_t>{2, 2}}})});
  g.layers[0].attrs.set("kernel", std::vector<int64_t>{0, 2});
  CHECK_THROWS_WITH_AS(Executor(g, 1),
                       "perfmodel: error: layer 'p' (maxpool): cpu executor: kernel must be "
                       "positive",
                       InputError);
}

TEST_CASE("executor: a dropped scalar operand, graph constants and input-less layers") {
  Graph g;
  g.inputs = {TensorDesc{"x", {2, 3}, DType::fp32}};
  g.constants = {TensorDesc{"k", {3}, DType::fp32}};
  Layer div = layer("d", OpKind::elementwise, "div", {"x"}, {{"function", std::string("div")}});
  Layer add =
      layer("a", OpKind::elementwise, "add", {"d", "k"}, {{"function", std::string("add")}});
  g.layers = {div, add};
  infer_shapes(g);
  Executor ex(g, 1);
  CHECK(ex.tensor("k").size() == 3);
  ex.run_all();
  const float *x = ex.tensor("x").ptr();
  const float *d = ex.tensor("d").ptr();
  const float *a = ex.tensor("a").ptr();
  const float s = x[0] / d[0]; // the stand-in scalar divisor, in [0.5, 1.5)
  CHECK(s >= 0.5f);
  CHECK(s < 1.5f);
  CHECK(x[4] / d[4] == doctest::Approx(s));
  CHECK(a[4] == d[4] + ex.tensor("k").ptr()[1]);

  Graph c;
  c.tensors["t"] = TensorDesc{"t", {4}, DType::fp32};
  Layer t = layer("t", OpKind::transpose, "transpose", {});
  TensorStore st;
  PreparedLayer p = prepare_layer(c, t, st, 1);
  CHECK(p.path == "constant");
  CHECK(st.at("t").size() == 4);
}

TEST_CASE("a ReLU / ReLU6 fused into a convolution or linear layer equals a pass after it") {
  // {name, layer, activation, path with the activation}: the GEMM epilogue (1x1, im2col,
  // linear), the depthwise kernel's own clamp, and a function no kernel fuses (a pass).
  Layer pw = layer("c", OpKind::conv2d, "conv2d", {"x"},
                   {{"out_channels", int64_t(24)}, {"kernel", V{1, 1}}});
  Layer k3 = layer("c", OpKind::conv2d, "conv2d", {"x"},
                   {{"out_channels", int64_t(8)}, {"kernel", V{3, 3}}, {"pad", V{1, 1}}});
  Layer dw = layer("c", OpKind::conv2d, "conv2d", {"x"},
                   {{"out_channels", int64_t(6)},
                    {"kernel", V{3, 3}},
                    {"pad", V{1, 1}},
                    {"groups", int64_t(6)}});
  Layer fc = layer("c", OpKind::linear, "linear", {"x"}, {{"out_features", int64_t(10)}});
  struct Case {
    Layer l;
    std::string act, path;
    Shape input;
  };
  const Case cases[] = {{pw, "relu", "gemm+relu", {1, 6, 40, 40}},
                        {k3, "relu6", "im2col+gemm+relu6", {1, 6, 40, 40}},
                        {dw, "relu6", "depthwise+relu6", {2, 6, 20, 20}},
                        {fc, "relu", "gemm+relu", {64, 30}},
                        {pw, "sigmoid", "gemm+sigmoid", {1, 6, 40, 40}}};
  for (int threads : {1, 2})
    for (const Case &cs : cases) {
      ThreadCountScope scope(threads);
      CAPTURE(cs.path);
      Layer fused = cs.l;
      fused.activation = cs.act;
      Executor plain(graph(cs.input, {cs.l}), 5), with(graph(cs.input, {fused}), 5);
      CHECK(with.path(0) == cs.path);
      plain.run_all();
      with.run_all();
      const Tensor &p = plain.tensor("c"), &w = with.tensor("c");
      REQUIRE(p.size() == w.size());
      std::vector<float> expect(p.ptr(), p.ptr() + p.size());
      for (float &v : expect)
        v = cs.act == "relu"    ? std::max(v, 0.0f)
            : cs.act == "relu6" ? std::min(std::max(v, 0.0f), 6.0f)
                                : 1.0f / (1.0f + std::exp(-v));
      CHECK(ref::max_abs_diff(w.ptr(), expect.data(), expect.size()) < 1e-5);
    }
}
