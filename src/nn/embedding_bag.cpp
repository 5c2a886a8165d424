#include "claimrag/nn/embedding_bag.hpp"

#include <string>

#include "claimrag/error.hpp"

namespace claimrag::nn {

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
  // Threads only pay off for corpus-sized inputs; a training batch is cheaper than the fork.
  const bool large = static_cast<double>(bags.ids.size()) * static_cast<double>(table.cols()) > 1e7;
#pragma omp parallel for schedule(static) if (large)
  for (std::ptrdiff_t b = 0; b < count; ++b) {
    const auto bag = bags.bag(static_cast<std::size_t>(b));
    if (bag.empty()) continue;
    auto row = out.row(b);
    for (const std::int32_t id : bag) row += table.row(id);
    row /= static_cast<Scalar>(bag.size());
  }
}

template <typename Scalar>
void embedding_bag_mean_backward(const TokenBags& bags, const Matrix<Scalar>& dout,
                                 Matrix<Scalar>& dtable) {
  // dout: bags × dim; dtable: vocabulary × dim. Sequential: two bags may share a row.
  if (static_cast<std::size_t>(dout.rows()) != bags.size() || dout.cols() != dtable.cols()) {
    throw InternalError("embedding_bag_mean_backward: shapes do not match");
  }
  for (std::size_t b = 0; b < bags.size(); ++b) {
    const auto bag = bags.bag(b);
    if (bag.empty()) continue;
    const RowVector<Scalar> share = dout.row(static_cast<Eigen::Index>(b)) / static_cast<Scalar>(bag.size());
    for (const std::int32_t id : bag) dtable.row(id) += share;
  }
}

template void embedding_bag_mean_forward<float>(const Matrix<float>&, const TokenBags&, Matrix<float>&);
template void embedding_bag_mean_forward<double>(const Matrix<double>&, const TokenBags&, Matrix<double>&);
template void embedding_bag_mean_backward<float>(const TokenBags&, const Matrix<float>&, Matrix<float>&);
template void embedding_bag_mean_backward<double>(const TokenBags&, const Matrix<double>&, Matrix<double>&);

}  // namespace claimrag::nn
