// The `llm` view on many devices (perfmodel/report/parallel_view.hpp).
#include "perfmodel/report/parallel_view.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "perfmodel/report/text_table.hpp"

namespace perfmodel::report {

namespace {

using nlohmann::json;

struct Row {
  std::string key, label, text, raw;
};

std::string split_text(const llm::ParallelSplit &s, bool training) {
  std::string t = "tp " + std::to_string(s.tp) + ", pp " + std::to_string(s.pp);
  if (training)
    t += ", dp " + std::to_string(s.dp);
  if (s.ep > 1 || !training)
    t += ", ep " + std::to_string(s.ep);
  if (s.interleave > 1)
    t += ", interleave " + std::to_string(s.interleave);
  if (s.sequence_parallel)
    t += ", sequence parallel";
  return t;
}

std::string comm_table(const std::vector<llm::CommLine> &lines, Format f) {
  std::vector<std::string> head = {"kind",  "collective", "count",  "bytes each",
                                   "group", "level",      "seconds"};
  std::vector<std::vector<std::string>> rows;
  for (const auto &l : lines)
    rows.push_back(
        {l.kind, std::string(to_string(l.collective)), std::to_string(l.count),
         f == Format::csv ? raw(l.bytes) : si(l.bytes, "B"),
         std::to_string(l.group.size) + " (" + std::to_string(l.group.per_node) + "/node)",
         l.level + (l.calibrated ? " (fitted)" : ""),
         f == Format::csv ? raw(l.seconds) : si(l.seconds, "s")});
  if (f == Format::md)
    return md_table(head, rows);
  if (f == Format::csv) {
    std::string out;
    for (size_t i = 0; i < head.size(); ++i)
      out += (i ? "," : "") + csv_field(head[i]);
    out += "\n";
    for (const auto &r : rows) {
      for (size_t i = 0; i < r.size(); ++i)
        out += (i ? "," : "") + csv_field(r[i]);
      out += "\n";
    }
    return out;
  }
  TextTable t(head);
  for (auto &r : rows)
    t.add(r);
  return t.str();
}

json comm_json(const std::vector<llm::CommLine> &lines) {
  json a = json::array();
  for (const auto &l : lines)
    a.push_back({{"kind", l.kind},
                 {"collective", std::string(to_string(l.collective))},
                 {"count", l.count},
                 {"bytes", l.bytes},
                 {"group_size", l.group.size},
                 {"group_per_node", l.group.per_node},
                 {"level", l.level},
                 {"calibrated", l.calibrated},
                 {"seconds", l.seconds}});
  return a;
}

std::string render_rows(const std::vector<Row> &rs, Format f) {
  if (f == Format::csv) {
    std::string out = "metric,value\n";
    for (const auto &row : rs)
      out += csv_field(row.key) + "," + csv_field(row.raw) + "\n";
    return out;
  }
  if (f == Format::md) {
    std::vector<std::vector<std::string>> cells;
    for (const auto &row : rs)
      cells.push_back({row.label, row.text});
    return md_table({"metric", "value"}, cells);
  }
  TextTable t({"metric", "value"});
  for (const auto &row : rs)
    t.add({row.label, row.text});
  return t.str();
}

std::string section(const std::string &title, Format f) {
  if (f == Format::md)
    return "\n## " + title + "\n\n";
  if (f == Format::csv)
    return "\n";
  return "\n--- " + title + " ---\n";
}

Row bytes_row(const std::string &key, const std::string &label, double b) {
  return {key, label, si(b, "B"), raw(b)};
}
Row secs_row(const std::string &key, const std::string &label, double s) {
  return {key, label, si(s, "s"), raw(s)};
}

} // namespace

std::string render_parallel_serve(const llm::LlmConfig &c, const HwSpec &hw,
                                  const llm::ParallelServeResult &r, Format f) {
  const auto &o = r.options.serve;
  const auto &s = r.options.split;
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.llm/1";
    j["model"] = c.name;
    j["hardware"] = hw.name;
    j["pass"] = "infer";
    j["dtype"] = std::string(to_string(o.dtype));
    j["calibrated"] = o.calibration != nullptr;
    j["comm_calibrated"] = r.options.comm != nullptr;
    j["batch"] = o.batch;
    j["prompt"] = o.prompt;
    j["generate"] = o.generate;
    j["parallel"] = {{"devices", r.devices},
                     {"tp", s.tp},
                     {"pp", s.pp},
                     {"ep", s.ep},
                     {"sequence_parallel", s.sequence_parallel}};
    j["memory_per_device"] = {{"parameters", r.parameters_device},
                              {"weights_bytes", r.weight_bytes_device},
                              {"kv_cache_bytes", r.kv_cache_bytes_device},
                              {"total_bytes", r.total_bytes_device},
                              {"capacity_bytes", hw.dram().capacity_bytes},
                              {"fits", r.fits},
                              {"max_batch", r.max_batch}};
    j["prefill_comm"] = comm_json(r.prefill_comm);
    j["decode_step_comm"] = comm_json(r.decode_comm);
    j["compute_ttft_seconds"] = r.device.ttft;
    j["ttft_seconds"] = r.ttft;
    j["tpot_mean_seconds"] = o.generate > 1 ? json(r.tpot_mean) : json(nullptr);
    j["e2e_seconds"] = r.e2e;
    j["tokens_per_second_batch"] = r.tokens_per_second_batch;
    j["tokens_per_second_pipelined"] = r.tokens_per_second_pipelined;
    return j.dump(2) + "\n";
  }
  const bool steps = o.generate > 1;
  std::vector<Row> rs = {
      {"model", "model", c.name + " (" + c.model_type + ")", c.name},
      {"hardware", "hardware", hw.name, hw.name},
      {"devices", "devices", std::to_string(r.devices) + " (" + split_text(s, false) + ")",
       std::to_string(r.devices)},
      {"time_model", "time model",
       std::string(o.calibration ? "calibrated" : "roofline") + ", communication " +
           (r.options.comm ? "fitted (" + r.options.comm_name + ")" : "from the spec"),
       o.calibration ? "calibrated" : "roofline"},
      {"batch", "batch", std::to_string(o.batch), std::to_string(o.batch)},
      {"prompt", "prompt tokens", std::to_string(o.prompt), std::to_string(o.prompt)},
      {"generate", "generated tokens", std::to_string(o.generate), std::to_string(o.generate)},
      bytes_row("weights_bytes", "memory per device: weights", double(r.weight_bytes_device)),
      bytes_row("kv_cache_bytes", "memory per device: KV cache", double(r.kv_cache_bytes_device)),
      bytes_row("total_bytes", "memory per device: total", double(r.total_bytes_device)),
      bytes_row("capacity_bytes", "memory: device", hw.dram().capacity_bytes),
      {"fits", "fits", r.fits ? "yes" : "no", r.fits ? "true" : "false"},
      {"max_batch", "max batch", std::to_string(r.max_batch), std::to_string(r.max_batch)},
      {"ttft_seconds", "TTFT (prefill)",
       si(r.ttft, "s") + " (compute " + si(r.device.ttft, "s") + ", communication " +
           si(r.prefill_comm_seconds, "s") + ")",
       raw(r.ttft)},
      {"tpot_mean_seconds", "TPOT mean",
       steps ? si(r.tpot_mean, "s") + " (communication " + si(r.decode_comm_seconds, "s") +
                   " per step)"
             : "- (no decode step)",
       steps ? raw(r.tpot_mean) : ""},
      secs_row("e2e_seconds", "end to end", r.e2e),
      {"tokens_per_second_batch", "tokens/s (batch)", si(r.tokens_per_second_batch, ""),
       raw(r.tokens_per_second_batch)},
      {"tokens_per_second_pipelined", "tokens/s (pp batches in flight)",
       si(r.tokens_per_second_pipelined, ""), raw(r.tokens_per_second_pipelined)},
  };
  std::string out = render_rows(rs, f);
  if (!r.prefill_comm.empty())
    out += section("prefill communication", f) + comm_table(r.prefill_comm, f);
  if (!r.decode_comm.empty())
    out += section("decode communication (one step)", f) + comm_table(r.decode_comm, f);
  return out;
}

std::string render_parallel_train(const llm::LlmConfig &c, const HwSpec &hw,
                                  const llm::TrainResult &r, Format f) {
  const auto &o = r.options;
  const auto &s = o.split;
  const auto &m = r.memory;
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.llm/1";
    j["model"] = c.name;
    j["hardware"] = hw.name;
    j["pass"] = "train";
    j["dtype"] = std::string(to_string(o.dtype));
    j["attention"] = std::string(llm::to_string(o.attention));
    j["calibrated"] = o.calibration != nullptr;
    j["comm_calibrated"] = o.comm != nullptr;
    j["parallel"] = {{"devices", r.devices},
                     {"tp", s.tp},
                     {"pp", s.pp},
                     {"dp", s.dp},
                     {"ep", s.ep},
                     {"interleave", s.interleave},
                     {"sequence_parallel", s.sequence_parallel}};
    j["train"] = {{"global_batch", o.global_batch},
                  {"microbatch", o.microbatch},
                  {"microbatches", r.microbatches},
                  {"seq", o.seq},
                  {"recompute", std::string(llm::to_string(o.recompute))},
                  {"zero", o.zero},
                  {"step_seconds", r.step},
                  {"compute_seconds", r.compute},
                  {"recompute_seconds", r.recompute},
                  {"comm_exposed_seconds", r.comm_exposed},
                  {"comm_overlapped_seconds", r.comm_overlapped},
                  {"bubble_seconds", r.bubble},
                  {"optimizer_seconds", r.optimizer},
                  {"model_flops", r.model_flops},
                  {"hardware_flops", r.hardware_flops},
                  {"mfu", r.mfu},
                  {"hfu", r.hfu},
                  {"tokens_per_second", r.tokens_per_second},
                  {"tokens_per_second_per_device", r.tokens_per_second_per_device}};
    j["memory_per_device"] = {{"weights_bytes", m.weights},
                              {"gradients_bytes", m.gradients},
                              {"optimizer_bytes", m.optimizer},
                              {"activations_bytes", m.activations},
                              {"activations_per_layer_bytes", m.activations_per_layer},
                              {"total_bytes", m.total()},
                              {"capacity_bytes", r.capacity},
                              {"fits", r.fits}};
    j["comm"] = comm_json(r.comm);
    return j.dump(2) + "\n";
  }
  auto share = [&](double v) { return si(v, "s") + " (" + pct(v / r.step) + ")"; };
  std::vector<Row> rs = {
      {"model", "model", c.name + " (" + c.model_type + ")", c.name},
      {"hardware", "hardware", hw.name, hw.name},
      {"devices", "devices", std::to_string(r.devices) + " (" + split_text(s, true) + ")",
       std::to_string(r.devices)},
      {"time_model", "time model",
       std::string(o.calibration ? "calibrated" : "roofline") + ", communication " +
           (o.comm ? "fitted" : "from the spec"),
       o.calibration ? "calibrated" : "roofline"},
      {"batch", "batch",
       "global " + std::to_string(o.global_batch) + " x " + std::to_string(o.seq) +
           " tokens, microbatch " + std::to_string(o.microbatch) + " (" +
           std::to_string(r.microbatches) + " per pipeline)",
       std::to_string(o.global_batch)},
      {"recompute", "recompute", std::string(llm::to_string(o.recompute)),
       std::string(llm::to_string(o.recompute))},
      {"zero", "ZeRO stage", std::to_string(o.zero), std::to_string(o.zero)},
      secs_row("step_seconds", "step", r.step),
      {"compute_seconds", "  compute (forward + backward)", share(r.compute), raw(r.compute)},
      {"recompute_seconds", "  recompute", share(r.recompute), raw(r.recompute)},
      {"comm_exposed_seconds", "  communication (exposed)", share(r.comm_exposed),
       raw(r.comm_exposed)},
      {"bubble_seconds", "  pipeline bubble", share(r.bubble), raw(r.bubble)},
      {"optimizer_seconds", "  optimizer", share(r.optimizer), raw(r.optimizer)},
      {"mfu", "MFU", pct(r.mfu), raw(r.mfu)},
      {"hfu", "HFU", pct(r.hfu), raw(r.hfu)},
      {"tokens_per_second", "tokens/s", si(r.tokens_per_second, ""), raw(r.tokens_per_second)},
      {"tokens_per_second_per_device", "tokens/s per device",
       si(r.tokens_per_second_per_device, ""), raw(r.tokens_per_second_per_device)},
      bytes_row("weights_bytes", "memory per device: weights", m.weights),
      bytes_row("gradients_bytes", "memory per device: gradients", m.gradients),
      bytes_row("optimizer_bytes", "memory per device: optimizer states", m.optimizer),
      bytes_row("activations_bytes", "memory per device: activations (first stage)", m.activations),
      bytes_row("total_bytes", "memory per device: total", m.total()),
      bytes_row("capacity_bytes", "memory: device", r.capacity),
      {"fits", "fits", r.fits ? "yes" : "no", r.fits ? "true" : "false"},
  };
  if (o.overlap_grad_reduce) { // after the exposed communication
    auto at = std::find_if(rs.begin(), rs.end(),
                           [](const Row &w) { return w.key == "comm_exposed_seconds"; });
    rs.insert(at + 1, {"comm_overlapped_seconds",
                       "  communication hidden behind the backward (not in the step)",
                       si(r.comm_overlapped, "s"), raw(r.comm_overlapped)});
  }
  std::string out = render_rows(rs, f);
  if (!r.comm.empty())
    out += section("communication per step", f) + comm_table(r.comm, f);
  return out;
}

} // namespace perfmodel::report
