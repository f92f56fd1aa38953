// The overview of a profiler trace: per step, where the time went (the TensorBoard plugin's
// rules), the average step, GPU utilization and recommendations.
//
// Every event gets one role; within each step, time is claimed in the priority
//   Kernel > Memcpy > Memset > Communication > Runtime > DataLoader > CPU Exec
// and "Other" is what no role claimed. A step spans from its ProfilerStep#N start (never
// before the previous step's end) to the later of its host end and the end of the last device
// activity launched by runtime calls made inside it; trailing steps that launched clearly
// fewer device activities than the one before are dropped (the profiler may have cut them).
#pragma once

#include <string>
#include <vector>

#include "perfmodel/trace/links.hpp"
#include "perfmodel/trace/trace.hpp"

namespace perfmodel::trace {

/// Seconds per role; `total` is the step's length.
struct StepTimes {
  std::string step; // "5" for ProfilerStep#5; "average" for the mean
  double kernel = 0, memcpy = 0, memset = 0, communication = 0, runtime = 0, dataloader = 0,
         cpu_exec = 0, other = 0, total = 0;
};

/// Advice the plugin's rules give for the average step (report/trace words it).
struct Recommendation {
  enum class Kind {
    dataloader,     // DataLoader share of the step above 5%: use worker processes
    communication,  // communication share above 10%: overlap it or communicate less often
    gpu_utilization // GPU utilization below 50%: the GPU waits for the host
  };
  Kind kind;
  double fraction; // the share (dataloader, communication) or the utilization
};

struct Overview {
  std::vector<StepTimes> steps;
  StepTimes average;
  double gpu_utilization = 0; // average kernel time / average step time (the plugin's rule)
  std::vector<Recommendation> recommendations;
  int dropped_tail_steps = 0;
  bool has_device = false; // any device activity was launched from inside a step
};

Overview compute_overview(const Trace &t, const Links &links);

/// Role names in priority order, as the plugin labels them.
const std::vector<std::string> &role_names();
/// The role values of a StepTimes in role_names() order (without total).
std::vector<double> role_values(const StepTimes &s);

} // namespace perfmodel::trace
