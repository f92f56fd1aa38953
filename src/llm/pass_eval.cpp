// A pass predicted on one block of each kind, its decode steps re-costed where the KV length
// reaches (perfmodel/llm/pass_eval.hpp).
#include "perfmodel/llm/pass_eval.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace perfmodel::llm {

int64_t reduced_layers(const LlmConfig &c) {
  int64_t first[2] = {-1, -1}; // the first dense and the first MoE block
  for (int64_t i = 0; i < c.layers && (first[0] < 0 || first[1] < 0); ++i)
    if (first[c.moe_layer(i)] < 0)
      first[c.moe_layer(i)] = i;
  return std::max({first[0], first[1], int64_t{0}}) + 1;
}

namespace {

// The block index of a layer named "layers.N....", or -1.
int64_t block_of(std::string_view name) {
  constexpr std::string_view prefix = "layers.";
  if (name.substr(0, prefix.size()) != prefix)
    return -1;
  int64_t n = 0;
  size_t i = prefix.size();
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i)
    n = 10 * n + (name[i] - '0');
  return i > prefix.size() && i < name.size() && name[i] == '.' ? n : -1;
}

} // namespace

std::vector<uint32_t> whole_order(const Graph &reduced, const LlmConfig &c) {
  const int64_t r = reduced_layers(c);
  std::vector<size_t> begin(size_t(r), 0), end(size_t(r), 0);
  const size_t n = reduced.layers.size();
  size_t i = 0;
  while (i < n && block_of(reduced.layers[i].name) < 0)
    ++i;
  for (int64_t j = 0; j < r; ++j) { // block j: the run of "layers.j." layers
    begin[size_t(j)] = i;
    while (i < n && block_of(reduced.layers[i].name) == j)
      ++i;
    end[size_t(j)] = i;
    if (end[size_t(j)] == begin[size_t(j)])
      throw std::logic_error("whole_order: block " + std::to_string(j) + " is not contiguous");
  }
  for (size_t k = i; k < n; ++k)
    if (block_of(reduced.layers[k].name) >= 0)
      throw std::logic_error("whole_order: a block layer after the last block");
  // each block of the model as the first of its kind in the reduced graph
  int64_t rep[2] = {-1, -1};
  for (int64_t j = 0; j < r; ++j)
    if (rep[c.moe_layer(j)] < 0)
      rep[c.moe_layer(j)] = j;
  std::vector<uint32_t> order;
  order.reserve(begin[0] + size_t(c.layers) * (end[0] - begin[0]) + (n - i));
  for (size_t k = 0; k < begin[0]; ++k)
    order.push_back(uint32_t(k));
  for (int64_t b = 0; b < c.layers; ++b) {
    const size_t j = size_t(rep[c.moe_layer(b)]);
    for (size_t k = begin[j]; k < end[j]; ++k)
      order.push_back(uint32_t(k));
  }
  for (size_t k = i; k < n; ++k)
    order.push_back(uint32_t(k));
  return order;
}

namespace {

// Whether layers a and b of g cost the same at every KV length: the same op, attributes and
// data type, no parameters and no fusion, and tensors of the same shapes and types that the
// decode context resizes in the same dimension (`resized`: a tensor's resized dimension).
bool same_cost(const Graph &g, const Layer &a, const Layer &b,
               const std::unordered_map<const TensorDesc *, size_t> &resized) {
  if (a.op != b.op || a.op_name != b.op_name || a.activation != b.activation ||
      a.dtype != b.dtype || !a.params.empty() || !b.params.empty() || !a.fused.empty() ||
      !b.fused.empty() || a.inputs.size() != b.inputs.size() ||
      a.outputs.size() != b.outputs.size() || a.attrs.all() != b.attrs.all())
    return false;
  auto same_tensors = [&](const std::vector<std::string> &x, const std::vector<std::string> &y) {
    for (size_t k = 0; k < x.size(); ++k) {
      const TensorDesc &tx = g.tensor(x[k]), &ty = g.tensor(y[k]);
      const auto rx = resized.find(&tx), ry = resized.find(&ty);
      if (tx.shape != ty.shape || tx.dtype != ty.dtype || tx.buffer != ty.buffer ||
          (rx == resized.end()) != (ry == resized.end()) ||
          (rx != resized.end() && rx->second != ry->second))
        return false;
    }
    return true;
  };
  return same_tensors(a.inputs, b.inputs) && same_tensors(a.outputs, b.outputs);
}

} // namespace

PassEval::PassEval(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o, const PassShape &s,
                   bool whole)
    : config_(c), hw_(&hw), options_(o), shape_(s) {
  if (!whole && o.calibration)
    throw std::logic_error("PassEval: a calibrated pass needs the whole graph");
  if (!whole)
    config_.layers = reduced_layers(c);
  predict_options_.calibration = o.calibration;
  graph_ = std::make_shared<Graph>(build_graph(config_, s, o.dtype, o.kv_dtype));
  if (!whole)
    order_ = whole_order(*graph_, c);
  costs_ = pass_costs(*graph_, config_, s, o.attention);
  if (o.weights)
    apply_weight_format(*graph_, o.dtype, *o.weights, costs_);
  if (s.phase == Phase::decode) {
    context_.emplace(*graph_, config_);
    std::unordered_map<const TensorDesc *, size_t> resized;
    for (const DecodeContext::Resized &t : context_->resized())
      resized.emplace(t.tensor, t.dim);
    for (size_t i = 0; i < graph_->layers.size(); ++i) {
      const Layer &l = graph_->layers[i];
      bool follows = l.attrs.get_string("llm_rule", "").rfind("attn_", 0) == 0;
      for (const auto *names : {&l.inputs, &l.outputs})
        for (const std::string &t : *names)
          follows = follows || resized.count(&graph_->tensor(t));
      if (!follows)
        continue;
      if (quantized_layer(l)) // (its weight format would have to be applied again)
        throw std::logic_error("PassEval: layer '" + l.name +
                               "' follows the KV length and holds quantised weights");
      Group *group = nullptr;
      for (Group &gr : groups_)
        if (same_cost(*graph_, graph_->layers[gr.first], l, resized))
          group = &gr;
      if (!group)
        group = &groups_.emplace_back(Group{i, {}});
      group->layers.push_back(i);
    }
  }
  prediction_ = predict(*graph_, hw, predict_options_, costs_);
  sum();
}

void PassEval::set_context(int64_t context) {
  if (!context_)
    throw std::logic_error("PassEval::set_context: not a decode pass");
  context_->set(context);
  shape_.context = context;
  for (const Group &gr : groups_) {
    const LayerCost cost = pass_layer_cost(*graph_, gr.first, config_, shape_, options_.attention);
    for (size_t i : gr.layers)
      costs_[i] = cost;
    if (options_.calibration)
      continue;
    const LayerPrediction lp =
        roofline_layer(*hw_, graph_->layers[gr.first], cost, prediction_.power_watts);
    for (size_t i : gr.layers) { // what predict() gives layer i (its cost and tensors are equal)
      LayerPrediction &to = prediction_.layers[i];
      to.cost = lp.cost;
      to.timing = lp.timing;
      to.energy_joules = lp.energy_joules;
      to.energy_power_time_joules = lp.energy_power_time_joules;
    }
  }
  if (options_.calibration) { // the schedule follows every layer: the whole prediction again
    prediction_ = predict(*graph_, *hw_, predict_options_, costs_);
  } else if (order_.empty()) { // what predict() sums
    prediction_.totals =
        sum_totals(prediction_.layers, false, predict_options_, prediction_.power_watts);
    prediction_.gemm_totals =
        sum_totals(prediction_.layers, true, predict_options_, prediction_.power_watts);
  }
  sum();
}

void PassEval::sum() {
  if (order_.empty()) {
    totals_ = prediction_.totals;
    seconds_ = prediction_.pass_seconds();
    return;
  }
  totals_ =
      sum_totals(prediction_.layers, order_, false, predict_options_, prediction_.power_watts);
  seconds_ = totals_.predicted_seconds;
}

int64_t PassEval::weight_bytes(DType dtype, const WeightFormat &f) const {
  if (order_.empty())
    return llm::weight_bytes(*graph_, dtype, f);
  int64_t b = 0;
  for (uint32_t i : order_)
    b += layer_weight_bytes(graph_->layers[i], dtype, f);
  return b;
}

PassPrediction PassEval::release() {
  if (!order_.empty())
    throw std::logic_error("PassEval::release: the pass holds one block of each kind");
  context_.reset();
  return PassPrediction{std::move(graph_), std::move(prediction_)};
}

} // namespace perfmodel::llm
