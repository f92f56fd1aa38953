// Sorting and top-N selection of the trace views' rows.
#include <algorithm>
#include <functional>

#include "perfmodel/report/trace/trace_report.hpp"

namespace perfmodel::report {
namespace {

template <class Row> using Key = std::function<bool(const Row &, const Row &)>;

template <class Row, class Num> Key<Row> desc(Num (*f)(const Row &)) {
  return [f](const Row &a, const Row &b) { return f(a) > f(b); };
}

template <class Row>
bool apply(std::vector<Row> &rows, const std::vector<std::pair<std::string, Key<Row>>> &keys,
           const std::string &key, size_t top) {
  bool found = false;
  Key<Row> cmp = keys.front().second;
  for (const auto &[name, k] : keys)
    if (name == key) {
      cmp = k;
      found = true;
    }
  std::stable_sort(rows.begin(), rows.end(), cmp);
  if (top > 0 && rows.size() > top)
    rows.resize(top);
  return found;
}

using trace::AttainmentRow;
using trace::KernelRow;
using trace::OperatorRow;

const std::vector<std::pair<std::string, Key<OperatorRow>>> &op_keys() {
  static const std::vector<std::pair<std::string, Key<OperatorRow>>> k = {
      {"device_self",
       desc<OperatorRow, double>([](const OperatorRow &r) { return r.device_self; })},
      {"device_total",
       desc<OperatorRow, double>([](const OperatorRow &r) { return r.device_total; })},
      {"host_self", desc<OperatorRow, double>([](const OperatorRow &r) { return r.host_self; })},
      {"host_total", desc<OperatorRow, double>([](const OperatorRow &r) { return r.host_total; })},
      {"calls", desc<OperatorRow, int64_t>([](const OperatorRow &r) { return r.calls; })},
      {"name", [](const OperatorRow &a, const OperatorRow &b) { return a.name < b.name; }}};
  return k;
}

const std::vector<std::pair<std::string, Key<KernelRow>>> &kernel_keys() {
  static const std::vector<std::pair<std::string, Key<KernelRow>>> k = {
      {"total", desc<KernelRow, double>([](const KernelRow &r) { return r.total; })},
      {"mean", desc<KernelRow, double>([](const KernelRow &r) { return r.mean; })},
      {"max", desc<KernelRow, double>([](const KernelRow &r) { return r.max; })},
      {"min", desc<KernelRow, double>([](const KernelRow &r) { return r.min; })},
      {"calls", desc<KernelRow, int64_t>([](const KernelRow &r) { return r.calls; })},
      {"name", [](const KernelRow &a, const KernelRow &b) { return a.name < b.name; }}};
  return k;
}

const std::vector<std::pair<std::string, Key<AttainmentRow>>> &eff_keys() {
  using R = AttainmentRow;
  static const std::vector<std::pair<std::string, Key<R>>> k = {
      {"time_lost", desc<R, double>([](const R &r) { return r.time_lost(); })},
      {"device", desc<R, double>([](const R &r) { return r.device_seconds; })},
      {"roofline", desc<R, double>([](const R &r) { return r.roofline_seconds; })},
      {"fraction",
       [](const R &a, const R &b) {
         return a.fraction_of_roofline() < b.fraction_of_roofline(); // worst first
       }},
      {"flops", desc<R, double>([](const R &r) { return r.flops; })},
      {"bytes", desc<R, double>([](const R &r) { return r.bytes; })},
      {"calls", desc<R, int64_t>([](const R &r) { return r.calls; })},
      {"name", [](const R &a, const R &b) { return a.name < b.name; }}};
  return k;
}

template <class Row>
std::vector<std::string> names(const std::vector<std::pair<std::string, Key<Row>>> &keys) {
  std::vector<std::string> n;
  for (const auto &k : keys)
    n.push_back(k.first);
  return n;
}

} // namespace

const std::vector<std::string> &operator_sort_keys() {
  static const std::vector<std::string> n = names(op_keys());
  return n;
}
const std::vector<std::string> &kernel_sort_keys() {
  static const std::vector<std::string> n = names(kernel_keys());
  return n;
}
const std::vector<std::string> &attainment_sort_keys() {
  static const std::vector<std::string> n = names(eff_keys());
  return n;
}

bool sort_and_limit(TraceReport &r, const std::string &key, size_t top) {
  bool found = key.empty();
  if (r.operators)
    found |= apply(*r.operators, op_keys(), key, top);
  if (r.kernels)
    found |= apply(*r.kernels, kernel_keys(), key, top);
  if (r.attainment) {
    const bool sorted = apply(r.attainment->rows, eff_keys(), key, top);
    r.attainment_order = sorted ? key : attainment_sort_keys().front();
    found |= sorted;
    auto &s = r.attainment->summary;
    auto &u = r.attainment->unattributed;
    if (top > 0 && s.size() > top)
      s.resize(top);
    if (top > 0 && u.size() > top)
      u.resize(top);
  }
  if (r.cross_device && top > 0) { // ordered by predicted time; --top keeps the largest
    auto &c = *r.cross_device;
    if (c.rows.size() > top)
      c.rows.resize(top);
    if (c.summary.size() > top)
      c.summary.resize(top);
    if (c.unmapped.size() > top)
      c.unmapped.resize(top);
  }
  return found;
}

} // namespace perfmodel::report
