// Step breakdown of a trace (torch_tb_profiler's step_parser + overall_parser rules).
#include "perfmodel/trace/overview.hpp"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "core/trace/ranges.hpp"

namespace perfmodel::trace {
namespace {

enum Role { kKernel, kMemcpy, kMemset, kComm, kRuntime, kDataLoader, kCpuExec, kRoles };

bool is_communication_op(const std::string &n) {
  static const char *names[] = {
      "nccl:broadcast", "nccl:reduce", "nccl:all_reduce", "nccl:all_gather", "nccl:reduce_scatter",
      "gloo:broadcast", "gloo:reduce", "gloo:all_reduce", "gloo:all_gather", "gloo:reduce_scatter"};
  for (const char *c : names)
    if (n == c)
      return true;
  return false;
}

bool is_dataloader(const TraceEvent &e) {
  auto starts = [&](const char *p) { return e.name.rfind(p, 0) == 0; };
  auto ends = [&](const std::string &s) {
    return e.name.size() >= s.size() && e.name.compare(e.name.size() - s.size(), s.size(), s) == 0;
  };
  return (starts("enumerate(DataLoader)#") && ends(".__next__")) || starts("enumerate(DataPipe)#");
}

struct Step {
  double start, end;
  std::string name;
};

// Extends each host step to the device work launched inside it; drops cut-off tail steps.
void consider_device_side(const Trace &t, const Links &l, std::vector<Step> &steps, Overview &ov) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<size_t> rts = l.runtimes;
  std::stable_sort(rts.begin(), rts.end(),
                   [&](size_t a, size_t b) { return t.events[a].start < t.events[b].start; });
  std::vector<std::pair<double, double>> dev(steps.size(), {inf, -inf});
  std::vector<int> matched(steps.size(), 0);
  std::vector<char> is_matched(t.events.size(), 0);
  size_t is = 0, ir = 0;
  double dmin = inf, dmax = -inf;
  while (is < steps.size() && ir < rts.size()) {
    const TraceEvent &rt = t.events[rts[ir]];
    if (rt.start < steps[is].start) {
      ++ir; // before (or straddling the start of) this step
    } else if (rt.end <= steps[is].end) {
      for (size_t d : l.launched[rts[ir]]) {
        dmin = std::min(dmin, t.events[d].start);
        dmax = std::max(dmax, t.events[d].end);
        is_matched[d] = 1;
        ++matched[is];
      }
      ++ir;
    } else if (rt.start < steps[is].end) {
      ++ir; // straddles the step's end
    } else {
      dev[is++] = {dmin, dmax};
      dmin = inf;
      dmax = -inf;
    }
  }
  while (is < steps.size()) {
    dev[is++] = {dmin, dmax};
    dmin = inf;
    dmax = -inf;
  }
  ov.has_device = std::any_of(matched.begin(), matched.end(), [](int m) { return m > 0; });
  if (!ov.has_device)
    return;
  double prev_end = steps[0].start;
  if (dev[0].first != inf) {
    for (size_t d : l.devices)
      if (!is_matched[d] && t.events[d].end < dev[0].first)
        prev_end = std::max(prev_end, t.events[d].end);
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    double s = std::max(prev_end, steps[i].start);
    double e = steps[i].end;
    e = dev[i].first == inf ? std::max(e, s) : std::max({e, dev[i].second, s});
    steps[i].start = s;
    steps[i].end = e;
    prev_end = e;
  }
  if (steps.size() > 1) {
    int last = static_cast<int>(steps.size()) - 1;
    while (last >= 0 && matched[last] == 0)
      --last;
    if (last >= 0) {
      size_t keep = last + 1;
      if (last > 0 && matched[last - 1] * 0.8 > matched[last])
        keep = last;
      ov.dropped_tail_steps = static_cast<int>(steps.size() - keep);
      steps.resize(keep);
    }
  }
}

void recommend(Overview &ov) {
  using K = Recommendation::Kind;
  const StepTimes &a = ov.average;
  if (a.total <= 0)
    return;
  if (a.dataloader / a.total > 0.05)
    ov.recommendations.push_back({K::dataloader, a.dataloader / a.total});
  if (a.communication / a.total > 0.10)
    ov.recommendations.push_back({K::communication, a.communication / a.total});
  if (ov.has_device && ov.gpu_utilization < 0.5)
    ov.recommendations.push_back({K::gpu_utilization, ov.gpu_utilization});
}

} // namespace

const std::vector<std::string> &role_names() {
  static const std::vector<std::string> n = {"Kernel",  "Memcpy",     "Memset",   "Communication",
                                             "Runtime", "DataLoader", "CPU Exec", "Other"};
  return n;
}

std::vector<double> role_values(const StepTimes &s) {
  return {s.kernel,  s.memcpy,     s.memset,   s.communication,
          s.runtime, s.dataloader, s.cpu_exec, s.other};
}

Overview compute_overview(const Trace &t, const Links &l) {
  Overview ov;
  std::unordered_set<int64_t> comm_ids;
  for (const TraceEvent &e : t.events)
    if (e.is_host_op() && is_communication_op(e.name))
      comm_ids.insert(e.external_id);

  Ranges roles[kRoles];
  std::vector<Step> steps;
  double host_min = std::numeric_limits<double>::infinity(), host_max = -host_min;
  for (const TraceEvent &e : t.events) {
    Range r{e.start, e.end};
    switch (e.kind) {
    case EventKind::kernel:
      roles[comm_ids.count(e.external_id) ? kComm : kKernel].push_back(r);
      break;
    case EventKind::memcpy:
      roles[kMemcpy].push_back(r);
      break;
    case EventKind::memset:
      roles[kMemset].push_back(r);
      break;
    case EventKind::runtime:
      roles[kRuntime].push_back(r);
      break;
    case EventKind::profiler_step:
      steps.push_back({e.start, e.end, std::to_string(e.step)});
      break;
    case EventKind::op:
    case EventKind::user_annotation:
    case EventKind::python:
      if (e.kind != EventKind::python && is_dataloader(e)) {
        roles[kDataLoader].push_back(r);
      } else {
        roles[is_communication_op(e.name) ? kComm : kCpuExec].push_back(r);
      }
      break;
    default:
      break;
    }
    if (e.kind == EventKind::op || e.kind == EventKind::python ||
        e.kind == EventKind::profiler_step) {
      host_min = std::min(host_min, e.start);
      host_max = std::max(host_max, e.end);
    }
  }
  if (steps.empty() && host_min <= host_max)
    steps.push_back({host_min, host_max, "0"});
  if (steps.empty())
    return ov;
  std::stable_sort(steps.begin(), steps.end(),
                   [](const Step &a, const Step &b) { return a.start < b.start; });
  consider_device_side(t, l, steps, ov);

  // Claim time role by role, in priority order; what is left of the steps is "Other".
  Ranges all_steps;
  for (const Step &s : steps)
    all_steps.push_back({s.start, s.end});
  Ranges slots = merge_ranges(all_steps);
  Ranges claimed[kRoles + 1];
  for (int r = 0; r < kRoles; ++r) {
    Ranges role = merge_ranges(std::move(roles[r]));
    claimed[r] = r == 0 ? role : intersect_ranges(slots, role);
    slots = subtract_ranges(slots, claimed[r]);
  }
  claimed[kRoles] = slots;

  StepTimes sum;
  sum.step = "average";
  for (const Step &s : steps) {
    Ranges span{{s.start, s.end}};
    double v[kRoles + 1];
    for (int r = 0; r <= kRoles; ++r)
      v[r] = ranges_sum(intersect_ranges(span, claimed[r]));
    StepTimes st{s.name, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], s.end - s.start};
    sum.kernel += st.kernel;
    sum.memcpy += st.memcpy;
    sum.memset += st.memset;
    sum.communication += st.communication;
    sum.runtime += st.runtime;
    sum.dataloader += st.dataloader;
    sum.cpu_exec += st.cpu_exec;
    sum.other += st.other;
    sum.total += st.total;
    ov.steps.push_back(st);
  }
  double n = static_cast<double>(ov.steps.size());
  ov.average = StepTimes{
      "average",       sum.kernel / n,     sum.memcpy / n,   sum.memset / n, sum.communication / n,
      sum.runtime / n, sum.dataloader / n, sum.cpu_exec / n, sum.other / n,  sum.total / n};
  ov.gpu_utilization = ov.average.total > 0 ? ov.average.kernel / ov.average.total : 0;
  recommend(ov);
  return ov;
}

} // namespace perfmodel::trace
