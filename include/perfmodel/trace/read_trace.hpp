// Reads a PyTorch profiler trace (Chrome trace JSON, optionally gzip) into a trace::Trace.
#pragma once

#include <string>
#include <string_view>

#include "perfmodel/trace/trace.hpp"

namespace perfmodel::io {

/// Parses trace text (JSON, or gzip of JSON: detected by its magic bytes). `file` names the
/// input in messages. Bad input throws InputError located at file:line:col of the decompressed
/// JSON: truncated or corrupt gzip, JSON syntax errors, a top level that is neither an object
/// with "traceEvents" nor an array, and complete ("ph": "X") events whose fields have the wrong
/// type (name not a string, ts/dur not numbers, negative dur, "Input Dims" not lists of ints).
trace::Trace parse_trace(std::string_view data, const std::string &file);

/// Reads the file at `path` and parses it.
trace::Trace read_trace(const std::string &path);

} // namespace perfmodel::io
