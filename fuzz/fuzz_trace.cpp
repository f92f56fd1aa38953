// libFuzzer target: the profiler trace reader (io::parse_trace) on JSON or gzip bytes (it tells
// them apart by the gzip magic; the seed corpus holds both). Returned events have finite times
// with end >= start and dims that are not negative.
#include "fuzz_contract.hpp"
#include "perfmodel/trace/read_trace.hpp"
#include "perfmodel/trace/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace perfmodel;
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  fuzz::contract([&] {
    const trace::Trace t = io::parse_trace(bytes, fuzz::kFile);
    fuzz::require(std::isfinite(t.origin_us), "origin finite");
    for (const auto &e : t.events) {
      fuzz::require(std::isfinite(e.start) && std::isfinite(e.end) && e.end >= e.start,
                    "event times finite, end >= start");
      for (const auto &dims : e.input_dims)
        for (int64_t d : dims)
          fuzz::require(d >= 0, "input dims not negative");
    }
  });
  return 0;
}
