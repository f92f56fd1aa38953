// Positions inside JSON text for error messages: byte offset -> line:col, and where the N-th
// element of the trace's event array starts (nlohmann's DOM does not keep positions).
#pragma once

#include <cstddef>
#include <string_view>

#include "perfmodel/error.hpp"

namespace perfmodel::io {

/// 1-based line and column of byte `offset` in `text` (clamped to the text).
SourceLoc location_of(std::string_view text, size_t offset, const std::string &file);

/// Byte offset where element `index` of the events array starts: the value of the top-level
/// key "traceEvents", or the top-level array itself. Returns text.size() when not found.
/// Only called on the error path, so it rescans the text.
size_t event_offset(std::string_view text, size_t index);

} // namespace perfmodel::io
