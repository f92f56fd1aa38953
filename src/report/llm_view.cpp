// The `llm` view (docs/cli/llm.md; fields in docs/formats.md, "LLM").
#include "perfmodel/report/llm_view.hpp"

#include <nlohmann/json.hpp>

#include "perfmodel/assumed_execution.hpp"
#include "perfmodel/report/json_text.hpp"
#include "perfmodel/report/prediction_view.hpp"
#include "perfmodel/report/text_table.hpp"

namespace perfmodel::report {

namespace {

using nlohmann::json;

// One line of the summary: its key (CSV, JSON), its label (table, Markdown), the text a
// person reads and the raw value (CSV).
struct Row {
  std::string key, label, text, raw;
};

std::string num(int64_t v) { // 8030261248 -> 8,030,261,248 (v >= 0)
  const std::string s = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    out.push_back(s[i]);
    if (i + 1 < s.size() && (s.size() - i - 1) % 3 == 0)
      out.push_back(',');
  }
  return out;
}

// The block weights' type: --weight-dtype, or --dtype when it is not given.
std::string weight_type(const llm::ServeOptions &o) {
  return o.weights ? std::string(llm::to_string(o.weights->type)) : std::string(to_string(o.dtype));
}

// Weights per fp16 scale (int8, int4), or none.
std::optional<int64_t> weight_group(const llm::ServeOptions &o) {
  if (o.weights && llm::has_group_scales(o.weights->type))
    return o.weights->group_size;
  return std::nullopt;
}

std::vector<Row> rows(const llm::LlmConfig &c, const HwSpec &hw, const llm::ServeResult &r) {
  const auto &o = r.options;
  const bool steps = !r.step_seconds.empty();
  auto secs = [&](double v) { return steps ? si(v, "s") : std::string("-"); };
  auto secs_raw = [&](double v) { return steps ? raw(v) : std::string(""); };
  auto bytes = [](int64_t b) { return si(double(b), "B") + " (" + num(b) + ")"; };
  return {
      {"model", "model", c.name + " (" + c.model_type + ")", c.name},
      {"hardware", "hardware", hw.name, hw.name},
      {"dtype", "dtype", std::string(to_string(o.dtype)), std::string(to_string(o.dtype))},
      {"kv_dtype", "KV cache dtype", std::string(to_string(o.kv_dtype.value_or(o.dtype))),
       std::string(to_string(o.kv_dtype.value_or(o.dtype)))},
      {"weight_dtype", "weight dtype",
       weight_type(o) + (weight_group(o) ? ", an fp16 scale per " +
                                               std::to_string(*weight_group(o)) + " weights"
                                         : ""),
       weight_type(o)},
      {"attention", "attention", std::string(llm::to_string(o.attention)),
       std::string(llm::to_string(o.attention))},
      {"time_model", "time model", o.calibration ? "calibrated" : "roofline",
       o.calibration ? "calibrated" : "roofline"},
      {"batch", "batch", std::to_string(o.batch), std::to_string(o.batch)},
      {"prompt", "prompt tokens", std::to_string(o.prompt), std::to_string(o.prompt)},
      {"generate", "generated tokens", std::to_string(o.generate), std::to_string(o.generate)},
      {"parameters", "parameters", num(r.parameters), std::to_string(r.parameters)},
      {"active_parameters", "active parameters per token", num(r.active_parameters),
       std::to_string(r.active_parameters)},
      {"kv_bytes_per_token", "KV bytes per token", bytes(r.kv_bytes_per_token),
       std::to_string(r.kv_bytes_per_token)},
      {"weights_bytes", "memory: weights", bytes(r.weight_bytes), std::to_string(r.weight_bytes)},
      {"kv_cache_bytes", "memory: KV cache", bytes(r.kv_cache_bytes),
       std::to_string(r.kv_cache_bytes)},
      {"total_bytes", "memory: total", bytes(r.total_bytes), std::to_string(r.total_bytes)},
      {"capacity_bytes", "memory: device", si(r.capacity_bytes, "B"), raw(r.capacity_bytes)},
      {"fits", "fits", r.fits ? "yes" : "no", r.fits ? "true" : "false"},
      {"max_batch", "max batch", std::to_string(r.max_batch), std::to_string(r.max_batch)},
      {"ttft_seconds", "TTFT (prefill)",
       si(r.ttft, "s") + " (" + std::string(to_string(r.prefill_bound)) + " bound)", raw(r.ttft)},
      {"tpot_first_seconds", "TPOT first", secs(r.tpot_first), secs_raw(r.tpot_first)},
      {"tpot_last_seconds", "TPOT last", secs(r.tpot_last), secs_raw(r.tpot_last)},
      {"tpot_mean_seconds", "TPOT mean",
       steps ? secs(r.tpot_mean) + " over " + std::to_string(r.step_seconds.size()) + " steps (" +
                   std::string(to_string(r.decode_bound)) + " bound)"
             : "- (no decode step)",
       secs_raw(r.tpot_mean)},
      {"e2e_seconds", "end to end", si(r.e2e, "s"), raw(r.e2e)},
      {"tokens_per_second_request", "tokens/s per request", si(r.tokens_per_second_request, ""),
       raw(r.tokens_per_second_request)},
      {"tokens_per_second_batch", "tokens/s (batch)", si(r.tokens_per_second_batch, ""),
       raw(r.tokens_per_second_batch)},
      {"energy_joules_per_token", "energy per token", si(r.energy_joules_per_token, "J"),
       raw(r.energy_joules_per_token)},
      {"energy_joules_per_request", "energy per request", si(r.energy_joules_request, "J"),
       raw(r.energy_joules_request)},
  };
}

json optional_seconds(bool has, double v) { return has ? json(v) : json(nullptr); }

// predict's view of one pass: its header and layer table (no roll-up, no profile).
std::string layers(const llm::PassPrediction &p, const HwSpec &hw, const llm::ServeOptions &o,
                   Format f) {
  PredictionContext ctx;
  ctx.execution = assumed_execution(*p.graph, hw, p.prediction, o.calibration,
                                    o.calibration ? o.calibration_name : "");
  ctx.execution.fusion = "none"; // each layer its own kernel (attention: docs/llm.md)
  PredictionViewOptions vo;
  vo.rollup = false;
  vo.per_layer = true;
  vo.profile = false;
  return render_prediction(*p.graph, p.prediction, ctx, f, vo);
}

json to_json(const llm::LlmConfig &c, const HwSpec &hw, const llm::ServeResult &r, bool per_layer) {
  const auto &o = r.options;
  const bool steps = !r.step_seconds.empty();
  json j;
  j["schema"] = "perfmodel.llm/1";
  j["model"] = c.name;
  j["model_type"] = c.model_type;
  j["config"] = c.loc.file;
  j["hardware"] = hw.name;
  j["dtype"] = std::string(to_string(o.dtype));
  j["kv_dtype"] = std::string(to_string(o.kv_dtype.value_or(o.dtype)));
  j["weight_dtype"] = weight_type(o);
  j["weight_group_size"] = weight_group(o) ? json(*weight_group(o)) : json(nullptr);
  j["attention"] = std::string(llm::to_string(o.attention));
  j["calibrated"] = o.calibration != nullptr;
  j["batch"] = o.batch;
  j["prompt"] = o.prompt;
  j["generate"] = o.generate;
  j["parameters"] = r.parameters;
  j["active_parameters"] = r.active_parameters;
  j["kv_bytes_per_token"] = r.kv_bytes_per_token;
  j["memory"] = {{"weights_bytes", r.weight_bytes},
                 {"kv_cache_bytes", r.kv_cache_bytes},
                 {"total_bytes", r.total_bytes},
                 {"capacity_bytes", r.capacity_bytes},
                 {"fits", r.fits},
                 {"max_batch", r.max_batch}};
  const Totals &pt = r.prefill_totals;
  j["prefill"] = {{"seconds", r.ttft},
                  {"bound", std::string(to_string(r.prefill_bound))},
                  {"flops", pt.cost.flops},
                  {"bytes", pt.cost.bytes()}};
  j["decode"] = {{"steps", r.step_seconds.size()},
                 {"tpot_first_seconds", optional_seconds(steps, r.tpot_first)},
                 {"tpot_last_seconds", optional_seconds(steps, r.tpot_last)},
                 {"tpot_mean_seconds", optional_seconds(steps, r.tpot_mean)},
                 {"bound", steps ? json(std::string(to_string(r.decode_bound))) : json(nullptr)},
                 {"step_seconds", r.step_seconds}};
  j["ttft_seconds"] = r.ttft;
  j["tpot_mean_seconds"] = optional_seconds(steps, r.tpot_mean);
  j["e2e_seconds"] = r.e2e;
  j["tokens_per_second_request"] = r.tokens_per_second_request;
  j["tokens_per_second_batch"] = r.tokens_per_second_batch;
  j["energy_joules_per_token"] = r.energy_joules_per_token;
  j["energy_joules_per_request"] = r.energy_joules_request;
  if (per_layer) {
    j["prefill_layers"] = json::parse(layers(r.prefill, hw, o, Format::json));
    j["decode_layers"] = r.last_decode.graph
                             ? json::parse(layers(r.last_decode, hw, o, Format::json))
                             : json(nullptr);
  }
  return j;
}

} // namespace

std::string render_llm(const llm::LlmConfig &c, const HwSpec &hw, const llm::ServeResult &r,
                       Format f, bool per_layer) {
  if (f == Format::json)
    return perfmodel::report::json_text(to_json(c, hw, r, per_layer));
  const std::vector<Row> rs = rows(c, hw, r);
  std::string out;
  if (f == Format::csv) {
    out = "metric,value\n";
    for (const auto &row : rs)
      out += csv_field(row.key) + "," + csv_field(row.raw) + "\n";
  } else if (f == Format::md) {
    std::vector<std::vector<std::string>> cells;
    for (const auto &row : rs)
      cells.push_back({row.label, row.text});
    out = md_table({"metric", "value"}, cells);
  } else {
    TextTable t({"metric", "value"});
    for (const auto &row : rs)
      t.add({row.label, row.text});
    out = t.str();
  }
  if (per_layer) {
    const std::string sep = "\n";
    out += sep + (f == Format::md ? "## " : "--- ") + "prefill layers" +
           (f == Format::md ? "\n\n" : " ---\n") + layers(r.prefill, hw, r.options, f);
    if (r.last_decode.graph)
      out += sep + (f == Format::md ? "## " : "--- ") + "decode layers (last step, KV length " +
             std::to_string(r.options.prompt + r.options.generate - 2) + ")" +
             (f == Format::md ? "\n\n" : " ---\n") + layers(r.last_decode, hw, r.options, f);
  }
  return out;
}

} // namespace perfmodel::report
