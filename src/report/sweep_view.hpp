// The sweep view: one row per point of a SweepResult, rendered as table, CSV, JSON or Markdown.
//
// Sample (perfmodel sweep --model vgg16 --hw v100,t4 --batch 1,64 --dtype fp32,fp8):
//
//   sweep of vgg16: 8 points, 4 evaluated, 4 skipped
//   hw    dtype  batch  pass  latency  throughput  FLOP/s   AI      compute  memory  overhead ...
//   v100  fp32   1      fwd   2.38ms   420/s       13.0TF/s 56.5F/B 91%      9%      0%       ...
//   v100  fp32   64     fwd   141ms    454/s       14.1TF/s 364F/B  99%      1%      0%       ...
//   v100  fp8    1      fwd   skipped: hardware 'v100' has no compute unit for fp8
//
// CSV carries raw SI numbers with the unit in the header (`latency (s)`); JSON is
// "perfmodel.sweep/1" with points[] holding either the numbers or `skipped` with its reason.
#pragma once

#include <string>

#include "perfmodel/sweep.hpp"
#include "report/format.hpp"

namespace perfmodel::report {

std::string render_sweep_table(const SweepResult& r);
std::string render_sweep_csv(const SweepResult& r);
std::string render_sweep_json(const SweepResult& r);
std::string render_sweep_md(const SweepResult& r);
std::string render_sweep(const SweepResult& r, Format f);

}  // namespace perfmodel::report
