// Reads the text nccl-tests (github.com/NVIDIA/nccl-tests) prints: its header line
// ("# nThread 1 nGpus 8 minBytes ..."), the "Using devices" rank lines and the rows
// size / count / type / redop / root / then time / algbw / busbw / #wrong out-of-place and in-place
// (docs/parallel.md, "Calibrating from nccl-tests").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfmodel/collectives.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel::io {

struct NcclTestsRow {
  int line = 0;
  double bytes = 0; // "size": the per-device buffer nccl-tests reports
  int64_t count = 0;
  std::string type, redop;
  double seconds_out = 0, algbw_out = 0, busbw_out = 0; // out-of-place (time in s, bw in B/s)
  double seconds_in = 0, algbw_in = 0, busbw_in = 0;    // in-place
};

/// One test run: from its header line to its "# Avg bus bandwidth" line.
struct NcclTestsRun {
  SourceLoc header;                     // the "# nThread" line
  std::optional<Collective> collective; // from "# Collective test starting: NAME" when printed
  int64_t ranks = 0;                    // the "#  Rank" lines, or nThread x nGpus without them
  std::vector<NcclTestsRow> rows;
};

/// Parses every run in `text` (files may hold several tests one after another). Throws
/// InputError at the line and column for: no header line, a row with missing, extra or
/// non-numeric fields, a negative size or time, a row reporting wrong elements (#wrong > 0:
/// its times are not of a correct run), a run without rows, and a run cut short (no closing
/// "# Avg bus bandwidth" line: a truncated file).
std::vector<NcclTestsRun> parse_nccl_tests(const std::string &text, const std::string &file);
std::vector<NcclTestsRun> read_nccl_tests(const std::string &path);

/// The collective of a run: its "Collective test starting" name, else `given` (--collective),
/// else inferred from the largest row's busbw / algbw ratio for `n` ranks and its redop
/// (2(n-1)/n: all_reduce; (n-1)/n with a reduction: reduce_scatter; 1 without one: send_recv).
/// Throws InputError at the run's header when that is ambiguous (all_gather and alltoall share
/// both) or contradicts `given`.
Collective run_collective(const NcclTestsRun &r, std::optional<Collective> given, int64_t n);

} // namespace perfmodel::io
