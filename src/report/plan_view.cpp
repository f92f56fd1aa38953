// The `plan` view and its frontier plot (perfmodel/report/plan_view.hpp).
#include "perfmodel/report/plan_view.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "perfmodel/report/text_table.hpp"

namespace perfmodel::report {

namespace {

using nlohmann::json;

std::vector<std::string> header() {
  return {"rank", "tp",   "pp",           "dp",  "ep",     "micro",  "recompute", "sp",      "v",
          "zero", "step", "tokens/s/dev", "MFU", "memory", "bubble", "comm",      "frontier"};
}

std::vector<std::string> cells(size_t i, const llm::PlanCandidate &p, bool raw_numbers) {
  const auto &s = p.options.split;
  auto num = [&](double v, const char *unit) { return raw_numbers ? raw(v) : si(v, unit); };
  return {std::to_string(i + 1),
          std::to_string(s.tp),
          std::to_string(s.pp),
          std::to_string(s.dp),
          std::to_string(s.ep),
          std::to_string(p.options.microbatch),
          std::string(llm::to_string(p.options.recompute)),
          s.sequence_parallel ? "yes" : "no",
          std::to_string(s.interleave),
          std::to_string(p.options.zero),
          num(p.step, "s"),
          num(p.tokens_per_second_per_device, ""),
          raw_numbers ? raw(p.mfu) : pct(p.mfu),
          num(p.memory, "B"),
          num(p.bubble, "s"),
          num(p.comm, "s"),
          p.frontier ? "yes" : ""};
}

} // namespace

std::string render_plan(const llm::LlmConfig &c, const HwSpec &hw, const llm::PlanOptions &o,
                        const llm::PlanResult &r, Format f, size_t top) {
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.plan/1";
    j["model"] = c.name;
    j["hardware"] = hw.name;
    j["pass"] = "train";
    j["gpus"] = o.gpus;
    j["global_batch"] = o.global_batch;
    j["seq"] = o.seq;
    j["enumerated"] = r.enumerated;
    j["dropped"] = r.dropped;
    json a = json::array();
    for (const auto &p : r.ranked) {
      const auto &s = p.options.split;
      a.push_back({{"tp", s.tp},
                   {"pp", s.pp},
                   {"dp", s.dp},
                   {"ep", s.ep},
                   {"microbatch", p.options.microbatch},
                   {"recompute", std::string(llm::to_string(p.options.recompute))},
                   {"sequence_parallel", s.sequence_parallel},
                   {"interleave", s.interleave},
                   {"zero", p.options.zero},
                   {"step_seconds", p.step},
                   {"tokens_per_second_per_device", p.tokens_per_second_per_device},
                   {"mfu", p.mfu},
                   {"memory_bytes", p.memory},
                   {"compute_seconds", p.compute},
                   {"recompute_seconds", p.recompute},
                   {"comm_exposed_seconds", p.comm},
                   {"bubble_seconds", p.bubble},
                   {"optimizer_seconds", p.optimizer},
                   {"frontier", p.frontier}});
    }
    j["ranked"] = a;
    return j.dump(2) + "\n";
  }
  if (f == Format::csv) {
    std::string out;
    const auto h = header();
    for (size_t i = 0; i < h.size(); ++i)
      out += (i ? "," : "") + csv_field(h[i]);
    out += "\n";
    for (size_t i = 0; i < r.ranked.size(); ++i) {
      const auto row = cells(i, r.ranked[i], true);
      for (size_t k = 0; k < row.size(); ++k)
        out += (k ? "," : "") + csv_field(row[k]);
      out += "\n";
    }
    return out;
  }
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.ranked.size() && i < top; ++i)
    rows.push_back(cells(i, r.ranked[i], false));
  std::string out = "plan: " + c.name + " on " + std::to_string(o.gpus) + " x " + hw.name +
                    ", global batch " + std::to_string(o.global_batch) + " x " +
                    std::to_string(o.seq) + " tokens: " + std::to_string(r.enumerated) +
                    " splits, " + std::to_string(r.ranked.size()) + " fit (" + si(r.capacity, "B") +
                    " per device)\n";
  for (const auto &[why, n] : r.dropped)
    out += "  dropped " + std::to_string(n) + ": " + why + "\n";
  out += f == Format::md ? "\n" : "\n";
  if (f == Format::md) {
    out += md_table(header(), rows);
  } else {
    TextTable t(header());
    for (auto &row : rows)
      t.add(row);
    out += t.str();
  }
  if (r.ranked.size() > top)
    out += "(" + std::to_string(r.ranked.size() - top) + " more: --top N, or --format csv|json)\n";
  return out;
}

plot::PlotScript plan_plot(const llm::LlmConfig &c, const llm::PlanResult &r,
                           const plot::PlotPaths &paths, plot::ImageKind kind) {
  if (r.ranked.empty())
    throw InputError("--plot: no split fits, nothing to draw");
  plot::PlotScript p;
  p.data = "# memory_bytes tokens_per_second_per_device (block 0: every fitting split; "
           "block 1: the frontier)\n";
  for (const auto &k : r.ranked)
    p.data += plot::gp_num(k.memory) + " " + plot::gp_num(k.tokens_per_second_per_device) + "\n";
  p.data += "\n\n";
  std::vector<const llm::PlanCandidate *> front;
  for (const auto &k : r.ranked)
    if (k.frontier)
      front.push_back(&k);
  std::sort(front.begin(), front.end(), [](auto *a, auto *b) { return a->memory < b->memory; });
  for (const auto *k : front)
    p.data += plot::gp_num(k->memory) + " " + plot::gp_num(k->tokens_per_second_per_device) + "\n";
  std::string &s = p.script;
  s += plot::script_header(paths, kind, 900, 600, "plan frontier", "plan: " + c.name);
  s += "set xlabel 'memory per device (bytes)'\n";
  s += "set ylabel 'tokens/s per device'\n";
  s += "set format x '%.0s%cB'\n";
  s += "set grid lc rgb '#dddddd'\n";
  s += "set key top left\n";
  s += "plot datafile index 0 using 1:2 with points pt 7 ps 0.4 lc rgb '#bbbbbb' "
       "title 'splits that fit', \\\n"
       "     datafile index 1 using 1:2 with linespoints pt 7 lw 2 lc rgb '#d62728' "
       "title 'frontier (fastest for its memory)'\n";
  return p;
}

} // namespace perfmodel::report
