#include "claimrag/pretrained/freed_memory_reuse.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace claimrag::pretrained {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  // Setting these thresholds turns off glibc's own adjustment of them; 256 MB keeps every
  // weight but the largest embedding tables (128,100 × 768 floats are 393 MB) and every
  // activation in the reusable heap.
  static const bool kept = [] {
    constexpr int kThreshold = 256 << 20;
    mallopt(M_MMAP_THRESHOLD, kThreshold);
    mallopt(M_TRIM_THRESHOLD, kThreshold);
    return true;
  }();
  (void)kept;
#endif
}

}  // namespace claimrag::pretrained
