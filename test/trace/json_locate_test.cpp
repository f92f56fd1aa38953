// Tests of the JSON position helpers used by the trace reader's messages.
#include "io/trace/json_locate.hpp"

#include <doctest/doctest.h>

using namespace perfmodel;

TEST_CASE("location_of counts lines and columns from 1") {
  std::string t = "ab\ncd\n";
  CHECK(io::location_of(t, 0, "f").str() == "f:1:1");
  CHECK(io::location_of(t, 4, "f").str() == "f:2:2");
  CHECK(io::location_of(t, 99, "f").line == 3);
}

TEST_CASE("event_offset finds array elements, skipping strings and nesting") {
  std::string t = R"({"a": "[{,]", "traceEvents": [ {"x": [1, {"y": "},"}]}, 7 ,"s"]})";
  size_t e0 = io::event_offset(t, 0), e1 = io::event_offset(t, 1), e2 = io::event_offset(t, 2);
  CHECK(t.substr(e0, 6) == "{\"x\": ");
  CHECK(t[e1] == '7');
  CHECK(t[e2] == '"');
  CHECK(io::event_offset(t, 3) == t.size());
  std::string arr = "[1, [2, 3], 4]";
  CHECK(arr[io::event_offset(arr, 2)] == '4');
  CHECK(io::event_offset("{\"other\": []}", 0) == std::string("{\"other\": []}").size());
}
