// The summary sections of the `predict` views: the header (assumed execution and memory) and
// the rollup (time per op type and per bound). Each is computed once into lines or Grids and
// rendered by prediction_view.cpp in the four formats.
#pragma once

#include <string>
#include <vector>

#include "perfmodel/report/prediction_view.hpp"
#include "perfmodel/rollup.hpp"
#include "report/columns.hpp"

namespace perfmodel::report {

/// The header's lines after the title (no newlines), each at most `width` characters where its
/// items allow (0: one line per subject): the assumed execution, the peaks, the memory.
std::vector<std::string> header_lines(const PredictionContext &ctx, size_t width);

/// The header as JSON: `execution` and `memory` (null without one).
Json execution_json(const AssumedExecution &a);
Json memory_json(const std::optional<MemoryFit> &m);

/// CSV tables (the first column, `table`, names each): "run", one row of the header's fields;
/// "peaks", one row per peak used.
Grid run_grid(const Prediction &p, const PredictionContext &ctx);
Grid peaks_grid(const AssumedExecution &a);

/// The rollup's tables: one row per op type, one per bound; CSV starts each row with the
/// table's name (op_types, bounds).
Grid op_types_grid(const Rollup &r, Style style = {});
Grid bounds_grid(const Rollup &r, Style style = {});

} // namespace perfmodel::report
