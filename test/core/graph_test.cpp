// Shape inference and graph validation: ordering, unknown inputs, cycles, mismatches.
#include <doctest/doctest.h>

#include <limits>

#include "perfmodel/graph.hpp"
#include "test_graphs.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("layers out of order are sorted topologically") {
  Layer b = make_layer("b", "relu", {}, {"a"});
  Layer a = make_layer("a", "relu", {}, {"x"});
  Graph g = make_graph({{"x", {1, 4}}}, {b, a});
  REQUIRE(g.layers.size() == 2);
  CHECK(g.layers[0].name == "a");
  CHECK(g.layers[1].name == "b");
}

TEST_CASE("an input that nothing produces is an error naming the layer") {
  try {
    make_graph({{"x", {1, 4}}}, {make_layer("a", "relu", {}, {"nope"})});
    FAIL("expected an error");
  } catch (const InputError &e) {
    CHECK(std::string(e.what()).find("'nope'") != std::string::npos);
    CHECK(std::string(e.what()).find("'a'") != std::string::npos);
  }
}

TEST_CASE("cycles and duplicate names are errors") {
  CHECK_THROWS_WITH_AS(make_graph({{"x", {1, 4}}}, {make_layer("a", "add", {}, {"x", "b"}),
                                                    make_layer("b", "relu", {}, {"a"})}),
                       doctest::Contains("cycle"), InputError);
  CHECK_THROWS_WITH_AS(
      make_graph({{"x", {1, 4}}}, {make_layer("a", "relu"), make_layer("a", "relu")}),
      doctest::Contains("already produced"), InputError);
}

TEST_CASE("shape mismatches are errors with the layer's location") {
  Layer l = make_layer("fc", "linear", {{"out_features", int64_t{10}}});
  l.loc = SourceLoc{"m.yaml", 7, 5};
  l.params = {TensorDesc{"fc.weight", {10, 32}}};
  try {
    one_layer({1, 64}, l);
    FAIL("expected an error");
  } catch (const InputError &e) {
    CHECK(std::string(e.what()).rfind("m.yaml:7:5: error: layer 'fc'", 0) == 0);
  }
  CHECK_THROWS_AS(
      one_layer({1, 3, 4},
                make_layer("c", "conv2d", {{"out_channels", int64_t{4}}, {"kernel", int64_t{3}}})),
      InputError);
  CHECK_THROWS_AS(
      one_layer({1, 3, 4, 4},
                make_layer("c", "conv2d", {{"out_channels", int64_t{4}}, {"kernel", int64_t{5}}})),
      InputError);
  CHECK_THROWS_AS(one_layer({1, 3, 4, 4}, make_layer("c", "conv2d",
                                                     {{"out_channels", int64_t{4}},
                                                      {"kernel", int64_t{1}},
                                                      {"groups", int64_t{2}}})),
                  InputError);
}

TEST_CASE("declared output shapes are checked against the rule") {
  Layer l = make_layer("r", "relu");
  l.output_shapes = {declared({1, 5})};
  CHECK_THROWS_WITH_AS(one_layer({1, 4}, l), doctest::Contains("declared 1x5"), InputError);
  l.output_shapes = {declared({1, 4})};
  CHECK_NOTHROW(one_layer({1, 4}, l));
}

TEST_CASE("set_batch re-infers shapes; generic shapes follow their batch factor") {
  Layer conv = make_layer("c", "conv2d", {{"out_channels", int64_t{8}}, {"kernel", int64_t{3}}});
  Layer gen = make_layer("g", "generic", {}, {"c"});
  gen.output_shapes = {DeclaredShape{{0, 2}, {5, 0}}}; // [2N, 5]
  Graph g = make_graph({{"x", {1, 3, 8, 8}}}, {conv, gen});
  CHECK(g.tensor("g").shape == Shape{2, 5});
  set_batch(g, 4);
  infer_shapes(g);
  CHECK(g.batch() == 4);
  CHECK(g.tensor("c").shape == Shape{4, 8, 6, 6});
  CHECK(g.tensor("g").shape == Shape{8, 5});
}

TEST_CASE("constants can be read by layers") {
  Graph g;
  g.inputs.push_back(TensorDesc{"x", {2, 10, 4}});
  g.constants.push_back(TensorDesc{"idx", {3}, DType::int64});
  g.layers.push_back(make_layer("gat", "gather", {{"axis", int64_t{1}}}, {"x", "idx"}));
  infer_shapes(g);
  CHECK(g.tensor("gat").shape == Shape{2, 3, 4});
}

TEST_CASE("unknown activation names are rejected") {
  Layer l = make_layer("c", "conv2d", {{"out_channels", int64_t{2}}, {"kernel", int64_t{1}}});
  l.activation = "relux";
  CHECK_THROWS_WITH_AS(one_layer({1, 1, 2, 2}, l), doctest::Contains("relux"), InputError);
}

TEST_CASE("param_count excludes buffers") {
  Graph g = one_layer({1, 4, 2, 2}, make_layer("bn", "batchnorm"));
  CHECK(g.param_count() == 8);
}

TEST_CASE("shapes too large to count exactly are input errors, not overflows") {
  CHECK_THROWS_WITH_AS(
      one_layer({100000000, 100000000, 100000000, 100000000}, make_layer("r", "relu")),
      doctest::Contains("too large"), InputError);
  CHECK_THROWS_WITH_AS(one_layer({1 << 20, 1 << 20},
                                 make_layer("fc", "linear", {{"out_features", int64_t{1} << 40}})),
                       doctest::Contains("too large"), InputError);
}

TEST_CASE("an integer attribute given as a float must be a whole number in range") {
  auto conv = [](AttrValue out_channels) {
    Layer l = make_layer("c", "conv2d", {{"out_channels", out_channels}, {"kernel", int64_t{1}}});
    l.loc = SourceLoc{"m.yaml", 4, 5};
    return one_layer({1, 3, 4, 4}, l);
  };
  CHECK(conv(4.0).tensors.at("c").shape == Shape{1, 4, 4, 4}); // 4.0 is the integer 4
  CHECK_THROWS_WITH_AS(conv(3.7),
                       "m.yaml:4:5: error: layer 'c' (conv2d): attribute 'out_channels' must be "
                       "an integer, not 3.7",
                       InputError);
  CHECK_THROWS_WITH_AS(conv(std::numeric_limits<double>::infinity()),
                       doctest::Contains("attribute 'out_channels' must be an integer, not inf"),
                       InputError);
  CHECK_THROWS_WITH_AS(conv(std::numeric_limits<double>::quiet_NaN()),
                       doctest::Contains("attribute 'out_channels' must be an integer, not nan"),
                       InputError);
  CHECK_THROWS_WITH_AS(conv(1e26),
                       doctest::Contains("attribute 'out_channels' must be an integer, not 1e+26"),
                       InputError);
  CHECK_THROWS_WITH_AS(conv(0x1p63), doctest::Contains("must be an integer"), InputError);
  // -2^63 is in range (and then rejected as a channel count, not converted out of range).
  CHECK_THROWS_WITH_AS(conv(-0x1p63), doctest::Contains("out_channels > 0"), InputError);
}

TEST_CASE("window arithmetic that would overflow is an input error, not a wrapped size") {
  const int64_t big = std::numeric_limits<int64_t>::max();
  auto pool = [](std::initializer_list<std::pair<const char *, AttrValue>> attrs) {
    return one_layer({1, 3, 224, 224}, make_layer("p", "maxpool", attrs));
  };
  // Before: pad 2^63 - 1 wrapped to a 54x54 output.
  CHECK_THROWS_WITH_AS(pool({{"kernel", int64_t{3}}, {"stride", int64_t{2}}, {"pad", big}}),
                       doctest::Contains("must be at most 2^31 - 1"), InputError);
  CHECK_THROWS_WITH_AS(pool({{"kernel", int64_t{3}}, {"dilation", big}}),
                       doctest::Contains("must be at most 2^31 - 1"), InputError);
  CHECK_THROWS_WITH_AS(pool({{"kernel", big}}), doctest::Contains("at most 2^31 - 1"), InputError);
  CHECK_THROWS_WITH_AS(pool({{"kernel", int64_t{3}}, {"stride", big}}),
                       doctest::Contains("at most 2^31 - 1"), InputError);
  // Largest accepted values: a window far larger than the input, reported as such.
  const int64_t cap = (int64_t{1} << 31) - 1;
  CHECK_THROWS_WITH_AS(pool({{"kernel", cap}, {"dilation", cap}}),
                       doctest::Contains("window larger than the padded input"), InputError);
  // (224 + 2 cap - 1) / cap + 1 = 3: windows at 0, cap and 2 cap of the padded input.
  CHECK(pool({{"kernel", int64_t{1}}, {"stride", cap}, {"pad", cap}}).tensors.at("p").shape ==
        Shape{1, 3, 3, 3});
  // Ceil mode at the edge: one window exactly, and the last-window rule.
  CHECK(pool({{"kernel", int64_t{224}}, {"ceil_mode", int64_t{1}}}).tensors.at("p").shape ==
        Shape{1, 3, 1, 1});
  CHECK(pool({{"kernel", int64_t{3}}, {"stride", int64_t{2}}, {"ceil_mode", int64_t{1}}})
            .tensors.at("p")
            .shape == Shape{1, 3, 112, 112});

  // Transposed convolution: (in - 1) stride + dilation (kernel - 1) overflows in int64 for a
  // 2^40-wide input; output_padding follows PyTorch's rule.
  auto deconv = [](const Shape &in, std::initializer_list<std::pair<const char *, AttrValue>> a) {
    Layer l = make_layer("d", "conv_transpose2d", a);
    return one_layer(in, l);
  };
  CHECK_THROWS_WITH_AS(deconv({1, 1, 1, int64_t{1} << 40},
                              {{"out_channels", int64_t{1}},
                               {"kernel", int64_t{1}},
                               {"stride", std::vector<int64_t>{1, cap}},
                               {"dilation", cap}}),
                       doctest::Contains("overflows"), InputError);
  CHECK(deconv({1, 2, 4, 4}, {{"out_channels", int64_t{2}},
                              {"kernel", int64_t{3}},
                              {"stride", int64_t{2}},
                              {"output_padding", int64_t{1}}})
            .tensors.at("d")
            .shape == Shape{1, 2, 10, 10});
  CHECK_THROWS_WITH_AS(deconv({1, 2, 4, 4}, {{"out_channels", int64_t{2}},
                                             {"kernel", int64_t{3}},
                                             {"stride", int64_t{2}},
                                             {"output_padding", int64_t{2}}}),
                       doctest::Contains("output_padding"), InputError);
  CHECK_THROWS_WITH_AS(deconv({1, 2, 4, 4}, {{"out_channels", int64_t{2}},
                                             {"kernel", int64_t{3}},
                                             {"output_padding", big}}),
                       doctest::Contains("output_padding"), InputError);
}

TEST_CASE("size arithmetic of split, slice, concat and reshape never overflows") {
  const int64_t big = std::numeric_limits<int64_t>::max();
  Layer s = make_layer("s", "split", {{"split", std::vector<int64_t>{big, big, 2}}});
  s.outputs = {"a", "b", "c"};
  CHECK_THROWS_WITH_AS(one_layer({4, 4}, s), doctest::Contains("overflows"), InputError);
  Layer neg = make_layer("s", "split", {{"split", std::vector<int64_t>{big, -big + 4}}});
  neg.outputs = {"a", "b"};
  CHECK_THROWS_WITH_AS(one_layer({4, 4}, neg), doctest::Contains("negative"), InputError);
  // Huge steps give one element, either way.
  auto slice = [&](int64_t start, int64_t end, int64_t step) {
    return one_layer({10}, make_layer("s", "slice",
                                      {{"starts", std::vector<int64_t>{start}},
                                       {"ends", std::vector<int64_t>{end}},
                                       {"steps", std::vector<int64_t>{step}}}))
        .tensors.at("s")
        .shape;
  };
  CHECK(slice(0, big, big) == Shape{1});
  CHECK(slice(-1, -big, -big) == Shape{1});
  CHECK(slice(0, 10, 3) == Shape{4});
  CHECK(slice(9, -11, -4) == Shape{3});
  CHECK_THROWS_WITH_AS(slice(0, 10, std::numeric_limits<int64_t>::min()),
                       doctest::Contains("step out of range"), InputError);
  CHECK_THROWS_WITH_AS(
      one_layer({2, 2}, make_layer("r", "reshape", {{"shape", std::vector<int64_t>{big, big, -1}}})),
      doctest::Contains("overflows"), InputError);
}

TEST_CASE("flags are 0 or 1 and a dropout ratio lies in [0, 1)") {
  auto pool = [](AttrValue ceil) {
    return one_layer({1, 3, 8, 8},
                     make_layer("p", "maxpool", {{"kernel", int64_t{3}}, {"ceil_mode", ceil}}));
  };
  // Stride defaults to the kernel: ceil((8 - 3) / 3) + 1 = 3.
  CHECK(pool(int64_t{1}).tensors.at("p").shape == Shape{1, 3, 3, 3});
  CHECK_THROWS_WITH_AS(pool(int64_t{7}),
                       doctest::Contains("attribute 'ceil_mode' must be 0 or 1 (false or true), "
                                         "not 7"),
                       InputError);
  CHECK_THROWS_WITH_AS(
      one_layer({1, 4},
                make_layer("fc", "linear", {{"out_features", int64_t{2}}, {"bias", int64_t{-1}}})),
      doctest::Contains("attribute 'bias' must be 0 or 1"), InputError);
  auto dropout = [](AttrValue ratio) {
    return one_layer({1, 4}, make_layer("d", "dropout", {{"ratio", ratio}}));
  };
  CHECK(dropout(0.5).tensors.at("d").shape == Shape{1, 4});
  CHECK(dropout(int64_t{0}).tensors.at("d").shape == Shape{1, 4});
  for (const AttrValue &bad : {AttrValue{2.0}, AttrValue{int64_t{-1}}, AttrValue{1.0},
                               AttrValue{std::numeric_limits<double>::quiet_NaN()}})
    CHECK_THROWS_WITH_AS(dropout(bad), doctest::Contains("'ratio' must be a number in [0, 1)"),
                         InputError);
  CHECK_THROWS_WITH_AS(dropout(std::string("-5 GB/s")),
                       doctest::Contains("attribute 'ratio' must be a number"), InputError);
}

TEST_CASE("a layer whose output is empty (a slice past the end) is an error naming it") {
  CHECK_THROWS_WITH_AS(
      one_layer({2, 8}, make_layer("s", "slice",
                                   {{"starts", std::vector<int64_t>{5}},
                                    {"ends", std::vector<int64_t>{9}},
                                    {"axes", std::vector<int64_t>{0}}})),
      doctest::Contains("layer 's' (slice): output 's' is empty (0x8)"), InputError);
  CHECK_NOTHROW(one_layer({2, 8}, make_layer("s", "slice",
                                             {{"starts", std::vector<int64_t>{1}},
                                              {"ends", std::vector<int64_t>{9}},
                                              {"axes", std::vector<int64_t>{0}}})));
}
