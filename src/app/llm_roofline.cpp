// The roofline of a language model's passes (perfmodel/app/llm_roofline.hpp).
#include "perfmodel/app/llm_roofline.hpp"

#include <filesystem>
#include <memory>

#include "perfmodel/error.hpp"
#include "perfmodel/io/calibration_for.hpp"
#include "perfmodel/io/resources.hpp"
#include "perfmodel/llm/config.hpp"
#include "perfmodel/nearest_name.hpp"
#include "perfmodel/predict.hpp"

namespace perfmodel::app {

namespace {

bool ends_with(const std::string &s, const std::string &e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// A pass predicted as `llm` predicts it: the language-model costs, the weight format applied.
struct Pass1 {
  std::shared_ptr<const Graph> graph;
  std::vector<LayerCost> costs;
  Prediction prediction;
};

Pass1 predict_pass(const llm::LlmConfig &c, const HwSpec &hw, const LlmRooflineRequest &r,
                   const llm::PassShape &s, const Calibration *cal) {
  Pass1 p;
  p.graph = std::make_shared<const Graph>(llm::build_graph(c, s, r.dtype, r.kv_dtype));
  p.costs = llm::pass_costs(*p.graph, c, s, r.attention);
  if (r.weights)
    llm::apply_weight_format(*p.graph, r.dtype, *r.weights, p.costs);
  PredictOptions po;
  po.calibration = cal;
  p.prediction = predict(*p.graph, hw, po, p.costs);
  return p;
}

} // namespace

bool is_llm_model(const std::string &spec) {
  if (ends_with(spec, ".json"))
    return true;
  if (spec.find('/') != std::string::npos || std::filesystem::exists(spec))
    return false;
  for (const io::Resource &m : io::find_resources("models", {".yaml", ".yml", ".onnx"}))
    if (iequals(m.name, spec))
      return false; // a graph model of that name comes first
  for (const io::Resource &m : io::find_resources("models/llm", {".json"}))
    if (iequals(m.name, spec))
      return true;
  return false;
}

LlmRooflineRun llm_roofline(const std::string &model, const HwSpec &hw,
                            const LlmRooflineRequest &r) {
  const llm::LlmConfig c = llm::read_llm_config(llm::resolve_llm_config(model));
  if (r.prompt == 0 && r.kv == 0)
    throw InputError("the roofline of a language model (" + c.name +
                     ") needs --prompt P (the prefill of P tokens) and/or --kv L (one decode "
                     "step at KV length L)");
  if (r.batch < 1)
    throw InputError("--batch must be at least 1, not " + std::to_string(r.batch));
  for (auto [opt, n] : {std::pair{"--prompt", r.prompt}, {"--kv", r.kv}})
    if (n < 0)
      throw InputError(std::string(opt) + " must be at least 1, not " + std::to_string(n));
  // prefill runs positions 0 ... P-1; the decode step at KV length L runs position L
  if (r.prompt > c.max_positions)
    throw InputError("--prompt " + std::to_string(r.prompt) + ": the prefill runs position " +
                     std::to_string(r.prompt - 1) + ", beyond the model's " +
                     "max_position_embeddings (" + std::to_string(c.max_positions) + ")");
  if (r.kv + 1 > c.max_positions)
    throw InputError("--kv " + std::to_string(r.kv) + ": the decode step runs position " +
                     std::to_string(r.kv) + ", beyond the model's max_position_embeddings (" +
                     std::to_string(c.max_positions) + ")");
  std::optional<Calibration> cal;
  if (!r.calibration.empty())
    cal = io::load_calibration_for(r.calibration, hw, r.calibration_other_hardware);

  std::vector<std::pair<report::RooflinePhase, Pass1>> passes;
  if (r.prompt > 0)
    passes.push_back({{"prefill", r.prompt, 0, 0},
                      predict_pass(c, hw, r, {llm::Phase::prefill, r.batch, r.prompt, 0},
                                   cal ? &*cal : nullptr)});
  if (r.kv > 0)
    passes.push_back(
        {{"decode", 1, r.kv, 0},
         predict_pass(c, hw, r, {llm::Phase::decode, r.batch, 1, r.kv}, cal ? &*cal : nullptr)});
  LlmRooflineRun run;
  std::vector<std::pair<report::RooflinePhase, const Prediction *>> shown;
  for (const auto &[phase, p] : passes) {
    shown.push_back({phase, &p.prediction});
    if (cal)
      for (ExtrapolatedCall &x : extrapolated_calls(*cal, *p.graph, p.costs, Pass::fwd))
        run.extrapolated.push_back(std::move(x));
  }
  run.data = report::make_phase_roofline(shown, hw);
  run.data.model = c.name; // the passes' graphs are named after their phase
  return run;
}

} // namespace perfmodel::app
