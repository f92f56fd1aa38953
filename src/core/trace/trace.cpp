// Event kinds of a profiler trace: names and the category table of the TensorBoard plugin.
#include "perfmodel/trace/trace.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace perfmodel::trace {

std::string_view to_string(EventKind k) {
  switch (k) {
  case EventKind::op:
    return "operator";
  case EventKind::python:
    return "python";
  case EventKind::user_annotation:
    return "user_annotation";
  case EventKind::profiler_step:
    return "profiler_step";
  case EventKind::runtime:
    return "runtime";
  case EventKind::kernel:
    return "kernel";
  case EventKind::memcpy:
    return "memcpy";
  case EventKind::memset:
    return "memset";
  case EventKind::trace:
    return "trace";
  case EventKind::python_function:
    return "python_function";
  case EventKind::other:
    return "other";
  }
  return "other";
}

EventKind kind_of_category(std::string_view cat) {
  std::string c(cat);
  std::transform(c.begin(), c.end(), c.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  // torch_tb_profiler/profiler/trace.py, EventTypeMap.
  if (c == "cpu_op" || c == "operator")
    return EventKind::op;
  if (c == "python")
    return EventKind::python;
  // gpu_user_annotation spans sit on device streams: they are not host operators.
  if (c == "user_annotation")
    return EventKind::user_annotation;
  if (c == "runtime" || c == "cuda_runtime" || c == "cuda_driver")
    return EventKind::runtime;
  if (c == "kernel")
    return EventKind::kernel;
  if (c == "memcpy" || c == "gpu_memcpy")
    return EventKind::memcpy;
  if (c == "memset" || c == "gpu_memset")
    return EventKind::memset;
  if (c == "trace")
    return EventKind::trace;
  if (c == "python_function")
    return EventKind::python_function;
  return EventKind::other;
}

} // namespace perfmodel::trace
