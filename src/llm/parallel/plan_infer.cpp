// The serving plan search (perfmodel/llm/plan_infer.hpp, docs/parallel.md "Plan: serving").
#include "perfmodel/llm/plan_infer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>
#include <tuple>

#include "perfmodel/llm/plan.hpp"

namespace perfmodel::llm {

namespace {

struct Todo {
  ParallelSplit split; // dp 1: serve_parallel's; the replicas are `replicas`
  int64_t replicas = 1, replica_batch = 0, microbatch = 0;
  size_t shape = 0; // index into the device passes
};

// What serve_parallel_from reads of a device's passes: its times (the passes' graphs and
// predictions stay with the search's copy).
ServeResult times_of(const ServeResult &r) {
  ServeResult t;
  t.options = r.options;
  t.ttft = r.ttft;
  t.tpot_first = r.tpot_first;
  t.tpot_last = r.tpot_last;
  t.tpot_mean = r.tpot_mean;
  t.e2e = r.e2e;
  return t;
}

void check(const LlmConfig &c, const InferPlanOptions &o) {
  for (auto [opt, v] : {std::pair{"--gpus", o.gpus},
                        {"--batch", o.batch},
                        {"--prompt", o.prompt},
                        {"--generate", o.generate}})
    if (v < 1)
      throw InputError(std::string(opt) + " must be at least 1, not " + std::to_string(v));
  // the passes run positions 0 ... P + G - 2: the last output token is never fed back
  if (o.prompt + o.generate - 1 > c.max_positions)
    throw InputError("--prompt + --generate - 1 (" + std::to_string(o.prompt + o.generate - 1) +
                     " positions) exceeds the model's max_position_embeddings (" +
                     std::to_string(c.max_positions) + ")");
}

} // namespace

InferPlanResult plan_inference(const LlmConfig &c, const HwSpec &hw, const InferPlanOptions &o) {
  const auto t0 = std::chrono::steady_clock::now();
  check(c, o);
  InferPlanResult res;
  res.capacity = hw.dram().capacity_bytes;

  // the splits, and the device shapes (tp, ep, microbatch) they need
  std::vector<Todo> todo;
  std::vector<std::tuple<int64_t, int64_t, int64_t>> shapes;
  for (int64_t tp : divisors(o.gpus))
    for (int64_t pp : divisors(o.gpus / tp)) {
      std::vector<int64_t> eps{1};
      if (c.experts > 0)
        eps = divisors(o.gpus / tp / pp);
      for (int64_t ep : eps) {
        ++res.enumerated;
        const int64_t dp = o.gpus / tp / pp / ep;
        const ParallelSplit s{tp, pp, 1, ep, false, 1};
        if (const std::string why = invalid_reason(c, s); !why.empty()) {
          ++res.dropped[why];
          continue;
        }
        if (o.batch % (dp * pp * ep) != 0) {
          ++res.dropped["dp x pp x ep does not divide the batch"];
          continue;
        }
        Todo t{s, dp, o.batch / dp, o.batch / dp / pp, 0};
        const auto key = std::tuple{tp, ep, t.microbatch};
        const auto it = std::find(shapes.begin(), shapes.end(), key);
        t.shape = size_t(it - shapes.begin());
        if (it == shapes.end())
          shapes.push_back(key);
        todo.push_back(t);
      }
    }
  res.device_shapes = int64_t(shapes.size());

  ServeOptions so;
  so.prompt = o.prompt;
  so.generate = o.generate;
  so.dtype = o.dtype;
  so.kv_dtype = o.kv_dtype;
  so.attention = o.attention;
  so.calibration = o.calibration;

  // the device passes, spread over the threads (the search's cost: every decode step of each)
  std::vector<ServeResult> device(shapes.size());
  std::vector<std::exception_ptr> failed(shapes.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < shapes.size(); i = next++) {
      const auto [tp, ep, micro] = shapes[i];
      ServeOptions local = so;
      local.batch = micro / ep;
      try {
        device[i] = times_of(
            serve(shard_config(c, ParallelSplit{tp, 1, 1, ep, false, 1}, c.layers), hw, local));
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  const int threads = std::max(1, std::min<int>(o.threads, int(shapes.size())));
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i)
    pool.emplace_back(work);
  work();
  for (auto &th : pool)
    th.join();
  for (const auto &e : failed)
    if (e)
      std::rethrow_exception(e); // the same for every split (a data type the device lacks)

  for (const Todo &t : todo) {
    ParallelServeOptions po;
    po.serve = so;
    po.serve.batch = t.microbatch;
    po.split = t.split;
    po.comm = o.comm;
    ParallelServeResult r;
    try {
      r = serve_parallel_from(c, hw, po, device[t.shape]);
    } catch (const InputError &) { // a group the interconnect does not reach
      ++res.dropped["the interconnect cannot reach a group"];
      continue;
    }
    InferCandidate k;
    k.split = t.split;
    k.split.dp = t.replicas;
    k.replica_batch = t.replica_batch;
    k.microbatch = t.microbatch;
    k.memory = double(r.weight_bytes_device) + double(t.split.pp) * double(r.kv_cache_bytes_device);
    if (k.memory > res.capacity) {
      ++res.dropped["does not fit in memory"];
      continue;
    }
    k.ttft = r.ttft;
    k.tpot = r.tpot_mean;
    k.e2e = r.e2e;
    k.tokens_per_second = double(t.replicas) * r.tokens_per_second_pipelined;
    k.tokens_per_second_per_device = k.tokens_per_second / double(o.gpus);
    k.comm = r.prefill_comm_seconds + double(o.generate - 1) * r.decode_comm_seconds;
    res.ranked.push_back(k);
  }
  std::sort(res.ranked.begin(), res.ranked.end(),
            [](const InferCandidate &a, const InferCandidate &b) {
              if (a.tokens_per_second_per_device != b.tokens_per_second_per_device)
                return a.tokens_per_second_per_device > b.tokens_per_second_per_device;
              return a.tpot != b.tpot ? a.tpot < b.tpot : a.memory < b.memory;
            });
  // the frontier of throughput against latency: walking the most tokens/s first, a split is
  // on it when its TPOT is below that of every split with more tokens/s
  double lowest = 1e300;
  for (InferCandidate &k : res.ranked)
    if (k.tpot < lowest) {
      k.frontier = true;
      lowest = k.tpot;
    }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

} // namespace perfmodel::llm
