// Max and average pooling (windowed and global), NCHW fp32, one plane per task.
#pragma once

#include <cstdint>

#include "perfmodel/pool_window.hpp"

namespace perfmodel::kernels::cpu {

/// Window geometry of each of the n * c planes (perfmodel/pool_window.hpp: padding per side at
/// the top and left; the output size given, ceil mode already in oh/ow: windows that start in
/// the padding past the input are clipped to the input). A window that covers the plane
/// (pool_covers_plane) runs global_pool; an identity window (pool_is_identity), a copy.
struct PoolGeom : PoolWindow {
  int64_t n = 1, c = 0;
  bool count_include_pad = false; // average pool: divide by the full window, pads included
};

void max_pool(const PoolGeom &g, const float *in, float *out);
void avg_pool(const PoolGeom &g, const float *in, float *out);
/// in [n, c, h, w] -> out [n, c]: mean or max over each plane.
void global_pool(int64_t planes, int64_t plane_size, bool max, const float *in, float *out);

} // namespace perfmodel::kernels::cpu
