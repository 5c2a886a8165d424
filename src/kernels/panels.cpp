#include "claimrag/kernels/panels.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace claimrag::kernels {

namespace {
constexpr std::size_t kAlignment = 64;
}  // namespace

void FreeAligned::operator()(float* data) const { std::free(data); }

AlignedFloats allocate_aligned(std::size_t floats) {
  // Rounded up to whole lines (aligned_alloc requires it), at least one.
  const std::size_t bytes = std::max<std::size_t>(1, (floats * sizeof(float) + kAlignment - 1) / kAlignment) * kAlignment;
  void* data = std::aligned_alloc(kAlignment, bytes);
  if (data == nullptr) throw std::bad_alloc();
  return AlignedFloats(static_cast<float*>(data));
}

}  // namespace claimrag::kernels
