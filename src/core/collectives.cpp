// Collective communication time (include/perfmodel/collectives.hpp, docs/parallel.md).
#include "perfmodel/collectives.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "perfmodel/error.hpp"

namespace perfmodel {

std::string_view to_string(Collective c) {
  switch (c) {
  case Collective::all_reduce:
    return "all_reduce";
  case Collective::reduce_scatter:
    return "reduce_scatter";
  case Collective::all_gather:
    return "all_gather";
  case Collective::all_to_all:
    return "all_to_all";
  case Collective::send_recv:
    return "send_recv";
  }
  return "?";
}

std::optional<Collective> parse_collective(std::string_view s) {
  std::string k;
  for (char ch : s)
    if (ch != '_' && ch != '-')
      k += char(std::tolower(static_cast<unsigned char>(ch)));
  if (k.size() > 4 && k.compare(k.size() - 4, 4, "perf") == 0)
    k.resize(k.size() - 4);
  if (k == "allreduce")
    return Collective::all_reduce;
  if (k == "reducescatter")
    return Collective::reduce_scatter;
  if (k == "allgather")
    return Collective::all_gather;
  if (k == "alltoall")
    return Collective::all_to_all;
  if (k == "sendrecv")
    return Collective::send_recv;
  return std::nullopt;
}

std::string_view to_string(Algorithm a) {
  switch (a) {
  case Algorithm::ring:
    return "ring";
  case Algorithm::tree:
    return "tree";
  case Algorithm::best:
    return "best";
  }
  return "?";
}

double bus_factor(Collective c, int64_t n) {
  const double d = double(n);
  switch (c) {
  case Collective::all_reduce:
    return 2 * (d - 1) / d;
  case Collective::reduce_scatter:
  case Collective::all_gather:
  case Collective::all_to_all:
    return (d - 1) / d;
  case Collective::send_recv:
    return 1;
  }
  return 1;
}

int64_t ring_steps(Collective c, int64_t n) {
  if (n <= 1)
    return 0;
  switch (c) {
  case Collective::all_reduce:
    return 2 * (n - 1);
  case Collective::reduce_scatter:
  case Collective::all_gather:
    return n - 1;
  case Collective::all_to_all:
  case Collective::send_recv:
    return 1;
  }
  return 1;
}

namespace {

double tree_seconds(int64_t n, double bytes, double alpha, double bw) {
  const double depth = std::ceil(std::log2(double(n)));
  return 2 * depth * alpha + 2 * bytes / bw;
}

double ring_seconds(Collective c, int64_t n, double bytes, double alpha, double bw) {
  return double(ring_steps(c, n)) * alpha + bus_factor(c, n) * bytes / bw;
}

// One flat level's figures for collective c: the fit when the calibration names this level and
// has c, the spec's link otherwise.
struct Rate {
  double alpha, bw;
  bool fitted;
};

Rate rate_of(const LinkLevel &l, Collective c, const CommCalibration *cal) {
  if (cal && cal->level == l.name) {
    const auto it = cal->fits.find(c);
    if (it != cal->fits.end())
      return {it->second.latency_per_step_seconds, it->second.bus_bytes_per_second, true};
  }
  return {l.latency_seconds, l.bytes_per_second, false};
}

// A flat collective at one level: fitted figures run the ring form (the measured time already
// holds whatever algorithm the library chose).
double flat_at(const LinkLevel &l, Collective c, Algorithm a, int64_t n, double bytes,
               const CommCalibration *cal, CommCost &out) {
  const Rate r = rate_of(l, c, cal);
  out.calibrated = out.calibrated || r.fitted;
  if (r.fitted || c != Collective::all_reduce || a == Algorithm::ring || n <= 2) {
    out.algorithm = Algorithm::ring;
    return ring_seconds(c, n, bytes, r.alpha, r.bw);
  }
  const double tree = tree_seconds(n, bytes, r.alpha, r.bw);
  const double ring = ring_seconds(c, n, bytes, r.alpha, r.bw);
  const bool take_tree = a == Algorithm::tree || (a == Algorithm::best && tree < ring);
  out.algorithm = take_tree ? Algorithm::tree : Algorithm::ring;
  return take_tree ? tree : ring;
}

const LinkLevel &level_holding(const Interconnect &ic, int64_t devices, int64_t group_size) {
  const LinkLevel *l = ic.level_for(devices);
  if (!l) {
    if (ic.empty())
      throw InputError("a group of " + std::to_string(group_size) +
                       " devices needs links between them, and the hardware spec has no "
                       "'interconnect' section");
    throw InputError("a group of " + std::to_string(group_size) + " devices reaches over " +
                     std::to_string(devices) +
                     " devices, beyond the interconnect's outermost "
                     "level ('" +
                     ic.levels.back().name + "', " + std::to_string(ic.levels.back().devices) +
                     " devices): the hardware spec needs a network level");
  }
  return *l;
}

} // namespace

double flat_seconds(Collective c, Algorithm a, int64_t n, double bytes, double alpha, double bw) {
  if (n <= 1)
    return 0;
  if (c == Collective::all_reduce && a == Algorithm::tree)
    return tree_seconds(n, bytes, alpha, bw);
  if (c == Collective::all_reduce && a == Algorithm::best)
    return std::min(tree_seconds(n, bytes, alpha, bw), ring_seconds(c, n, bytes, alpha, bw));
  return ring_seconds(c, n, bytes, alpha, bw);
}

CommCost collective_seconds(Collective c, double bytes, const Group &g, const Interconnect &ic,
                            const CommCalibration *cal, Algorithm a) {
  CommCost out;
  if (g.size < 1 || g.per_node < 1 || g.per_node > g.size || g.size % g.per_node != 0)
    throw InputError("a group of " + std::to_string(g.size) + " devices cannot sit " +
                     std::to_string(g.per_node) + " to a node");
  if (g.size == 1)
    return out;
  const int64_t m = g.per_node, nodes = g.size / m;
  // the span: devices from the first to the last member, per_node to a node
  const int64_t span = nodes == 1 ? m : nodes * ic.node_devices();
  const LinkLevel &outer = level_holding(ic, span, g.size);
  out.level = outer.name;
  if (nodes == 1) {
    out.seconds = flat_at(outer, c, a, g.size, bytes, cal, out);
    return out;
  }
  const LinkLevel &inner = level_holding(ic, m, g.size);
  CommCost in_cost; // the in-node parts' algorithm is not reported
  const double shard = bytes / double(m);
  switch (c) {
  case Collective::all_reduce:
    out.seconds = flat_at(inner, Collective::reduce_scatter, a, m, bytes, cal, in_cost) +
                  flat_at(outer, Collective::all_reduce, a, nodes, shard, cal, out) +
                  flat_at(inner, Collective::all_gather, a, m, bytes, cal, in_cost);
    break;
  case Collective::reduce_scatter:
  case Collective::all_gather:
    out.seconds =
        flat_at(inner, c, a, m, bytes, cal, in_cost) + flat_at(outer, c, a, nodes, shard, cal, out);
    break;
  case Collective::all_to_all: {
    // each device sends bytes / size to every other: (m - 1) of those shares stay in the node,
    // size - m leave it, both at once
    const Rate ri = rate_of(inner, c, cal), ro = rate_of(outer, c, cal);
    const double n = double(g.size);
    const double tin = m > 1 ? ri.alpha + double(m - 1) / n * bytes / ri.bw : 0;
    const double tout = ro.alpha + double(g.size - m) / n * bytes / ro.bw;
    out.calibrated = ri.fitted || ro.fitted;
    out.seconds = std::max(tin, tout);
    break;
  }
  case Collective::send_recv:
    out.seconds = flat_at(outer, c, a, 2, bytes, cal, out);
    break;
  }
  out.calibrated = out.calibrated || in_cost.calibrated;
  return out;
}

} // namespace perfmodel
