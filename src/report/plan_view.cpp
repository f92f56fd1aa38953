// The `plan` view and its frontier plot (perfmodel/report/plan_view.hpp).
#include "perfmodel/report/plan_view.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "perfmodel/report/text_table.hpp"
#include "report/plan_common.hpp"

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

// cells() as one callable: the unity build may see another file's cells() overloads beside it
const auto train_row_cells = [](size_t i, const auto &k, bool csv) { return cells(i, k, csv); };

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
  if (f == Format::csv)
    return plan_common::csv(r, header(), train_row_cells);
  return plan_common::table(c.name + " on " + std::to_string(o.gpus) + " x " + hw.name +
                                ", global batch " + std::to_string(o.global_batch) + " x " +
                                std::to_string(o.seq) + " tokens",
                            r, top, f, header(), train_row_cells);
}

plot::PlotScript plan_plot(const llm::LlmConfig &c, const llm::PlanResult &r,
                           const plot::PlotPaths &paths, plot::ImageKind kind) {
  if (r.ranked.empty())
    throw InputError("--plot: no split fits, nothing to draw");
  plot::PlotScript p;
  p.data = plan_common::frontier_data(
      r.ranked, [](const auto &k) { return k.memory; }, "memory_bytes");
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
