// Shape inference and graph validation: ordering, unknown inputs, cycles, mismatches.
#include <doctest/doctest.h>

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
