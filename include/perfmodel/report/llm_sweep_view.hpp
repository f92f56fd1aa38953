// The sweep view of a language model: one row per point of an LlmSweepResult, rendered as
// table, CSV, JSON ("perfmodel.llm_sweep/1") or Markdown, a chunk of points at a time.
//
// Sample (perfmodel sweep --model llama-3-8b --hw h100 --batch 1,64 --prompt 512 --generate 128):
//
//   sweep of llama-3-8b (serving): 2 points, 2 evaluated, 0 skipped
//   hw    dtype  tp  pp  gpus  prompt  generate  batch  TTFT    TPOT    e2e    tok/s/req  tok/ ...
//   h100  fp16   1   1   1     512     128       1      12.0ms  7.56ms  972ms  132/s      132/ ...
//   h100  fp16   1   1   1     512     128       64     552ms   9.25ms  1.73s  74.1/s     4.74 ...
//   (further columns: tok/s, tok/s/gpu, KV cache, memory, fits, max batch)
//
// CSV carries raw SI numbers with the unit in the header (`TTFT (s)`); JSON's points[] hold the
// numbers or `skipped` with its reason (docs/formats.md).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "perfmodel/llm/sweep.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

void write_llm_sweep(const llm::LlmSweepResult &r, Format f,
                     const std::function<void(std::string_view)> &out);
std::string render_llm_sweep(const llm::LlmSweepResult &r, Format f);

/// The keys of sort_llm_sweep, in the order `--sort` documents them.
std::vector<std::string> llm_sweep_sort_keys();
/// Orders the evaluated points best first by `key` (the smallest TTFT, TPOT, end-to-end time,
/// memory, batch and hardware name; the largest rates and max batch), ties in axis order,
/// points without a TPOT after the others for `tpot`, skipped points last. False (nothing
/// changed) for a key that is not one of llm_sweep_sort_keys().
bool sort_llm_sweep(llm::LlmSweepResult &r, const std::string &key);

} // namespace perfmodel::report
