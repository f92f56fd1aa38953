// The sweep of a language model (perfmodel/llm/sweep.hpp): one serve() per point, on one server
// per hardware, data type and split, batch by batch (a server keeps the decode pass of its last
// batch).
#include "perfmodel/llm/sweep.hpp"

#include <algorithm>

#include "perfmodel/llm/parallel_serve.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel::llm {

int64_t LlmSweepResult::evaluated() const {
  return int64_t(std::count_if(points.begin(), points.end(),
                               [](const LlmSweepPoint &p) { return !p.skipped; }));
}

int64_t LlmSweepResult::skipped() const { return int64_t(points.size()) - evaluated(); }

namespace {

std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t k = 1; k <= n; ++k)
    if (n % k == 0)
      d.push_back(k);
  return d;
}

ParallelSplit split_of(int64_t tp, int64_t pp) {
  ParallelSplit s;
  s.tp = tp;
  s.pp = pp;
  return s;
}

void fill(LlmSweepPoint &pt, const ServeResult &r) {
  pt.ttft_seconds = r.ttft;
  if (!r.step_seconds.empty())
    pt.tpot_mean_seconds = r.tpot_mean;
  pt.e2e_seconds = r.e2e;
  pt.tokens_per_second_request = r.tokens_per_second_request;
  pt.tokens_per_second_batch = r.tokens_per_second_batch;
  pt.tokens_per_second_per_gpu = r.tokens_per_second_batch;
  pt.weights_bytes = r.weight_bytes;
  pt.kv_cache_bytes = r.kv_cache_bytes;
  pt.memory_bytes = r.total_bytes;
  pt.memory_capacity_bytes = r.capacity_bytes;
  pt.fits_in_memory = r.fits;
  pt.max_batch = r.max_batch;
}

void fill(LlmSweepPoint &pt, const ParallelServeResult &r, const HwSpec &hw) {
  pt.ttft_seconds = r.ttft;
  if (pt.generate > 1)
    pt.tpot_mean_seconds = r.tpot_mean;
  pt.e2e_seconds = r.e2e;
  pt.tokens_per_second_request = double(pt.generate) / r.e2e; // as serve() defines it
  pt.tokens_per_second_batch = r.tokens_per_second_batch;
  pt.tokens_per_second_per_gpu = r.tokens_per_second_batch / double(r.devices);
  pt.weights_bytes = r.weight_bytes_device;
  pt.kv_cache_bytes = r.kv_cache_bytes_device;
  pt.memory_bytes = r.total_bytes_device;
  pt.memory_capacity_bytes = hw.dram().capacity_bytes;
  pt.fits_in_memory = r.fits;
  pt.max_batch = r.max_batch;
}

} // namespace

std::vector<ParallelSplit> sweep_splits(const LlmSweepSpec &s) {
  std::vector<ParallelSplit> out;
  if (s.gpus.empty()) {
    for (int64_t tp : s.tps.empty() ? std::vector<int64_t>{1} : s.tps)
      for (int64_t pp : s.pps.empty() ? std::vector<int64_t>{1} : s.pps)
        out.push_back(split_of(tp, pp));
    return out;
  }
  for (int64_t g : s.gpus) {
    if (g < 1 || g > (int64_t(1) << 20))
      throw InputError("--gpus must be from 1 to 1048576, not " + std::to_string(g));
    size_t found = 0;
    for (int64_t tp : s.tps.empty() ? divisors(g) : s.tps)
      for (int64_t pp : s.pps.empty() ? divisors(g) : s.pps)
        if (tp * pp == g) {
          out.push_back(split_of(tp, pp));
          ++found;
        }
    if (found == 0)
      throw InputError("--gpus " + std::to_string(g) + ": no --tp x --pp of the axes makes " +
                       std::to_string(g) + " devices");
  }
  return out;
}

LlmSweepResult run_llm_sweep(const LlmConfig &c, const LlmSweepSpec &s) {
  if (s.hardware.empty())
    throw InputError("sweep: no hardware given");
  for (auto [axis, values] : {std::pair{"--dtype", s.dtypes.size()},
                              {"--batch", s.batches.size()},
                              {"--prompt", s.prompts.size()},
                              {"--generate", s.generates.size()}})
    if (values == 0)
      throw InputError(std::string("sweep: no ") + axis + " value given");
  const std::vector<ParallelSplit> splits = sweep_splits(s);
  const size_t H = s.hardware.size(), D = s.dtypes.size(), S = splits.size(), P = s.prompts.size(),
               G = s.generates.size(), B = s.batches.size();
  const double n = double(H) * double(D) * double(S) * double(P) * double(G) * double(B);
  if (n > double(kMaxSweepPoints))
    throw InputError("sweep: " + std::to_string(int64_t(n)) + " points is more than the limit of " +
                     std::to_string(kMaxSweepPoints));
  LlmSweepResult result;
  result.model = c.name;
  result.config = c.loc.file;
  result.options = s.serve;
  result.points.resize(size_t(n));
  // hw-major, then dtype, split, prompt, generate, batch (the plots' curves run over the batch)
  const auto at = [&](size_t h, size_t d, size_t sp, size_t p, size_t g, size_t b) {
    return ((((h * D + d) * S + sp) * P + p) * G + g) * B + b;
  };
  for (size_t h = 0; h < H; ++h)
    for (size_t d = 0; d < D; ++d)
      for (size_t sp = 0; sp < S; ++sp)
        for (size_t p = 0; p < P; ++p)
          for (size_t g = 0; g < G; ++g)
            for (size_t b = 0; b < B; ++b) {
              LlmSweepPoint &pt = result.points[at(h, d, sp, p, g, b)];
              pt.hw = s.hardware[h].name;
              pt.dtype = s.dtypes[d];
              pt.tp = splits[sp].tp;
              pt.pp = splits[sp].pp;
              pt.gpus = splits[sp].devices(false);
              pt.prompt = s.prompts[p];
              pt.generate = s.generates[g];
              pt.batch = s.batches[b];
            }

  for (size_t h = 0; h < H; ++h)
    for (size_t d = 0; d < D; ++d)
      for (size_t sp = 0; sp < S; ++sp) {
        const HwSpec &hw = s.hardware[h];
        ServeOptions o = s.serve;
        o.dtype = s.dtypes[d];
        o.layer_tables = false;
        const ParallelSplit &split = splits[sp];
        const bool one = split.devices(false) == 1;
        std::optional<std::string> split_error;
        if (!one && o.weights)
          split_error = "--weight-dtype: quantised weights are modelled on one device only";
        if (!one && !split_error) {
          try {
            check_split(c, split);
          } catch (const InputError &e) {
            split_error = e.message();
          }
        }
        std::optional<Server> server;
        if (one)
          server.emplace(c, hw, o);
        // batch by batch: a server keeps the decode pass of its last batch
        for (size_t b = 0; b < B; ++b)
          for (size_t p = 0; p < P; ++p)
            for (size_t g = 0; g < G; ++g) {
              LlmSweepPoint &pt = result.points[at(h, d, sp, p, g, b)];
              if (pt.batch < 1) {
                pt.skipped = "batch " + std::to_string(pt.batch) + " is less than 1";
                continue;
              }
              if (split_error) {
                pt.skipped = *split_error;
                continue;
              }
              try {
                if (one) {
                  fill(pt, server->serve(pt.batch, pt.prompt, pt.generate));
                } else {
                  ParallelServeOptions po;
                  po.serve = o;
                  po.serve.batch = pt.batch;
                  po.serve.prompt = pt.prompt;
                  po.serve.generate = pt.generate;
                  po.split = split;
                  po.comm = s.comm;
                  fill(pt, serve_parallel(c, hw, po), hw);
                }
              } catch (const InputError &e) { // beyond the positions, no unit for the dtype
                pt.skipped = e.message();
              }
            }
      }
  return result;
}

} // namespace perfmodel::llm
