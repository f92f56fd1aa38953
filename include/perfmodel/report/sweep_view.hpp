// The sweep view: one row per point of a SweepResult, rendered as table, CSV, JSON or Markdown.
//
// Sample (perfmodel sweep --model nin --hw v100 --batch 1:64:+21 --dtype fp32,fp8):
//
//   sweep of nin: 8 points, 4 evaluated, 4 skipped
//   hw    dtype  batch  pass  latency  throughput  FLOPs   bytes   FLOP/s    AI       %compute ...
//   v100  fp32   1      fwd   244us    4.10K/s     2.51GF  47.5MB  10.3TF/s  53.0F/B  76%      ...
//   v100  fp32   22     fwd   3.68ms   5.98K/s     55.3GF  406MB   15.0TF/s  136F/B   97%      ...
//   v100  fp8    1      fwd   skipped: hardware 'v100' has no compute unit for fp8
//   (further columns: %memory %overhead energy J/sample F/s/W footprint fits)
//
// CSV carries raw SI numbers with the unit in the header (`latency (s)`); JSON is
// "perfmodel.sweep/1" with points[] holding either the numbers or `skipped` with its reason.
#pragma once

#include <string>

#include "perfmodel/report/format.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::report {

std::string render_sweep_table(const SweepResult &r);
std::string render_sweep_csv(const SweepResult &r);
std::string render_sweep_json(const SweepResult &r);
std::string render_sweep_md(const SweepResult &r);
std::string render_sweep(const SweepResult &r, Format f);

} // namespace perfmodel::report
