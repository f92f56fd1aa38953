// The executor's `reuse` memory plan: which buffer each layer output of a forward pass lives
// in. Stated once, here: the executor's buffer pool (kernels/cpu/buffer_pool.hpp) gives every
// output the buffer this plan assigns, and the model follows it to know what a layer's output
// overwrites (input_cross_core_bytes).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "perfmodel/graph.hpp"

namespace perfmodel {

/// Which of the free buffers (capacities in elements, in the order they were given back) a
/// request for n elements takes: the most recently given back one that fits without wasting more
/// than half of it (the one most likely still in cache), else the smallest one that fits; npos:
/// none fits, a new buffer is allocated.
size_t pick_free_buffer(const std::vector<size_t> &free_capacities, size_t n);

struct BufferAssignment {
  std::map<std::string, int> buffer_of; // layer outputs (views: their input's) -> buffer id
  std::vector<size_t> capacity;         // per buffer id, elements
};

/// The `reuse` plan of a forward pass of g, as the executor prepares it layer by layer: each
/// output takes a buffer (pick_free_buffer); a view (flatten, reshape, dropout, identity) of an
/// equal-sized input shares its input's; once the last layer reading a buffer's tensors has been
/// prepared, the buffer is given back (buffers freed by the same layer in the order they were
/// taken). Graph inputs, constants and views of them hold no pool buffer and are absent.
BufferAssignment plan_reused_buffers(const Graph &g);

} // namespace perfmodel
