// The `plan --pass infer` view and its frontier plot (perfmodel/report/plan_infer_view.hpp).
#include "perfmodel/report/plan_infer_view.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "perfmodel/report/text_table.hpp"
#include "report/plan_common.hpp"

namespace perfmodel::report {

namespace {

using nlohmann::json;

std::vector<std::string> header() {
  return {"rank", "tp",   "pp",  "ep",           "dp",     "batch", "micro",
          "TTFT", "TPOT", "e2e", "tokens/s/dev", "memory", "comm",  "frontier"};
}

std::vector<std::string> csv_header() {
  return {"rank",       "tp",       "pp",       "ep",      "dp",       "replica batch",
          "microbatch", "ttft (s)", "tpot (s)", "e2e (s)", "tokens/s", "tokens/s per device",
          "memory (B)", "comm (s)", "frontier"};
}

std::vector<std::string> cells(size_t i, const llm::InferCandidate &k, bool csv) {
  const auto &s = k.split;
  auto num = [&](double v, const char *unit) { return csv ? raw(v) : si(v, unit); };
  std::vector<std::string> row = {std::to_string(i + 1),
                                  std::to_string(s.tp),
                                  std::to_string(s.pp),
                                  std::to_string(s.ep),
                                  std::to_string(s.dp),
                                  std::to_string(k.replica_batch),
                                  std::to_string(k.microbatch),
                                  num(k.ttft, "s"),
                                  num(k.tpot, "s"),
                                  num(k.e2e, "s")};
  if (csv)
    row.push_back(raw(k.tokens_per_second));
  row.push_back(num(k.tokens_per_second_per_device, ""));
  row.push_back(num(k.memory, "B"));
  row.push_back(num(k.comm, "s"));
  row.push_back(k.frontier ? (csv ? "true" : "yes") : (csv ? "false" : ""));
  return row;
}

std::string title(const llm::LlmConfig &c, const HwSpec &hw, const llm::InferPlanOptions &o) {
  return c.name + " on " + std::to_string(o.gpus) + " x " + hw.name + ", serving " +
         std::to_string(o.batch) + " sequences (" + std::to_string(o.prompt) + " prompt + " +
         std::to_string(o.generate) + " generated tokens)";
}

// cells() as one callable: the unity build may see another file's cells() overloads beside it
const auto infer_row_cells = [](size_t i, const auto &k, bool csv) { return cells(i, k, csv); };

} // namespace

std::string render_plan_infer(const llm::LlmConfig &c, const HwSpec &hw,
                              const llm::InferPlanOptions &o, const llm::InferPlanResult &r,
                              Format f, size_t top) {
  if (f == Format::json) {
    json j;
    j["schema"] = "perfmodel.plan/1";
    j["model"] = c.name;
    j["hardware"] = hw.name;
    j["pass"] = "infer";
    j["gpus"] = o.gpus;
    j["batch"] = o.batch;
    j["prompt"] = o.prompt;
    j["generate"] = o.generate;
    j["enumerated"] = r.enumerated;
    j["dropped"] = r.dropped;
    j["capacity_bytes"] = r.capacity;
    json a = json::array();
    for (const auto &k : r.ranked) {
      const auto &s = k.split;
      a.push_back({{"tp", s.tp},
                   {"pp", s.pp},
                   {"ep", s.ep},
                   {"dp", s.dp},
                   {"replica_batch", k.replica_batch},
                   {"microbatch", k.microbatch},
                   {"ttft_seconds", k.ttft},
                   {"tpot_seconds", k.tpot},
                   {"e2e_seconds", k.e2e},
                   {"tokens_per_second", k.tokens_per_second},
                   {"tokens_per_second_per_device", k.tokens_per_second_per_device},
                   {"memory_bytes", k.memory},
                   {"comm_seconds", k.comm},
                   {"frontier", k.frontier}});
    }
    j["ranked"] = a;
    return j.dump(2) + "\n";
  }
  if (f == Format::csv)
    return plan_common::csv(r, csv_header(), infer_row_cells);
  return plan_common::table(title(c, hw, o), r, top, f, header(), infer_row_cells);
}

plot::PlotScript plan_infer_plot(const llm::LlmConfig &c, const llm::InferPlanResult &r,
                                 const plot::PlotPaths &paths, plot::ImageKind kind) {
  if (r.ranked.empty())
    throw InputError("--plot: no split fits, nothing to draw");
  plot::PlotScript p;
  p.data = plan_common::frontier_data(
      r.ranked, [](const auto &k) { return k.tpot; }, "tpot_seconds");
  std::string &s = p.script;
  s += plot::script_header(paths, kind, 900, 600, "serving plan frontier",
                           "plan (serving): " + c.name);
  s += "set xlabel 'TPOT, time per output token (s)'\n";
  s += "set ylabel 'tokens/s per device'\n";
  s += "set format x '%.0s%cs'\n";
  s += "set grid lc rgb '#dddddd'\n";
  s += "set key top right\n";
  s += "plot datafile index 0 using 1:2 with points pt 7 ps 0.8 lc rgb '#bbbbbb' "
       "title 'splits that fit', \\\n"
       "     datafile index 1 using 1:2 with linespoints pt 7 lw 2 lc rgb '#d62728' "
       "title 'frontier (most tokens/s for its TPOT)'\n";
  return p;
}

} // namespace perfmodel::report
