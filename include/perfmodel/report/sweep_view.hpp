// The sweep view: one row per point of a SweepResult, rendered as table, CSV, JSON or Markdown.
//
// Sample (perfmodel sweep --model nin --hw v100 --batch 1:64:+21 --dtype fp32,fp8):
//
//   sweep of nin: 8 points, 4 evaluated, 4 skipped
//   hw    dtype  batch  pass  latency  throughput  FLOPs   bytes   FLOP/s    AI       %compute ...
//   v100  fp32   1      fwd   244us    4.10K/s     2.51GF  47.5MB  10.3TF/s  53.0F/B  76%      ...
//   v100  fp32   22     fwd   3.68ms   5.98K/s     55.3GF  406MB   15.0TF/s  136F/B   97%      ...
//   v100  fp8    1      fwd   skipped: hardware 'v100' has no compute unit for fp8
//   (further columns: %memory %overhead energy J/sample samples/J power F/s/W footprint fits)
//
// CSV carries raw SI numbers with the unit in the header (`latency (s)`); JSON is
// "perfmodel.sweep/1" with points[] holding either the numbers or `skipped` with its reason.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/report/format.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::report {

std::string render_sweep_table(const SweepResult &r);
std::string render_sweep_csv(const SweepResult &r);
std::string render_sweep_json(const SweepResult &r);
std::string render_sweep_md(const SweepResult &r);
std::string render_sweep(const SweepResult &r, Format f);
/// render_sweep's text in pieces, a chunk of points at a time, to `out` (an output file): the
/// text is never held whole, and the formatted cells of one chunk at a time only (the table
/// formats every cell twice: once to measure the columns, once to print).
void write_sweep(const SweepResult &r, Format f, const std::function<void(std::string_view)> &out);

/// The keys of sort_sweep, in the order `--sort` documents them.
std::vector<std::string> sweep_sort_keys();
/// Orders the evaluated points best first by `key` (the smallest latency, energy, power,
/// footprint, batch and hardware name; the largest throughput, FLOP/s, samples per joule and
/// FLOP/s per watt), ties in axis order, skipped points last. False (nothing changed) for a
/// key that is not one of sweep_sort_keys().
bool sort_sweep(SweepResult &r, const std::string &key);

} // namespace perfmodel::report
