#pragma once
// Runs a tile kernel over every stacked row: tiles of MaxRows rows, then one of the rows left
// (or two, below).
// The kernel is a class template over its row count whose static run(first_row, args...) keeps
// that many rows' accumulators in registers; the last tile runs the instance for fewer rows, with
// the same arithmetic per element, so a row's result does not depend on where its tile starts.

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include <Eigen/Core>

namespace claimrag::kernels {

// A tile of fewer than FullRateRows rows has too few independent chains to keep the multiply-add
// pipes busy (each step waits for the previous one's latency), so a short last tile costs almost
// as much as a full one: when the rows left after the full tiles are that few, the last full tile
// and they are split into two tiles of nearly equal size instead (6 + 2 rows as 4 + 4).
template <template <int> class Tile, int MaxRows, int FullRateRows = 1, typename... Args>
void over_row_tiles(Eigen::Index rows, const Args&... args) {
  static constexpr auto by_rows = []<int... Less>(std::integer_sequence<int, Less...>) {
    return std::array<void (*)(Eigen::Index, const Args&...), MaxRows>{&Tile<Less + 1>::run...};
  }(std::make_integer_sequence<int, MaxRows>{});
  const auto run = [&](Eigen::Index first, Eigen::Index count) {
    by_rows[static_cast<std::size_t>(count - 1)](first, args...);
  };
  const Eigen::Index rest = rows % MaxRows;
  const bool split_last = rest != 0 && rest < FullRateRows && rows > MaxRows;
  const Eigen::Index full_end = rows - rest - (split_last ? MaxRows : 0);
  for (Eigen::Index row = 0; row < full_end; row += MaxRows) run(row, MaxRows);
  if (split_last) {
    const Eigen::Index first_part = (MaxRows + rest + 1) / 2;
    run(full_end, first_part);
    run(full_end + first_part, MaxRows + rest - first_part);
  } else if (rest != 0) {
    run(full_end, rest);
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
