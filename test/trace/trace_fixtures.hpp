// Shared inputs of the trace tests: the two ResNet-50 V100 traces (parsed once), the TensorBoard
// plugin's expected results, a small hand-made trace, and a V100 spec built in code.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/trace/attainment.hpp"
#include "perfmodel/trace/links.hpp"
#include "perfmodel/trace/op_table.hpp"
#include "perfmodel/trace/op_tree.hpp"
#include "perfmodel/trace/overview.hpp"
#include "perfmodel/trace/read_trace.hpp"

namespace perfmodel::test {

struct LoadedTrace {
  trace::Trace trace;
  trace::Links links;
  trace::OpTree tree;
};

/// test/data/trace/resnet50_v100_num_workers_<workers>.pt.trace.json.gz (test/data/README.md).
inline std::string shared_trace_path(int workers) {
  return std::string(PERFMODEL_TEST_DATA) + "/trace/resnet50_v100_num_workers_" +
         std::to_string(workers) + ".pt.trace.json.gz";
}

/// The ResNet-50 trace for num_workers 0 or 4, parsed once per test executable.
inline const LoadedTrace &shared_trace(int workers) {
  static std::map<int, std::unique_ptr<LoadedTrace>> cache;
  auto &slot = cache[workers];
  if (!slot) {
    slot = std::make_unique<LoadedTrace>();
    slot->trace = io::read_trace(shared_trace_path(workers));
    slot->links = trace::link_events(slot->trace);
    slot->tree = trace::build_op_tree(slot->trace, slot->links);
  }
  return *slot;
}

/// tb-profiler-expected.jsonl: 5 documents per trace (overview, operator summary, operator
/// table, kernel table, kernel totals), num_workers_0 first.
inline const std::vector<nlohmann::json> &expected_documents() {
  static std::vector<nlohmann::json> docs = [] {
    std::vector<nlohmann::json> d;
    std::ifstream in(std::string(PERFMODEL_TEST_DATA) + "/trace/tb-profiler-expected.jsonl");
    REQUIRE_MESSAGE(in.good(), "test/data/trace/tb-profiler-expected.jsonl is missing");
    std::string line;
    while (std::getline(in, line))
      if (!line.empty())
        d.push_back(nlohmann::json::parse(line));
    REQUIRE(d.size() == 10);
    return d;
  }();
  return docs;
}
inline const nlohmann::json &expected(int workers, int doc) {
  return expected_documents().at((workers == 0 ? 0 : 5) + doc);
}

inline std::string test_data(const std::string &name) {
  return std::string(PERFMODEL_TEST_DATA) + "/trace/" + name;
}

inline LoadedTrace load_test_trace(const std::string &name) {
  LoadedTrace t;
  t.trace = io::read_trace(test_data(name));
  t.links = trace::link_events(t.trace);
  t.tree = trace::build_op_tree(t.trace, t.links);
  return t;
}

/// Tesla V100-SXM2 (NVIDIA V100 datasheet): 15.7 TFLOP/s fp32, 125 TFLOP/s fp16 tensor cores,
/// 900 GB/s HBM2, 5 us launch overhead. Built here so the tests do not depend on hw_specs/.
inline HwSpec v100() {
  HwSpec hw;
  hw.name = "v100-test";
  hw.kind = "gpu";
  hw.compute = {ComputeUnit{"simt", DType::fp32, 15.7e12, false, 0},
                ComputeUnit{"simt", DType::fp16, 31.4e12, false, 0},
                ComputeUnit{"tensor", DType::fp16, 125e12, true, 0}};
  hw.memory = {MemoryLevel{"dram", 900e9, 32e9, 0}};
  hw.launch_overhead_seconds = 5e-6;
  return hw;
}

/// |a - b| within half a unit of the expected value's rounding (the plugin rounds to 1 us).
inline bool close_us(double seconds, double expected_us) {
  return std::abs(seconds * 1e6 - expected_us) <= 0.5 + 1e-6;
}

} // namespace perfmodel::test
