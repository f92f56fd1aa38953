// Tests of the trace reader: fields of a small trace, gzip input, and located errors.
#include "perfmodel/trace/read_trace.hpp"

#include <doctest/doctest.h>

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
  CHECK(step.start == doctest::Approx(10e-6));
  CHECK(step.end == doctest::Approx(110e-6));
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
