#pragma once
// Runs a tile kernel over every stacked row: tiles of MaxRows rows, then one of the rows left.
// The kernel is a class template over its row count whose static run(first_row, args...) keeps
// that many rows' accumulators in registers; the last tile runs the instance for fewer rows, with
// the same arithmetic per element, so a row's result does not depend on where its tile starts.

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include <Eigen/Core>

namespace claimrag::kernels {

template <template <int> class Tile, int MaxRows, typename... Args>
void over_row_tiles(Eigen::Index rows, const Args&... args) {
  static constexpr auto by_rows = []<int... Less>(std::integer_sequence<int, Less...>) {
    return std::array<void (*)(Eigen::Index, const Args&...), MaxRows>{&Tile<Less + 1>::run...};
  }(std::make_integer_sequence<int, MaxRows>{});
  for (Eigen::Index row = 0; row < rows; row += MaxRows) {
    by_rows[static_cast<std::size_t>(std::min<Eigen::Index>(MaxRows, rows - row) - 1)](row, args...);
  }
}

/// The lanes of a 32-output panel's two 16-lane halves that hold outputs, when only `columns` of
/// the panel's outputs exist (the AVX-512 kernels' store masks).
struct PanelHalfMasks {
  std::uint16_t low;
  std::uint16_t high;
};

constexpr PanelHalfMasks panel_half_masks(Eigen::Index columns) {
  const auto lanes = [](Eigen::Index count) {
    return static_cast<std::uint16_t>(count >= 16 ? 0xFFFFU : count <= 0 ? 0U : (1U << count) - 1U);
  };
  return {lanes(columns), lanes(columns - 16)};
}

}  // namespace claimrag::kernels
