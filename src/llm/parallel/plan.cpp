// The plan search (perfmodel/llm/plan.hpp, docs/parallel.md "Plan").
#include "perfmodel/llm/plan.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <tuple>

namespace perfmodel::llm {

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t i = 1; i * i <= n; ++i)
    if (n % i == 0) {
      d.push_back(i);
      if (i != n / i)
        d.push_back(n / i);
    }
  std::sort(d.begin(), d.end());
  return d;
}

std::string invalid_reason(const LlmConfig &c, const ParallelSplit &s) {
  if (c.heads % s.tp != 0)
    return "tp does not divide the heads";
  if (c.kv_heads % s.tp != 0 && s.tp % c.kv_heads != 0)
    return "tp does not fit the KV heads";
  if (c.intermediate % s.tp != 0)
    return "tp does not divide the MLP width";
  if (c.layers % s.pp != 0)
    return "pp does not divide the layers";
  if (c.experts > 0 && s.ep > 1 &&
      (c.experts % s.ep != 0 || c.experts / s.ep < c.experts_per_token))
    return "ep does not divide the experts";
  return "";
}

PlanResult plan_training(const LlmConfig &c, const HwSpec &hw, const PlanOptions &o) {
  const auto t0 = std::chrono::steady_clock::now();
  if (o.gpus < 1)
    throw InputError("--gpus must be at least 1");
  if (o.global_batch < 1)
    throw InputError("--global-batch must be at least 1");
  if (o.seq < 1 || o.seq > c.max_positions)
    throw InputError("--seq " + std::to_string(o.seq) + " must be from 1 to the model's " +
                     "max_position_embeddings (" + std::to_string(c.max_positions) + ")");
  PlanResult res;
  res.capacity = hw.dram().capacity_bytes;
  std::vector<TrainOptions> todo;
  for (int64_t tp : divisors(o.gpus))
    for (int64_t pp : divisors(o.gpus / tp)) {
      const int64_t dp = o.gpus / tp / pp;
      std::vector<int64_t> eps{1};
      if (c.experts > 0)
        eps = divisors(dp);
      for (int64_t ep : eps) {
        ParallelSplit s{tp, pp, dp, ep, false, 1};
        if (const std::string why = invalid_reason(c, s); !why.empty()) {
          ++res.dropped[why];
          ++res.enumerated;
          continue;
        }
        if (o.global_batch % dp != 0) {
          ++res.dropped["dp does not divide the global batch"];
          ++res.enumerated;
          continue;
        }
        for (int64_t b : divisors(o.global_batch / dp)) {
          if (b > o.max_microbatch)
            break;
          for (Recompute rc : o.recompute)
            for (int sp = 0; sp <= (tp > 1 && o.seq % tp == 0 ? 1 : 0); ++sp)
              for (int64_t v = 1; v <= (pp > 1 ? o.max_interleave : 1); ++v) {
                if (c.layers % (pp * v) != 0)
                  continue;
                for (int z : o.zero) {
                  if (z > 0 && dp == 1)
                    continue;
                  TrainOptions t;
                  t.split = s;
                  t.split.sequence_parallel = sp == 1;
                  t.split.interleave = v;
                  t.global_batch = o.global_batch;
                  t.microbatch = b;
                  t.seq = o.seq;
                  t.recompute = rc;
                  t.zero = z;
                  t.dtype = o.dtype;
                  t.attention = o.attention;
                  todo.push_back(t);
                }
              }
        }
      }
    }
  res.enumerated += int64_t(todo.size());

  // layer times once per shape: they depend on tp, ep and the microbatch only
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  std::map<Key, LayerTimes> times;
  for (const TrainOptions &t : todo) {
    const Key k{t.split.tp, t.split.ep, t.microbatch};
    if (!times.count(k)) {
      TrainOptions u = t;
      u.calibration = o.calibration;
      times[k] = layer_times(c, hw, u);
    }
  }

  std::vector<PlanCandidate> out(todo.size());
  std::vector<std::string> errors(todo.size());
  auto work = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      TrainOptions t = todo[i];
      t.comm = o.comm;
      try {
        const TrainResult r =
            train_from_times(c, hw, t, times.at(Key{t.split.tp, t.split.ep, t.microbatch}));
        PlanCandidate &p = out[i];
        p.options = todo[i];
        p.step = r.step;
        p.mfu = r.mfu;
        p.tokens_per_second_per_device = r.tokens_per_second_per_device;
        p.memory = r.memory.total();
        p.compute = r.compute;
        p.recompute = r.recompute;
        p.comm = r.comm_exposed;
        p.bubble = r.bubble;
        p.optimizer = r.optimizer;
        p.fits = r.fits;
      } catch (const InputError &e) { // a group the interconnect does not reach
        errors[i] = "the interconnect cannot reach a group";
      }
    }
  };
  const int threads = std::max(1, std::min<int>(o.threads, int(out.size() / 1000) + 1));
  std::vector<std::thread> pool;
  const size_t chunk = (out.size() + size_t(threads) - 1) / size_t(threads);
  for (int i = 0; i < threads; ++i) {
    const size_t b = size_t(i) * chunk, e = std::min(out.size(), b + chunk);
    if (b < e)
      pool.emplace_back(work, b, e);
  }
  for (auto &th : pool)
    th.join();

  for (size_t i = 0; i < out.size(); ++i) {
    if (!errors[i].empty())
      ++res.dropped[errors[i]];
    else if (!out[i].fits)
      ++res.dropped["does not fit in memory"];
    else
      res.ranked.push_back(out[i]);
  }
  std::sort(res.ranked.begin(), res.ranked.end(),
            [](const PlanCandidate &a, const PlanCandidate &b) {
              return a.step != b.step ? a.step < b.step : a.memory < b.memory;
            });
  // the frontier of step time against memory: walking fastest first, a candidate is on it
  // when it needs less memory than every faster one
  double least = 1e300;
  for (PlanCandidate &p : res.ranked)
    if (p.memory < least) {
      p.frontier = true;
      least = p.memory;
    }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

} // namespace perfmodel::llm
