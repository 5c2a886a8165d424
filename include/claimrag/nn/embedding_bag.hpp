#pragma once
// Mean-pooled embedding bag: a text becomes the mean of the table rows of its tokens.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// Token-id sequences stored back to back: bag b holds ids[offsets[b], offsets[b+1]).
/// One allocation for a whole batch or corpus instead of one per text.
struct TokenBags {
  std::vector<std::int32_t> ids;
  std::vector<std::size_t> offsets{0};

  /// Appends one bag (may be empty).
  void add(std::span<const std::int32_t> bag);
  [[nodiscard]] std::size_t size() const { return offsets.size() - 1; }
  [[nodiscard]] std::span<const std::int32_t> bag(std::size_t b) const {
    return {ids.data() + offsets[b], offsets[b + 1] - offsets[b]};
  }
};

/// `out` (bags.size() × table.cols()) = per bag, the mean of table.row(id) over its ids
/// (a repeated id counts each time); an empty bag gives a zero row. Every id must lie in
/// [0, table.rows()) (InternalError otherwise). Bags are independent, so rows are computed in
/// parallel with results identical to one thread.
template <typename Scalar>
void embedding_bag_mean_forward(const Matrix<Scalar>& table, const TokenBags& bags,
                                Matrix<Scalar>& out);

/// Adds d(loss)/d(table) into `dtable` (vocabulary × dim): every id of bag b receives
/// dout.row(b) / |bag b|, scattered in bag order. `dout` is bags.size() × dim.
template <typename Scalar>
void embedding_bag_mean_backward(const TokenBags& bags, const Matrix<Scalar>& dout,
                                 Matrix<Scalar>& dtable);

}  // namespace claimrag::nn
