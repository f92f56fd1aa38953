// Aligned host allocation with transparent huge pages for large buffers (see the header).
#include "perfmodel/kernels/cpu/host_allocator.hpp"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdlib>
#include <mutex>

namespace perfmodel::kernels::cpu {

namespace {
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kLine = 64;

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }
} // namespace

void retain_freed_heap_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // the largest glibc accepts on 64-bit
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  });
}

void *host_allocate(size_t bytes) {
  const bool huge = bytes >= kHugePageThresholdBytes;
  const size_t align = huge ? kHugePage : kLine;
  const size_t size = round_up(bytes == 0 ? 1 : bytes, align);
  void *p = std::aligned_alloc(align, size);
  if (!p)
    throw std::bad_alloc();
  if (huge)
    madvise(p, size, MADV_HUGEPAGE); // advice only: failure leaves ordinary pages
  return p;
}

void host_free(void *p, size_t) noexcept { std::free(p); }

} // namespace perfmodel::kernels::cpu
