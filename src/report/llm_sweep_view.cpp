// Renders an LlmSweepResult in the four output formats from one list of columns.
#include "perfmodel/report/llm_sweep_view.hpp"

#include <algorithm>
#include <span>

#include "report/columns.hpp"
#include "report/points_writer.hpp"
#include "report/sweep_points.hpp"

namespace perfmodel::report {
namespace {

using P = llm::LlmSweepPoint;

const std::vector<Column<P>> &columns() {
  using C = Column<P>;
  static const std::vector<C> cols = {
      {"hw", "hw", hint::text(), &P::hw},
      {"dtype", "dtype", hint::text(), [](const P &p) { return to_string(p.dtype); }},
      C("tp", "tp", hint::count(), &P::tp).align_right(false),
      C("pp", "pp", hint::count(), &P::pp).align_right(false),
      C("gpus", "gpus", hint::count(), &P::gpus).align_right(false),
      C("prompt", "prompt", hint::count(), &P::prompt).align_right(false),
      C("generate", "generate", hint::count(), &P::generate).align_right(false),
      C("batch", "batch", hint::count(), &P::batch).align_right(false),
      {"skipped", "skipped", hint::text(), &P::skipped, kJson},
      {"ttft_seconds", "TTFT", hint::si("s"), of(&P::ttft_seconds)},
      C("tpot_mean_seconds", "TPOT", hint::si("s"), of(&P::tpot_mean_seconds))
          .csv_as("TPOT mean (s)")
          .missing_as("-"),
      C("e2e_seconds", "e2e", hint::si("s"), of(&P::e2e_seconds)).csv_as("end to end (s)"),
      C("tokens_per_second_request", "tok/s/req", hint::si("/s"), of(&P::tokens_per_second_request))
          .csv_as("tokens per second per request (1/s)"),
      C("tokens_per_second_batch", "tok/s", hint::si("/s"), of(&P::tokens_per_second_batch))
          .csv_as("tokens per second (1/s)"),
      C("tokens_per_second_per_gpu", "tok/s/gpu", hint::si("/s"), of(&P::tokens_per_second_per_gpu))
          .csv_as("tokens per second per gpu (1/s)"),
      {"weights_bytes", "weights", hint::si("B"), of(&P::weights_bytes), kJson | kCsv},
      C("kv_cache_bytes", "KV cache", hint::si("B"), of(&P::kv_cache_bytes)).csv_as("KV cache (B)"),
      C("memory_bytes", "memory", hint::si("B"), of(&P::memory_bytes)).csv_as("memory (B)"),
      {"memory_capacity_bytes", "capacity", hint::si("B"), of(&P::memory_capacity_bytes),
       kJson | kCsv},
      C("fits_in_memory", "fits", hint::flag("yes", "NO"), of(&P::fits_in_memory))
          .csv_as("fits in memory")
          .align_right(true),
      C("max_batch", "max batch", hint::count(), of(&P::max_batch)),
      {"skipped", "skipped", hint::text(), &P::skipped, kCsv},
  };
  return cols;
}

Grid grid(std::span<const P> points) { return points_grid(columns(), points); }

std::string title(const llm::LlmSweepResult &r) {
  return "sweep of " + r.model + " (serving): " + std::to_string(r.points.size()) + " points, " +
         std::to_string(r.evaluated()) + " evaluated, " + std::to_string(r.skipped()) + " skipped";
}

// Best first: the shortest times, the smallest memory; the largest rates and max batch.
const std::vector<SortKey<P>> &sort_keys() {
  static const std::vector<SortKey<P>> k = {
      ascending("ttft", &P::ttft_seconds),
      {"tpot",
       [](const P &a, const P &b) { // points without a decode step after those with one
         if (!a.tpot_mean_seconds || !b.tpot_mean_seconds)
           return a.tpot_mean_seconds && !b.tpot_mean_seconds;
         return *a.tpot_mean_seconds < *b.tpot_mean_seconds;
       }},
      ascending("e2e", &P::e2e_seconds),
      descending("throughput", &P::tokens_per_second_batch),
      descending("throughput_request", &P::tokens_per_second_request),
      descending("throughput_per_gpu", &P::tokens_per_second_per_gpu),
      ascending("memory", &P::memory_bytes),
      descending("max_batch", &P::max_batch),
      ascending("batch", &P::batch),
      ascending("hw", &P::hw),
  };
  return k;
}

} // namespace

std::vector<std::string> llm_sweep_sort_keys() { return sort_key_names(sort_keys()); }

bool sort_llm_sweep(llm::LlmSweepResult &r, const std::string &key) {
  return sort_points(r.points, sort_keys(), key);
}

void write_llm_sweep(const llm::LlmSweepResult &r, Format f,
                     const std::function<void(std::string_view)> &out) {
  const llm::ServeOptions &o = r.options;
  Json head;
  head["schema"] = "perfmodel.llm_sweep/1";
  head["model"] = r.model;
  head["config"] = r.config;
  head["kv_dtype"] = o.kv_dtype ? Json(std::string(to_string(*o.kv_dtype))) : Json(nullptr);
  head["weight_dtype"] =
      o.weights ? Json(std::string(llm::to_string(o.weights->type))) : Json(nullptr);
  head["weight_group_size"] = o.weights && llm::has_group_scales(o.weights->type)
                                  ? Json(o.weights->group_size)
                                  : Json(nullptr);
  head["attention"] = std::string(llm::to_string(o.attention));
  head["calibrated"] = !o.calibration_name.empty();
  head["evaluated"] = r.evaluated();
  head["skipped"] = r.skipped();
  const std::span<const P> all(r.points);
  write_points(
      all.size(), [&](size_t at, size_t n) { return grid(all.subspan(at, n)); }, head, title(r), f,
      out);
}

std::string render_llm_sweep(const llm::LlmSweepResult &r, Format f) {
  std::string text;
  write_llm_sweep(r, f, [&](std::string_view piece) { text += piece; });
  return text;
}

} // namespace perfmodel::report
