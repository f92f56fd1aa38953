// The `reuse` memory plan (perfmodel/targets/cpu_eigen/buffer_plan.hpp) is the one the executor
// runs: the same tensors share a buffer, on the calibration networks and shipped models with views,
// concats, residual adds and multi-reader tensors (the executor's results under it are checked
// against a buffer per tensor in test/kernels/buffer_pool_test.cpp).
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "perfmodel/calibrate/calibration_networks.hpp"
#include "perfmodel/io/model_yaml.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/kernels/cpu/executor.hpp"
#include "perfmodel/targets/cpu_eigen/buffer_plan.hpp"

using namespace perfmodel;

namespace {

void check_plans_agree(const Graph &g) {
  const BufferAssignment plan = plan_reused_buffers(g);
  kernels::cpu::Executor ex(g, 1, kernels::cpu::BufferPlan::reuse);
  std::set<std::string> graph_inputs;
  for (const auto &in : g.inputs)
    graph_inputs.insert(in.name);
  std::map<const void *, int> id_of_pointer; // executor buffer -> the plan's id seen with it
  std::map<int, const void *> pointer_of_id;
  int pooled = 0;
  for (const Layer &l : g.layers)
    for (const std::string &o : l.outputs) {
      const void *ptr = ex.tensor(o).data.get();
      const auto it = plan.buffer_of.find(o);
      if (it == plan.buffer_of.end())
        continue; // not pooled in the plan (a constant, or a view of a graph input)
      ++pooled;
      CAPTURE(g.name);
      CAPTURE(o);
      const auto [p, fresh_p] = id_of_pointer.emplace(ptr, it->second);
      const auto [q, fresh_q] = pointer_of_id.emplace(it->second, ptr);
      CHECK(p->second == it->second); // the executor's buffer holds what the plan says
      CHECK(q->second == ptr);
      CHECK(plan.capacity.at(size_t(it->second)) >= size_t(ex.tensor(o).size()));
    }
  CHECK(pooled > 0);
  size_t planned = 0;
  for (size_t c : plan.capacity)
    planned += c;
  CHECK(sizeof(float) * planned == ex.activation_bytes());
}

} // namespace

TEST_CASE("the model's buffer plan is the executor's, on the calibration networks") {
  for (const Graph &g : calibrate::calibration_networks())
    check_plans_agree(g);
}

TEST_CASE("the model's buffer plan is the executor's, on shipped models") {
  for (const char *name : {"nin", "resnet18", "squeezenet1_1", "googlenet", "mobilenet_v2"}) {
    io::ModelLoadOptions o;
    const Graph g = io::read_model_yaml(io::resolve_resource(name, "models", {".yaml"}), o);
    check_plans_agree(g);
  }
}

TEST_CASE("pick_free_buffer: the latest that fits within 2x, else the smallest that fits") {
  CHECK(pick_free_buffer({}, 10) == size_t(-1));
  CHECK(pick_free_buffer({5, 8}, 10) == size_t(-1));
  CHECK(pick_free_buffer({12, 15, 100}, 10) == 1); // the later of the two within 2x
  CHECK(pick_free_buffer({100, 50, 30}, 10) == 2); // none within 2x: the smallest
  CHECK(pick_free_buffer({100, 15, 30}, 10) == 1);
}
