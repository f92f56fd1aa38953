// Tests of the trace reader: fields of a small trace, gzip input, and located errors.
#include "perfmodel/trace/read_trace.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "perfmodel/io/files.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("reads the complete events of a small trace with their args") {
  trace::Trace t = io::read_trace(test_data("tiny.json"));
  REQUIRE(t.events.size() == 13); // the flow ("s") and metadata ("M") events are skipped
  CHECK(t.origin_us == 990);      // the earliest event (the orphan kernel)
  const trace::TraceEvent &step = t.events[0];
  CHECK(step.kind == trace::EventKind::profiler_step);
  CHECK(step.step == 1);
  CHECK(step.start == rel(10e-6));
  CHECK(step.end == rel(110e-6));
  const trace::TraceEvent &relu = t.events[2];
  CHECK(relu.kind == trace::EventKind::op);
  CHECK(relu.tid == "10");
  CHECK(relu.external_id == 3);
  REQUIRE(relu.input_dims.size() == 1);
  CHECK(relu.input_dims[0] == trace::Dims{4, 8});
  const trace::TraceEvent &rt = t.events[4];
  CHECK(rt.kind == trace::EventKind::runtime);
  CHECK(rt.correlation == 100);
  CHECK(rt.external_id == 4); // lower-case "external id" of runtime events
  const trace::TraceEvent &k = t.events[5];
  CHECK(k.kind == trace::EventKind::kernel);
  CHECK(k.pid == "0");
  CHECK(k.tid == "stream 7");
  REQUIRE(k.block.has_value());
  CHECK((*k.block)[0] == 128);
  CHECK(t.events[9].kind == trace::EventKind::memcpy);
}

TEST_CASE("a gzip trace reads the same as the plain one") {
  trace::Trace a = io::read_trace(test_data("tiny.json"));
  trace::Trace b = io::read_trace(test_data("tiny.json.gz"));
  REQUIRE(a.events.size() == b.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    CHECK(a.events[i].name == b.events[i].name);
    CHECK(a.events[i].start == b.events[i].start);
    CHECK(a.events[i].end == b.events[i].end);
  }
}

TEST_CASE("events that touch in microseconds touch exactly in seconds") {
  trace::Trace t = io::parse_trace(
      R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1610366662254362,"dur":7},
                         {"ph":"X","cat":"cpu_op","name":"b","ts":1610366662254369,"dur":0}]})",
      "mem.json");
  REQUIRE(t.events.size() == 2);
  CHECK(t.events[0].end == t.events[1].start);
  CHECK(t.events[1].end == t.events[1].start);
}

namespace {

std::string error_of(const std::string &name) {
  try {
    io::read_trace(test_data(name));
  } catch (const InputError &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("malformed traces are input errors with a location") {
  std::string e = error_of("not_json.json");
  CHECK(e.find("not_json.json:1:") != std::string::npos);
  CHECK(e.find("error: not valid JSON") != std::string::npos);

  e = error_of("truncated.json");
  CHECK(e.find("truncated.json:4:") != std::string::npos);
  CHECK(e.find("not valid JSON") != std::string::npos);

  e = error_of("wrong_type.json");
  CHECK(e.find("wrong_type.json:3:3: error: traceEvents[1] (\"k2\"): \"dur\" must be a number, "
               "not string") != std::string::npos);

  e = error_of("bad_dims.json");
  CHECK(e.find("bad_dims.json:2:3:") != std::string::npos);
  CHECK(e.find("\"Input Dims\" entries must be lists") != std::string::npos);

  e = error_of("no_events.json");
  CHECK(e.find("no \"traceEvents\"") != std::string::npos);

  e = error_of("negative_dur.json");
  CHECK(e.find("\"dur\" is negative") != std::string::npos);

  e = error_of("truncated.json.gz");
  CHECK(e.find("truncated.json.gz: error: truncated gzip stream") != std::string::npos);

  e = error_of("corrupt.json.gz");
  CHECK(e.find("corrupt gzip stream") != std::string::npos);

  CHECK_THROWS_AS(io::read_trace(test_data("does_not_exist.json")), InputError);
  CHECK_THROWS_AS(io::parse_trace("", "empty.json"), InputError);
  CHECK_THROWS_AS(io::parse_trace("42", "num.json"), InputError);
  CHECK_THROWS_AS(io::parse_trace(R"({"traceEvents": 3})", "x.json"), InputError);
  CHECK_THROWS_AS(io::parse_trace(R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]})", "x"),
                  InputError); // no name
  CHECK_THROWS_AS(io::parse_trace(R"({"traceEvents": [7]})", "x"), InputError);
}

TEST_CASE("absurd trace values are input errors at their event") {
  auto error_of_text = [](const std::string &events) -> std::string {
    try {
      io::parse_trace("{\"traceEvents\": [\n" + events + "\n]}", "t.json");
    } catch (const InputError &e) {
      return e.what();
    }
    return "";
  };
  auto kernel = [](const std::string &fields) {
    return R"({"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 7, "ts": 10, )" + fields +
           "}";
  };
  CHECK(error_of_text(kernel(R"("dur": 5)")) == "");
  // Before: a 60-digit time with no unit, exit 0.
  CHECK(error_of_text(kernel(R"("dur": 1e300)")) ==
        "t.json:2:1: error: traceEvents[0] (\"k\"): \"dur\" is 1e+300 us, above 1e12 us");
  CHECK(error_of_text(kernel(R"("dur": 1, "ts": 1e300)"))
            .find("\"ts\" is 1e+300 us, above 1e18 us") != std::string::npos);
  // A process id is an integer or a string; 1e-320 is neither.
  CHECK(error_of_text(R"({"ph": "X", "name": "k", "pid": 1e-320, "ts": 1, "dur": 1})")
            .find("\"pid\" must be an integer or a string, not 1e-320") != std::string::npos);
  CHECK(error_of_text(R"({"ph": "X", "name": "k", "pid": "Spans", "tid": 3, "ts": 1, "dur": 1})") ==
        "");
  auto op = [](const std::string &dims) {
    return R"({"ph": "X", "name": "aten::relu", "cat": "cpu_op", "pid": 0, "tid": 1, "ts": 1, )"
           R"("dur": 1, "args": {"Input Dims": )" +
           dims + "}}";
  };
  CHECK(error_of_text(op("[[4, 8], [], [[2, 3], [4]]]")) == ""); // a TensorList argument
  // Before: dims of 2^62 or INT64_MAX and dims nested as [[[[4]]]] passed silently.
  CHECK(error_of_text(op("[[4611686018427387904]]"))
            .find("\"Input Dims\" holds 4611686018427387904, above 2^50") != std::string::npos);
  CHECK(error_of_text(op("[[9223372036854775807]]")).find("above 2^50") != std::string::npos);
  CHECK(error_of_text(op("[[1125899906842624, 2]]")).find("a tensor of more than 2^50 elements") !=
        std::string::npos);
  CHECK(error_of_text(op("[[[[4]]]]")).find("nests lists deeper than a list of tensors") !=
        std::string::npos);
  CHECK(
      error_of_text(op("[[[4, 9223372036854775807]]]")).find("must hold integers from 0 to 2^50") !=
      std::string::npos);
}

TEST_CASE("Input Strides are read per argument; a TensorList's or a non-integer entry is empty") {
  const std::string text =
      R"({"traceEvents": [{"ph": "X", "name": "aten::cudnn_convolution", "cat": "cpu_op", )"
      R"("pid": 0, "tid": 1, "ts": 1, "dur": 1, "args": {"Input Dims": [[32, 64, 56, 56], )"
      R"([64, 64, 1, 1], [], [[2, 3]]], "Input Strides": [[200704, 1, 3584, 64], )"
      R"([64, 1, 64, 64], [], [[3, 1]], "x", [-2, 1]]}}]})";
  const trace::Trace t = io::parse_trace(text, "s.json");
  REQUIRE(t.events.size() == 1);
  const auto &st = t.events[0].input_strides;
  REQUIRE(st.size() == 6);
  CHECK(st[0] == trace::Dims{200704, 1, 3584, 64});
  CHECK(st[1] == trace::Dims{64, 1, 64, 64});
  CHECK(st[2].empty());
  CHECK(st[3].empty()); // a TensorList: no single tensor's strides
  CHECK(st[4].empty());
  CHECK(st[5].empty()); // not strides of a tensor
}
