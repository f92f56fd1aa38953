// The `llm` view on many devices: the split, memory per device, times with each kind of
// communication, and for training the step's parts, MFU and tokens/s; as table, CSV, JSON
// ("perfmodel.llm/1", with "parallel" and "train" objects) or Markdown (docs/parallel.md).
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/llm/parallel_train.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

std::string render_parallel_serve(const llm::LlmConfig &c, const HwSpec &hw,
                                  const llm::ParallelServeResult &r, Format f);
std::string render_parallel_train(const llm::LlmConfig &c, const HwSpec &hw,
                                  const llm::TrainResult &r, Format f);

} // namespace perfmodel::report
