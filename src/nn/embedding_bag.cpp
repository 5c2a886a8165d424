#include "claimrag/nn/embedding_bag.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "claimrag/error.hpp"
#include "claimrag/kernels/row_sums.hpp"

namespace claimrag::nn {
namespace {

// Rows of a bag are scattered over a table larger than the caches; asking for the row a few
// tokens ahead overlaps its fetch with the current row's arithmetic.
constexpr std::size_t kPrefetchDistance = 4;

template <typename Scalar>
void prefetch_row(const Scalar* table, std::int32_t id, Eigen::Index dim) {
  const char* begin = reinterpret_cast<const char*>(table + static_cast<Eigen::Index>(id) * dim);
  const auto bytes = static_cast<std::size_t>(dim) * sizeof(Scalar);
  for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(begin + offset);
}

}  // namespace

void TokenBags::add(std::span<const std::int32_t> bag) {
  ids.insert(ids.end(), bag.begin(), bag.end());
  offsets.push_back(ids.size());
}

template <typename Scalar>
void embedding_bag_mean_forward(const Matrix<Scalar>& table, const TokenBags& bags,
                                Matrix<Scalar>& out) {
  // table: vocabulary × dim; out: bags × dim.
  const auto vocabulary = static_cast<std::int32_t>(table.rows());
  for (const std::int32_t id : bags.ids) {
    if (id < 0 || id >= vocabulary) {
      throw InternalError("embedding_bag_mean_forward: token id " + std::to_string(id) +
                          " outside a table of " + std::to_string(vocabulary) + " rows");
    }
  }
  const auto count = static_cast<std::ptrdiff_t>(bags.size());
  out.setZero(count, table.cols());
  // Threads pay off from about a training batch of documents (128 × 225 tokens × 128 columns).
  const bool large = static_cast<double>(bags.ids.size()) * static_cast<double>(table.cols()) > 1e6;
#pragma omp parallel for schedule(static) if (large)
  for (std::ptrdiff_t b = 0; b < count; ++b) {
    const auto bag = bags.bag(static_cast<std::size_t>(b));
    if (bag.empty()) continue;
    if constexpr (std::is_same_v<Scalar, float>) {
      // The same sums on the widest vector unit (the same bytes as the double loop).
      kernels::mean_of_rows(table.data(), table.outerStride(), bag, table.cols(), out.row(b).data());
    } else {
      auto row = out.row(b);
      for (std::size_t t = 0; t < bag.size(); ++t) {
        if (t + kPrefetchDistance < bag.size()) prefetch_row(table.data(), bag[t + kPrefetchDistance], table.cols());
        row += table.row(bag[t]);
      }
      row /= static_cast<Scalar>(bag.size());
    }
  }
}

template <typename Scalar>
void embedding_bag_mean_backward(const TokenBags& bags, const Matrix<Scalar>& dout,
                                 Matrix<Scalar>& dtable) {
  // dout: bags × dim; dtable: vocabulary × dim. Two bags may share a row, so threads split the
  // columns instead: every entry still receives its shares in bag order, whatever the thread
  // count.
  if (static_cast<std::size_t>(dout.rows()) != bags.size() || dout.cols() != dtable.cols()) {
    throw InternalError("embedding_bag_mean_backward: shapes do not match");
  }
  const Eigen::Index dim = dtable.cols();
  constexpr Eigen::Index kColumns = 32;
  const Eigen::Index column_blocks = (dim + kColumns - 1) / kColumns;
  const bool large = static_cast<double>(bags.ids.size()) * static_cast<double>(dim) > 1e6;
#pragma omp parallel for schedule(static) if (large)
  for (Eigen::Index block = 0; block < column_blocks; ++block) {
    const Eigen::Index c0 = block * kColumns;
    const Eigen::Index width = std::min(kColumns, dim - c0);
    Scalar share[kColumns];
    for (std::size_t b = 0; b < bags.size(); ++b) {
      const auto bag = bags.bag(b);
      if (bag.empty()) continue;
      const Scalar* gradient = dout.row(static_cast<Eigen::Index>(b)).data() + c0;
      const auto n = static_cast<Scalar>(bag.size());
      for (Eigen::Index c = 0; c < width; ++c) share[c] = gradient[c] / n;
      if constexpr (std::is_same_v<Scalar, float>) {
        kernels::add_to_rows(dtable.data() + c0, dim, bag, width, share);  // the same on the widest unit
      } else {
        for (const std::int32_t id : bag) {
          Scalar* target = dtable.data() + static_cast<Eigen::Index>(id) * dim + c0;
          for (Eigen::Index c = 0; c < width; ++c) target[c] += share[c];
        }
      }
    }
  }
}

template void embedding_bag_mean_forward<float>(const Matrix<float>&, const TokenBags&, Matrix<float>&);
template void embedding_bag_mean_forward<double>(const Matrix<double>&, const TokenBags&, Matrix<double>&);
template void embedding_bag_mean_backward<float>(const TokenBags&, const Matrix<float>&, Matrix<float>&);
template void embedding_bag_mean_backward<double>(const TokenBags&, const Matrix<double>&, Matrix<double>&);

}  // namespace claimrag::nn
