// The allocator of every CPU tensor and benchmark buffer: 64-byte aligned, and large buffers on
// 2 MiB transparent huge pages.
//
// Why huge pages: a forward pass sweeps hundreds of MB of weights and activations, and with
// 4 KiB pages every layer starts with TLB misses on its operands (a nested page walk in a VM).
// Frameworks avoid that the same way (PyTorch's CPU allocator, THP_MEM_ALLOC_ENABLE). Where the
// kernel's THP setting is "never", madvise is a no-op and the buffers are ordinary pages.
#pragma once

#include <cstddef>
#include <new>

namespace perfmodel::kernels::cpu {

/// Buffers of at least this many bytes are 2 MiB aligned and advised MADV_HUGEPAGE.
inline constexpr size_t kHugePageThresholdBytes = size_t(1) << 20;

/// Makes glibc keep freed heap memory for reuse (mallopt: mmap threshold 32 MiB, trim threshold
/// 1 GiB), once per process. Eigen's GEMM allocates its packing buffers on every call; with
/// glibc's defaults a buffer at the top of the heap is returned to the kernel on free and
/// faulted in again on the next call, which measured +25-40% on 1x1 convolutions of ResNet-50
/// in a fresh process (none in a process whose heap was already grown). Called by the timing
/// entry points (microbenchmarks, measure) so that both run in the same allocator state.
void retain_freed_heap_memory();

void *host_allocate(size_t bytes); // throws std::bad_alloc
void host_free(void *p, size_t bytes) noexcept;

template <class T> struct HostAllocator {
  using value_type = T;
  HostAllocator() = default;
  template <class U> HostAllocator(const HostAllocator<U> &) {}
  T *allocate(size_t n) { return static_cast<T *>(host_allocate(n * sizeof(T))); }
  void deallocate(T *p, size_t n) noexcept { host_free(p, n * sizeof(T)); }
  template <class U> bool operator==(const HostAllocator<U> &) const { return true; }
};

} // namespace perfmodel::kernels::cpu
