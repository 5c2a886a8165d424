#pragma once
// Adam that visits only the rows that have ever received a gradient.
//
// An embedding table of a 30k-token vocabulary sees a few thousand distinct tokens per batch.
// A row whose gradient has always been zero has zero moments, and torch's Adam then moves it by
// lr · 0 / (0 + ε) = 0: skipping it changes nothing. Once a row has had a gradient its moments
// decay but stay non-zero, so it is updated at every later step, exactly as dense Adam would.
// The result is therefore bit-identical to nn::Adam (same expressions, element by element),
// which the unit tests check; the saving is in never touching rows no batch reached yet.
// (Bit-identical as long as a row is a whole number of SIMD packets, e.g. 128 floats: Eigen's
// vectorised square root may differ in the last bit from the scalar one it uses on a ragged
// row end, and a whole-matrix pass and a row-by-row pass put those ends in different places.)
// Rows are visited in increasing order, so a caller that keeps its trained rows together (see
// train.hpp) streams through memory instead of jumping between scattered rows.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "claimrag/nn/adam.hpp"
#include "claimrag/nn/parameter.hpp"

namespace claimrag::dense {

template <typename Scalar>
class RowSparseAdam {
 public:
  /// Moments for every parameter of `registry`. options.weight_decay must be 0 (UsageError):
  /// a decay term would move rows without gradient, which breaks the skipping.
  RowSparseAdam(nn::ParameterRegistry<Scalar>& registry, nn::AdamOptions options);

  /// Records that rows `rows` of parameter `parameter` (registry index) may hold a non-zero
  /// gradient. Every row with a non-zero gradient must be marked before step().
  void mark_rows(std::size_t parameter, std::span<const std::int32_t> rows);
  /// Marks every row of `parameter` (for small dense parameters).
  void mark_all_rows(std::size_t parameter);

  /// One Adam update of every row marked so far, from the current gradients; rows are
  /// independent, so they are updated in parallel with results identical to one thread.
  void step();
  /// Zeroes the gradient of every row marked since the last zero_grad() (the only rows that
  /// can be non-zero when the precondition of mark_rows holds).
  void zero_grad();

  [[nodiscard]] long steps_taken() const { return step_; }
  /// Rows of `parameter` marked so far, in increasing order after each step().
  [[nodiscard]] const std::vector<std::int32_t>& active_rows(std::size_t parameter) const {
    return active_[parameter];
  }

 private:
  nn::ParameterRegistry<Scalar>& registry_;
  nn::AdamOptions options_;
  // Moments live in calloc'd memory: the pages of rows that never become active are never
  // touched, so a large vocabulary costs nothing until its rows are trained.
  struct Free {
    void operator()(Scalar* p) const noexcept { std::free(p); }
  };
  using ZeroedBuffer = std::unique_ptr<Scalar[], Free>;
  std::vector<ZeroedBuffer> first_moment_;
  std::vector<ZeroedBuffer> second_moment_;
  std::vector<std::vector<std::int32_t>> active_;
  std::vector<std::vector<char>> is_active_;
  std::vector<std::vector<std::int32_t>> pending_;  ///< marked since the last zero_grad()
  std::vector<std::vector<char>> is_pending_;
  std::vector<char> unsorted_;  ///< rows joined active_ since the last step
  // The active rows as runs of consecutive rows, rebuilt when rows join: the update is entry by
  // entry, so a run goes to the kernel as one span with the same bytes as row by row.
  struct RowSpan {
    Eigen::Index first;
    Eigen::Index count;
  };
  /// Sorted rows as runs of consecutive rows (the .cpp says how long a run may be).
  static std::vector<RowSpan> consecutive_spans(const std::vector<std::int32_t>& rows);
  std::vector<std::vector<RowSpan>> spans_;
  long step_ = 0;
};

}  // namespace claimrag::dense
