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

// Inputs by rows, each panel line is 32 neighbouring floats of one row; outputs by rows, each row
// fills one column of a panel.
void pack_panels(const float* data, std::ptrdiff_t stride, PanelSource source, Eigen::Index depth,
                 Eigen::Index outputs, float* panels) {
  for (Eigen::Index p = 0; p < panel_count(outputs); ++p) {
    float* panel = panels + p * depth * kPanelWidth;
    const Eigen::Index first = p * kPanelWidth;
    const Eigen::Index width = std::min(kPanelWidth, outputs - first);
    if (width < kPanelWidth) std::fill(panel, panel + depth * kPanelWidth, 0.0F);
    if (source == PanelSource::inputs_by_rows) {
      for (Eigen::Index k = 0; k < depth; ++k) std::copy_n(data + k * stride + first, width, panel + k * kPanelWidth);
    } else {
      for (Eigen::Index j = 0; j < width; ++j) {
        const float* row = data + (first + j) * stride;
        for (Eigen::Index k = 0; k < depth; ++k) panel[k * kPanelWidth + j] = row[k];
      }
    }
  }
}

}  // namespace claimrag::kernels
