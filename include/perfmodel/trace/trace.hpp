// The plain data of a PyTorch profiler (Chrome trace) file: duration events with their roles.
//
// src/io/trace/read_trace.cpp fills it from JSON; everything in src/core/trace analyses it
// without touching files. Times are seconds relative to Trace::origin_us: start and end are
// each computed from exact microsecond values, so events that touch in the file (one ends
// at the microsecond the next begins) still touch here, and nesting tests stay exact.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfmodel::trace {

/// The role of an event, from its "cat" (the TensorBoard plugin's EventTypeMap).
enum class EventKind {
  op,              // cpu_op / operator
  python,          // python
  user_annotation, // user_annotation / gpu_user_annotation
  profiler_step,   // an op or annotation named "ProfilerStep#N"
  runtime,         // cuda_runtime / runtime
  kernel,          // kernel
  memcpy,          // memcpy / gpu_memcpy
  memset,          // memset / gpu_memset
  trace,           // the profiler's own span ("PyTorch Profiler (0)")
  python_function, // python_function
  other,           // any other category: kept for completeness, ignored by the views
};
std::string_view to_string(EventKind k);
/// Maps a "cat" value (case-insensitive) to a kind; `other` when unknown.
EventKind kind_of_category(std::string_view cat);

/// One shape per operator argument; an empty shape means "not a tensor or not recorded".
using Dims = std::vector<int64_t>;

struct TraceEvent {
  EventKind kind = EventKind::other;
  std::string name;
  double start = 0; // seconds since Trace::origin_us
  double end = 0;   // seconds since Trace::origin_us (start + dur, computed in microseconds)
  std::string pid;  // as written: a number or a string ("Traces")
  std::string tid;  // as written: a number or a string ("stream 7")
  int64_t external_id = -1;                 // args "External id" / "external id"; -1 = absent
  int64_t correlation = -1;                 // args "correlation"; -1 = absent
  int step = -1;                            // N of "ProfilerStep#N"
  std::vector<Dims> input_dims;             // args "Input Dims" / "Input dims"
  std::vector<Dims> input_strides;          // args "Input Strides" (PyTorch >= 2.1; an entry
                                            // empty when not one tensor's integer strides)
  std::vector<std::string> input_types;     // args "Input type"
  std::vector<std::string> concrete_inputs; // args "Concrete Inputs" (PyTorch >= 2.1)
  std::optional<std::array<int64_t, 3>> grid, block; // kernels
  size_t index = 0; // position in the file's traceEvents array (for messages)

  double duration() const { return end - start; }
  bool is_device() const {
    return kind == EventKind::kernel || kind == EventKind::memcpy || kind == EventKind::memset;
  }
  bool is_host_op() const {
    return kind == EventKind::op || kind == EventKind::python ||
           kind == EventKind::user_annotation || kind == EventKind::profiler_step;
  }
};

struct Trace {
  std::string file;               // where it was read from (for messages)
  double origin_us = 0;           // absolute timestamp (us) that start/end are relative to
  std::vector<TraceEvent> events; // the complete ("ph":"X") events, in file order
};

} // namespace perfmodel::trace
