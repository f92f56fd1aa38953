// The one reader of a pool's window (perfmodel/pool_window.hpp).
#include "perfmodel/pool_window.hpp"

#include "core/shape_rules.hpp"
#include "perfmodel/error.hpp"

namespace perfmodel {

PoolWindow pool_window(const Shape &in, const Shape &out, const Attributes &attrs) {
  if (in.size() != 4 || out.size() != 4)
    throw InputError("a 2-D pool needs rank-4 (NCHW) input and output");
  const Window2d w = window_attrs(attrs, true);
  PoolWindow p;
  p.h = in[2], p.w = in[3], p.oh = out[2], p.ow = out[3];
  p.kh = w.kernel[0], p.kw = w.kernel[1], p.sh = w.stride[0], p.sw = w.stride[1];
  p.pad_top = w.pad[0], p.pad_left = w.pad[1], p.dh = w.dilation[0], p.dw = w.dilation[1];
  return p;
}

} // namespace perfmodel
