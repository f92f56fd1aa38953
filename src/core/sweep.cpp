// The sweep itself: one prediction and one memory footprint per point of hw x dtype x batch x pass.
#include <set>

#include "perfmodel/memory_footprint.hpp"
#include "perfmodel/sweep.hpp"

namespace perfmodel {

Graph rebatch(const Graph &g, int64_t batch) {
  Graph out = g;
  // Layer outputs are re-derived from the new inputs; leaving the old shapes in place would
  // make infer_shapes check them against the rule (they were inferred at the old batch).
  for (const Layer &l : out.layers)
    for (const std::string &o : l.outputs)
      out.tensors.erase(o);
  set_batch(out, batch);
  infer_shapes(out);
  return out;
}

namespace {

/// Indexing of the result: hw-major, then dtype, batch, pass (the order the user wrote).
struct Grid {
  size_t h, d, b, p;
  size_t at(size_t hi, size_t di, size_t bi, size_t pi) const {
    return ((hi * d + di) * b + bi) * p + pi;
  }
};

void fill(SweepPoint &pt, const Prediction &pred, const MemoryFootprint &mem, const HwSpec &hw) {
  const Totals &t = pred.totals;
  pt.latency_seconds = t.predicted_seconds;
  pt.flops = t.cost.flops;
  pt.bytes = t.cost.bytes();
  pt.arithmetic_intensity = pt.bytes ? double(pt.flops) / double(pt.bytes) : 0.0;
  if (t.predicted_seconds > 0) {
    pt.throughput_samples_per_second = double(pt.batch) / t.predicted_seconds;
    pt.flops_per_second = double(pt.flops) / t.predicted_seconds;
    pt.share_compute_bound = t.seconds_compute_bound / t.predicted_seconds;
    pt.share_memory_bound = t.seconds_memory_bound / t.predicted_seconds;
    pt.share_overhead_bound = t.seconds_overhead_bound / t.predicted_seconds;
  }
  pt.energy_joules = t.energy_joules;
  pt.energy_per_sample_joules = t.energy_joules / double(pt.batch);
  pt.samples_per_joule = t.energy_joules > 0 ? double(pt.batch) / t.energy_joules : 0.0;
  pt.average_power_watts = t.predicted_seconds > 0 ? t.energy_joules / t.predicted_seconds : 0.0;
  pt.flops_per_second_per_watt = t.energy_joules > 0 ? double(pt.flops) / t.energy_joules : 0.0;
  pt.weights_bytes = mem.weights_bytes;
  pt.activation_bytes = mem.activation_bytes;
  pt.memory_bytes = mem.total_bytes();
  const MemoryFit fit = memory_fit(mem, hw);
  pt.memory_capacity_bytes = fit.capacity_bytes;
  pt.fits_in_memory = fit.fits;
}

} // namespace

SweepResult run_sweep(const Graph &model, const SweepSpec &spec) {
  if (spec.hardware.empty())
    throw InputError("sweep: no hardware given");
  if (spec.batches.empty())
    throw InputError("sweep: no batch size given");
  if (spec.passes.empty())
    throw InputError("sweep: no pass given");
  std::vector<DType> dtypes = spec.dtypes.empty() ? std::vector<DType>{model.dtype} : spec.dtypes;
  Grid grid{spec.hardware.size(), dtypes.size(), spec.batches.size(), spec.passes.size()};
  double n = double(grid.h) * double(grid.d) * double(grid.b) * double(grid.p);
  if (n > double(kMaxSweepPoints))
    throw InputError("sweep: " + std::to_string(int64_t(n)) + " points is more than the limit of " +
                     std::to_string(kMaxSweepPoints));

  SweepResult result;
  result.model = model.name;
  result.points.resize(size_t(n));
  for (size_t hi = 0; hi < grid.h; ++hi)
    for (size_t di = 0; di < grid.d; ++di)
      for (size_t bi = 0; bi < grid.b; ++bi)
        for (size_t pi = 0; pi < grid.p; ++pi) {
          SweepPoint &pt = result.points[grid.at(hi, di, bi, pi)];
          pt.hw = spec.hardware[hi].name;
          pt.dtype = dtypes[di];
          pt.batch = spec.batches[bi];
          pt.pass = spec.passes[pi];
        }

  // Batch-outer order keeps one re-inferred graph alive at a time; the result is indexed in
  // the user's axis order regardless.
  for (size_t bi = 0; bi < grid.b; ++bi) {
    int64_t batch = spec.batches[bi];
    auto skip_batch = [&](const std::string &why) {
      for (size_t hi = 0; hi < grid.h; ++hi)
        for (size_t di = 0; di < grid.d; ++di)
          for (size_t pi = 0; pi < grid.p; ++pi)
            result.points[grid.at(hi, di, bi, pi)].skipped = why;
    };
    if (batch < 1) {
      skip_batch("batch " + std::to_string(batch) + " is less than 1");
      continue;
    }
    Graph rebatched;
    const Graph *at_batch = &model;
    try {
      if (batch != model.batch()) {
        rebatched = rebatch(model, batch);
        at_batch = &rebatched;
      }
    } catch (const InputError &e) {
      skip_batch("shapes do not hold at batch " + std::to_string(batch) + ": " + e.message());
      continue;
    }
    for (size_t di = 0; di < grid.d; ++di) {
      Graph typed;
      const Graph *g = at_batch;
      if (!spec.dtypes.empty()) {
        typed = *at_batch;
        set_dtype(typed, dtypes[di]);
        g = &typed;
      }
      for (size_t pi = 0; pi < grid.p; ++pi) {
        // Costs and footprint do not depend on the hardware: once per graph and pass.
        MemoryFootprint mem;
        std::vector<LayerCost> costs;
        Graph fused;
        const Graph *run = g;
        try {
          if (spec.fusion != Fusion::none) { // after rebatching: fusion reads the shapes
            fused = fuse(*g, spec.fusion, spec.passes[pi]);
            run = &fused;
          }
          mem = memory_footprint(*run, spec.passes[pi]);
          costs = graph_cost(*run, spec.passes[pi]);
        } catch (const InputError &e) { // a counting rule that does not hold for this graph
          for (size_t hi = 0; hi < grid.h; ++hi)
            result.points[grid.at(hi, di, bi, pi)].skipped = e.message();
          continue;
        }
        PredictOptions opts;
        opts.pass = spec.passes[pi];
        opts.calibration = spec.calibration;
        opts.fusion = spec.fusion;
        if (spec.calibration)
          for (ExtrapolatedCall &c : extrapolated_calls(*spec.calibration, *run, costs, opts.pass))
            result.extrapolated.push_back(std::move(c));
        for (size_t hi = 0; hi < grid.h; ++hi) {
          SweepPoint &pt = result.points[grid.at(hi, di, bi, pi)];
          const HwSpec &hw = spec.hardware[hi];
          try { // e.g. the hardware has no compute unit for the dtype
            fill(pt, predict(*run, hw, opts, costs), mem, hw);
          } catch (const InputError &e) {
            pt.skipped = e.message();
          }
        }
      }
    }
  }
  return result;
}

} // namespace perfmodel
