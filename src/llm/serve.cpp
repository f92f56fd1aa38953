// Serving metrics from the predicted passes (docs/llm.md, "Metrics").
#include "perfmodel/llm/serve.hpp"

#include <numeric>
#include <optional>

#include "perfmodel/llm/pass_eval.hpp"

namespace perfmodel::llm {

namespace {

Bound main_bound(double compute, double memory, double overhead) {
  if (compute == 0 && memory == 0 && overhead == 0)
    return Bound::none;
  if (compute >= memory && compute >= overhead)
    return Bound::compute;
  return memory >= overhead ? Bound::memory : Bound::overhead;
}

} // namespace

double mean_step_seconds(const std::vector<double> &steps) {
  return steps.empty() ? 0.0
                       : std::accumulate(steps.begin(), steps.end(), 0.0) / double(steps.size());
}

ServeResult serve(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o) {
  return Server(c, hw, o).serve(o.batch, o.prompt, o.generate);
}

Server::Server(const LlmConfig &c, const HwSpec &hw, const ServeOptions &o)
    : c_(c), hw_(hw), o_(o), parameters_(parameter_count(c)),
      active_parameters_(active_parameter_count(c)) {}

Server::~Server() = default;

ServeResult Server::serve(int64_t batch, int64_t prompt, int64_t generate) {
  const LlmConfig &c = c_;
  const HwSpec &hw = hw_;
  ServeOptions o = o_;
  o.batch = batch;
  o.prompt = prompt;
  o.generate = generate;
  if (o.prompt < 1)
    throw InputError("--prompt must be at least 1");
  if (o.generate < 1)
    throw InputError("--generate must be at least 1");
  if (o.batch < 1)
    throw InputError("--batch must be at least 1");
  // the passes run positions 0 ... P + G - 2: the last output token is never fed back
  if (o.prompt + o.generate - 1 > c.max_positions)
    throw InputError("--prompt + --generate - 1 (" + std::to_string(o.prompt + o.generate - 1) +
                     " positions) exceeds the model's max_position_embeddings (" +
                     std::to_string(c.max_positions) + ")");
  ServeResult r;
  r.options = o;
  r.parameters = parameters_;
  r.active_parameters = active_parameters_;
  r.kv_bytes_per_token = kv_bytes_per_token(c, o.kv_dtype.value_or(o.dtype));
  const int64_t per_sequence = cached_entries(c, o.prompt + o.generate) * r.kv_bytes_per_token;
  r.kv_cache_bytes = o.batch * per_sequence;

  // Figures from one block of each kind (pass_eval.hpp), or from the whole graph where a
  // calibration's schedule follows every layer; the two are equal bit for bit.
  const bool whole = o.calibration != nullptr;
  const PassShape first{Phase::prefill, o.batch, o.prompt, 0};
  PassEval prefill(c, hw, o, first, whole);
  if (!weight_bytes_)
    weight_bytes_ =
        o.weights ? prefill.weight_bytes(o.dtype, *o.weights) : r.parameters * bytes_of(o.dtype);
  r.weight_bytes = *weight_bytes_;
  r.total_bytes = r.weight_bytes + r.kv_cache_bytes;
  r.capacity_bytes = hw.dram().capacity_bytes;
  r.fits = double(r.total_bytes) <= r.capacity_bytes;
  r.max_batch = double(r.weight_bytes) >= r.capacity_bytes
                    ? 0
                    : int64_t((r.capacity_bytes - double(r.weight_bytes)) / double(per_sequence));
  r.ttft = prefill.seconds();
  r.prefill_totals = prefill.totals();
  const Totals &pt = r.prefill_totals;
  r.prefill_bound =
      main_bound(pt.seconds_compute_bound, pt.seconds_memory_bound, pt.seconds_overhead_bound);
  double energy = pt.energy_joules;
  double compute = 0, memory = 0, overhead = 0;
  // One decode pass per batch, moved to each step's KV length (the steps differ only there).
  if (o.generate > 1 && (!decode_ || decode_batch_ != o.batch)) {
    decode_.reset(); // (one at a time)
    decode_ =
        std::make_unique<PassEval>(c, hw, o, PassShape{Phase::decode, o.batch, 1, o.prompt}, whole);
    decode_batch_ = o.batch;
  }
  r.step_seconds.reserve(size_t(o.generate - 1));
  for (int64_t j = 1; j < o.generate; ++j) { // step j feeds output token j at KV length P+j-1
    decode_->set_context(o.prompt + j - 1);
    r.step_seconds.push_back(decode_->seconds());
    const Totals &t = decode_->totals();
    energy += t.energy_joules;
    compute += t.seconds_compute_bound;
    memory += t.seconds_memory_bound;
    overhead += t.seconds_overhead_bound;
  }
  r.decode_bound = main_bound(compute, memory, overhead);
  if (!r.step_seconds.empty()) {
    r.tpot_first = r.step_seconds.front();
    r.tpot_last = r.step_seconds.back();
    r.tpot_mean = mean_step_seconds(r.step_seconds);
  }
  if (o.layer_tables) { // the whole graphs (those of a calibrated run are already whole)
    r.prefill = whole ? prefill.release() : PassEval(c, hw, o, first, true).release();
    if (o.generate > 1) {
      r.last_decode =
          whole ? decode_->release()
                : PassEval(c, hw, o,
                           PassShape{Phase::decode, o.batch, 1, o.prompt + o.generate - 2}, true)
                      .release();
      if (whole)
        decode_.reset(); // (spent)
    }
  }
  r.e2e = r.ttft + std::accumulate(r.step_seconds.begin(), r.step_seconds.end(), 0.0);
  r.tokens_per_second_request = double(o.generate) / r.e2e;
  r.tokens_per_second_batch = double(o.batch * o.generate) / r.e2e;
  r.energy_joules_request = energy / double(o.batch);
  r.energy_joules_per_token = energy / double(o.batch * o.generate);
  return r;
}

} // namespace perfmodel::llm
