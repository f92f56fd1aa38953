// CTA tiles, waves and split-K of a GEMM or implicit-GEMM convolution on a GPU
// (docs/gpu_model.md, "Tiles, waves and split-K").
//
// A call of C[m x n] = A[m x k] B[k x n] (per group) runs as ceil(m/tm) * ceil(n/tn) * groups
// CTAs of one tile, each over k / splits of the reduction when the K dimension is split. An SM
// runs resident_ctas(tile) CTAs at once, so the GPU has sms * resident slots, filled in
//   waves = ceil(tiles * splits / slots),
// and the call costs the work of every slot of every wave:
//   work = waves * slots * tm * tn * ceil(k / splits)   (multiply-adds)
// against the useful m * n * k * groups. Split-K is tried only when the tiles do not fill the
// slots (tiles < slots), each split keeps at least kMinSplitK of the reduction, and the split
// CTAs fill at most two waves (tiles * splits <= 2 * slots); its partial sums (fp32) are
// written and read back once: 8 * m * n * groups * splits bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "perfmodel/targets/gpu/arch.hpp"

namespace perfmodel::gpu {

inline constexpr int kSplitKCandidates[] = {1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr double kMinSplitK = 128;

/// One (tile, splits) configuration of a call.
struct TileChoice {
  CtaTile tile;
  int splits = 1;
  double tiles = 0;       // CTAs of the tile over the whole call, before the split
  double waves = 0;       // ceil(tiles * splits / slots)
  double work = 0;        // multiply-adds the waves cost (file comment)
  double useful = 0;      // m * n * k * groups
  double split_bytes = 0; // the partial sums' traffic (0 without a split)
  double k_per_split = 0; // ceil(k / splits)
};

/// The rates a choice is judged by: the class's fitted peak (FLOP/s of the useful work), its
/// bandwidth and Hockney sizes over one tile (m_half, n_half on the tile, k_half on k per
/// split). peak 0: judged by the work alone.
struct TileRates {
  double peak = 0, bandwidth = 0;
  double m_half = 0, n_half = 0, k_half = 0;
};

/// The configuration of (tile, splits) over `sms` SMs.
TileChoice tile_choice(const CtaTile &t, int splits, int sms, double m, double n, double k,
                       double groups);

/// Whether `splits` is allowed for tile `t` (file comment; 1 always is).
bool split_allowed(const CtaTile &t, int splits, int sms, double m, double n, double k,
                   double groups);

/// The configuration the GPU runs, as the model sees it: the one with the least time
/// max(2 * work / (peak * hockney), (traffic_bytes + split_bytes) / bandwidth) at `r`, or with
/// `r` null or r->peak 0, the least work; ties go to fewer splits, then to the tile listed first
/// (the larger). `tiles` must not be empty.
TileChoice choose_tiles(const std::vector<CtaTile> &tiles, int sms, double m, double n, double k,
                        double groups, double traffic_bytes, const TileRates *r);

} // namespace perfmodel::gpu
