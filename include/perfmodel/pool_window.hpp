// A windowed pool's geometry over one input plane, and its two special cases, stated once: the
// CPU executor's kernels (kernels/cpu/pool.cpp) run them on other code paths, and the efficiency
// model (op_class_of) gives them those paths' op classes.
#pragma once

#include <cstdint>

#include "perfmodel/graph.hpp"

namespace perfmodel {

/// One plane's pooling window: input h x w, output oh x ow (ceil mode already in them), window
/// kh x kw at stride sh x sw and dilation dh x dw, padding at the top and left (the bottom and
/// right padding only shows in oh and ow).
struct PoolWindow {
  int64_t h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, pad_top = 0, pad_left = 0, dh = 1, dw = 1;
};

/// The window of a 2-D pool from NCHW `in` to `out` with the layer's attributes (kernel; stride,
/// by default the kernel; dilation; pad), read as shape inference reads them. The one reader
/// of a pool's window, for the executor (kernels/cpu) and the efficiency model. Throws
/// InputError where shape inference would (bad attributes), and for shapes of another rank.
PoolWindow pool_window(const Shape &in, const Shape &out, const Attributes &attrs);

/// The one window is exactly the input plane, starting at its top-left corner (NIN's 7x7
/// average pool on 7x7 planes): a global pool, one streaming pass per plane (op class
/// `reduce`). Bottom and right padding is never reached, so it does not matter; a larger window
/// would reach into it, which an average pool that counts pads divides by.
inline bool pool_covers_plane(const PoolWindow &p) {
  return p.oh == 1 && p.ow == 1 && p.pad_top == 0 && p.pad_left == 0 && p.dh == 1 && p.dw == 1 &&
         p.kh == p.h && p.kw == p.w && p.h > 0 && p.w > 0;
}

/// A 1x1 window at stride 1 without padding, the output the input's size: every element maps to
/// itself (PyTorch's adaptive pools to the input's own size export this way, e.g. VGG-16's
/// 7x7 -> 7x7), so the pool is a copy (op class `data_movement`).
inline bool pool_is_identity(const PoolWindow &p) {
  return p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && p.pad_top == 0 && p.pad_left == 0 &&
         p.oh == p.h && p.ow == p.w;
}

} // namespace perfmodel
