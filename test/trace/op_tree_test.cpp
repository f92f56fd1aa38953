// Tests of the operator call trees: nesting, runtime ownership and merging of duplicates.
#include "perfmodel/trace/op_tree.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("call tree of the hand-made trace") {
  LoadedTrace t = load_test_trace("tiny.json");
  const trace::OpTree &tree = t.tree;
  REQUIRE(tree.roots.size() == 1);
  const trace::OpNode &root = tree.nodes[tree.roots[0]];
  REQUIRE(root.children.size() == 2); // the two ProfilerStep spans
  CHECK(root.runtimes.size() == 1);   // the External id 0 launch
  const trace::OpNode &step1 = tree.nodes[root.children[0]];
  CHECK(t.trace.events[step1.event].name == "ProfilerStep#1");
  REQUIRE(step1.children.size() == 2); // DataLoader, aten::relu (its duplicate merged)
  const trace::OpNode &relu = tree.nodes[step1.children[1]];
  CHECK(t.trace.events[relu.event].external_id == 3);
  CHECK(relu.children.empty());
  CHECK(relu.runtimes.size() == 1); // taken from the merged inner aten::relu
  CHECK(relu.device_total == rel(60e-6));
  CHECK(step1.device_total == rel(60e-6));
  CHECK(trace::is_operator_node(t.trace, tree, step1.children[1]));
  CHECK_FALSE(trace::is_operator_node(t.trace, tree, step1.children[0])); // DataLoader
  CHECK_FALSE(trace::is_operator_node(t.trace, tree, root.children[0]));  // step
  CHECK(tree.overlapping == 0);
}

TEST_CASE("an event that overlaps its sibling without nesting is counted and left out") {
  trace::Trace t;
  auto op = [](const char *n, double s, double e) {
    trace::TraceEvent ev;
    ev.kind = trace::EventKind::op;
    ev.name = n;
    ev.tid = "1";
    ev.start = s;
    ev.end = e;
    return ev;
  };
  t.events = {op("a", 0, 10), op("b", 5, 15)};
  trace::OpTree tree = trace::build_op_tree(t, trace::link_events(t));
  CHECK(tree.overlapping == 1);
  CHECK(tree.nodes.size() == 2); // root + a
}
