// The `llm` view: parameters, KV bytes per token, memory, TTFT, TPOT, end-to-end time, tokens
// per second and energy of one served batch, as table, CSV, JSON ("perfmodel.llm/1") or
// Markdown; with per_layer, the prefill and the last decode step's layer tables (predict's).
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/serve.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

std::string render_llm(const llm::LlmConfig &c, const HwSpec &hw, const llm::ServeResult &r,
                       Format f, bool per_layer);

} // namespace perfmodel::report
