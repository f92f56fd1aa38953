// Internal to src/report: a sweep's points written in a format a chunk at a time, so that the
// text is never held whole (sweep_view.cpp, llm_sweep_view.cpp).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "report/columns.hpp"

namespace perfmodel::report {

/// Points formatted per chunk: the cells of one chunk live at a time.
inline constexpr size_t kPointsChunk = 4096;

/// Writes `count` points to `out` in format `f`: `grid_of(at, n)` gives the grid of points
/// at ... at + n - 1. JSON is `head` with a "points" array of one object per point (json_text's
/// layout); the table and Markdown start with `title` (Markdown in bold); CSV is the grid's.
void write_points(size_t count, const std::function<Grid(size_t at, size_t n)> &grid_of,
                  const Json &head, const std::string &title, Format f,
                  const std::function<void(std::string_view)> &out);

} // namespace perfmodel::report
