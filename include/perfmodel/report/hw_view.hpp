// The `info` view of a hardware spec: compute ceilings, memory levels and ridge points
// (peak FLOP/s / bandwidth: the arithmetic intensity where a layer stops being memory bound).
//
// Sample (perfmodel info --hw v100):
//   v100 (gpu): NVIDIA Tesla V100 SXM2 ...
//   unit    dtype  peak       ridge dram  ridge l2  ridge l1
//   simt    fp32   15.7TF/s   17.4F/B     5.24F/B   1.10F/B
//   tensor  fp16   125TF/s    139F/B      41.7F/B   8.72F/B
#pragma once

#include <string>

#include "perfmodel/hw_spec.hpp"
#include "perfmodel/report/format.hpp"

namespace perfmodel::report {

std::string render_hw(const HwSpec &hw, Format f);

} // namespace perfmodel::report
