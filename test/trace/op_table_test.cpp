// Tests of the operator and kernel views: the hand-made trace and the plugin's expected tables.
#include "perfmodel/trace/op_table.hpp"

#include <doctest/doctest.h>

#include "../test_approx.hpp"
#include "trace_fixtures.hpp"

using namespace perfmodel;
using namespace perfmodel::test;

TEST_CASE("operator table of the hand-made trace") {
  LoadedTrace t = load_test_trace("tiny.json");
  auto ops = trace::operator_table(t.trace, t.tree);
  // ProfilerStep#N and the DataLoader iteration are not operators; the nested aten::relu is
  // merged into its parent (one call).
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].name == "aten::relu");
  CHECK(ops[0].calls == 1);
  CHECK(ops[0].device_self == rel(60e-6));
  CHECK(ops[0].device_total == rel(60e-6));
  CHECK(ops[0].host_total == rel(30e-6));
  CHECK(ops[0].host_self == rel(20e-6)); // minus its runtime call (10 us)
  CHECK(ops[1].name == "aten::copy_");
  CHECK(ops[1].device_self == rel(10e-6)); // the memcpy counts as device time
  CHECK(ops[1].host_self == rel(5e-6));
}

TEST_CASE("kernel table of the hand-made trace") {
  LoadedTrace t = load_test_trace("tiny.json");
  auto ks = trace::kernel_table(t.trace);
  REQUIRE(ks.size() == 3);
  CHECK(ks[0].name == "relu_kernel");
  CHECK(ks[0].total == rel(60e-6));
  CHECK(ks[2].name == "orphan_kernel");
  CHECK(ks[2].min == rel(5e-6));
}

namespace {

void check_operators(int workers) {
  const LoadedTrace &t = shared_trace(workers);
  auto ops = trace::operator_table(t.trace, t.tree);
  const nlohmann::json &exp = expected(workers, 2);
  REQUIRE(ops.size() == exp.size());
  std::map<std::string, const trace::OperatorRow *> by_name;
  for (const auto &o : ops)
    by_name[o.name] = &o;
  for (const auto &e : exp) {
    const std::string name = e["name"];
    CAPTURE(name);
    REQUIRE(by_name.count(name));
    const trace::OperatorRow &o = *by_name[name];
    CHECK(o.calls == e["calls"].get<int64_t>());
    CHECK(close_us(o.device_self, e["device_self_duration"].get<double>()));
    CHECK(close_us(o.device_total, e["device_total_duration"].get<double>()));
    CHECK(close_us(o.host_self, e["host_self_duration"].get<double>()));
    CHECK(close_us(o.host_total, e["host_total_duration"].get<double>()));
  }
}

void check_kernels(int workers) {
  const LoadedTrace &t = shared_trace(workers);
  auto ks = trace::kernel_table(t.trace);
  const nlohmann::json &rows = expected(workers, 3)["data"]["rows"];
  REQUIRE(ks.size() == rows.size());
  std::map<std::string, const trace::KernelRow *> by_name;
  for (const auto &k : ks)
    by_name[k.name] = &k;
  for (const auto &r : rows) {
    const std::string name = r[0];
    CAPTURE(name);
    REQUIRE(by_name.count(name));
    const trace::KernelRow &k = *by_name[name];
    CHECK(k.calls == r[1].get<int64_t>());
    CHECK(close_us(k.total, r[2].get<double>()));
    CHECK(close_us(k.mean, r[3].get<double>()));
    CHECK(close_us(k.max, r[4].get<double>()));
    CHECK(close_us(k.min, r[5].get<double>()));
  }
  // Sorted by total time, as the plugin's table.
  for (size_t i = 1; i < ks.size(); ++i)
    CHECK(ks[i - 1].total >= ks[i].total);
}

} // namespace

TEST_CASE("operator table equals the TensorBoard plugin on resnet50 num_workers=0") {
  check_operators(0);
}
TEST_CASE("operator table equals the TensorBoard plugin on resnet50 num_workers=4") {
  check_operators(4);
}
TEST_CASE("kernel table equals the TensorBoard plugin on resnet50 num_workers=0") {
  check_kernels(0);
}
TEST_CASE("kernel table equals the TensorBoard plugin on resnet50 num_workers=4") {
  check_kernels(4);
}
