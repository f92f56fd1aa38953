// CTA tiles, waves and split-K (include/perfmodel/targets/gpu/tiles.hpp).
#include "perfmodel/targets/gpu/tiles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfmodel::gpu {

TileChoice tile_choice(const CtaTile &t, int splits, int sms, double m, double n, double k,
                       double groups) {
  TileChoice c;
  c.tile = t;
  c.splits = splits;
  c.tiles = std::ceil(m / t.m) * std::ceil(n / t.n) * groups;
  const double slots = double(std::max(1, sms)) * resident_ctas(t);
  c.waves = std::ceil(c.tiles * splits / slots);
  c.k_per_split = std::ceil(k / splits);
  c.work = c.waves * slots * double(t.m) * double(t.n) * c.k_per_split;
  c.useful = m * n * k * groups;
  c.split_bytes = splits > 1 ? 8.0 * m * n * groups * splits : 0.0;
  return c;
}

bool split_allowed(const CtaTile &t, int splits, int sms, double m, double n, double k,
                   double groups) {
  if (splits <= 1)
    return true;
  const double tiles = std::ceil(m / t.m) * std::ceil(n / t.n) * groups;
  const double slots = double(std::max(1, sms)) * resident_ctas(t);
  return tiles < slots && k / splits >= kMinSplitK && tiles * splits <= 2.0 * slots;
}

TileChoice choose_tiles(const std::vector<CtaTile> &tiles, int sms, double m, double n, double k,
                        double groups, double traffic_bytes, const TileRates *r) {
  const bool timed = r && r->peak > 0;
  TileChoice best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int splits : kSplitKCandidates)
    for (const CtaTile &t : tiles) {
      if (!split_allowed(t, splits, sms, m, n, k, groups))
        continue;
      const TileChoice c = tile_choice(t, splits, sms, m, n, k, groups);
      double cost = c.work;
      if (timed) {
        const double hockney = t.m / (t.m + r->m_half) * (t.n / (t.n + r->n_half)) *
                               (c.k_per_split / (c.k_per_split + r->k_half));
        const double compute = 2 * c.work / (r->peak * hockney);
        const double memory =
            r->bandwidth > 0 ? (traffic_bytes + c.split_bytes) / r->bandwidth : 0.0;
        cost = std::max(compute, memory);
      }
      // A later candidate (more splits, a smaller tile) must be clearly cheaper.
      if (cost < best_cost * (1 - 1e-9)) {
        best = c;
        best_cost = cost;
      }
    }
  return best;
}

} // namespace perfmodel::gpu
