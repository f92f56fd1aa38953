// Max and average pooling (windowed and global), NCHW fp32, one plane per task.
#pragma once

#include <cstdint>

namespace perfmodel::kernels::cpu {

/// Window geometry; padding per side (top/left), output size given (ceil mode is already in
/// oh/ow: windows that start in the padding past the input are clipped to the input).
struct PoolGeom {
  int64_t n = 1, c = 0, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, pad_top = 0, pad_left = 0, dh = 1, dw = 1;
  bool count_include_pad = false; // average pool: divide by the full window, pads included
};

/// True when the one window is exactly the input plane, starting at its top-left corner (NIN's
/// 7x7 average pool on 7x7 planes; bottom/right pads, never reached, do not matter):
/// max_pool / avg_pool then run global_pool, and perfmodel::op_class_of classes such a layer
/// `reduce` by the same rule.
bool covers_plane(const PoolGeom &g);

void max_pool(const PoolGeom &g, const float *in, float *out);
void avg_pool(const PoolGeom &g, const float *in, float *out);
/// in [n, c, h, w] -> out [n, c]: mean or max over each plane.
void global_pool(int64_t planes, int64_t plane_size, bool max, const float *in, float *out);

} // namespace perfmodel::kernels::cpu
