#include "claimrag/dense/contrastive_loss.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "claimrag/error.hpp"
#include "claimrag/nn/l2_normalize.hpp"
#include "claimrag/nn/matrix_products.hpp"
#include "claimrag/nn/softmax_cross_entropy.hpp"

namespace claimrag::dense {

template <typename Scalar>
ContrastiveBatch make_contrastive_batch(const DualEncoder<Scalar>& model,
                                        const std::vector<std::vector<std::int32_t>>& queries,
                                        const std::vector<std::vector<std::int32_t>>& documents,
                                        const std::vector<TrainingPair>& pairs,
                                        const std::vector<std::size_t>& batch,
                                        const std::vector<TrainingPair>& all_pairs_sorted) {
  std::vector<std::size_t> query_rows;
  std::vector<std::size_t> document_columns;
  std::map<std::int32_t, std::int32_t> column_of;
  ContrastiveBatch result;
  for (const std::size_t p : batch) {
    const TrainingPair& pair = pairs.at(p);
    if (pair.query < 0 || static_cast<std::size_t>(pair.query) >= queries.size() || pair.document < 0 ||
        static_cast<std::size_t>(pair.document) >= documents.size()) {
      throw InternalError("training pair refers to a query or document that does not exist");
    }
    query_rows.push_back(static_cast<std::size_t>(pair.query));
    const auto [where, added] = column_of.emplace(pair.document, static_cast<std::int32_t>(document_columns.size()));
    if (added) document_columns.push_back(static_cast<std::size_t>(pair.document));
    result.targets.push_back(where->second);
  }
  // Only the query's other known positives can be false negatives: look them up, not every cell.
  for (std::size_t row = 0; row < batch.size(); ++row) {
    const TrainingPair& pair = pairs[batch[row]];
    const auto [first, last] = std::equal_range(
        all_pairs_sorted.begin(), all_pairs_sorted.end(), TrainingPair{pair.query, 0},
        [](const TrainingPair& a, const TrainingPair& b) { return a.query < b.query; });
    for (auto positive = first; positive != last; ++positive) {
      if (positive->document == pair.document) continue;
      const auto column = column_of.find(positive->document);
      if (column != column_of.end()) result.masked.emplace_back(static_cast<std::int32_t>(row), column->second);
    }
  }
  result.queries = model.bags(queries, query_rows, Tower::query);
  result.documents = model.bags(documents, document_columns, Tower::document);
  return result;
}

template <typename Scalar>
double contrastive_forward_backward(DualEncoder<Scalar>& model, const ContrastiveBatch& batch) {
  // Forward. pooled_q, q: B × dim; pooled_d, d: C × dim; logits: B × C.
  auto& registry = model.parameters();
  nn::Matrix<Scalar> pooled_q, pooled_d, q, d;
  nn::embedding_bag_mean_forward(model.table(Tower::query), batch.queries, pooled_q);
  nn::embedding_bag_mean_forward(model.table(Tower::document), batch.documents, pooled_d);
  nn::L2NormalizeCache<Scalar> q_cache, d_cache;
  nn::l2_normalize_forward(pooled_q, q, q_cache);
  nn::l2_normalize_forward(pooled_d, d, d_cache);
  const auto inverse_temperature = static_cast<Scalar>(1.0 / model.options().temperature);
  nn::Matrix<Scalar> logits(q.rows(), d.rows());
  nn::multiply(q, nn::Operand::plain, d, nn::Operand::transposed, logits, nn::Start::zero);
  logits *= inverse_temperature;
  for (const auto& [row, column] : batch.masked) logits(row, column) = -std::numeric_limits<Scalar>::infinity();
  nn::SoftmaxCrossEntropyCache<Scalar> loss_cache;
  const double loss = nn::softmax_cross_entropy_forward(logits, batch.targets, {}, loss_cache);

  // Backward, in reverse. A masked logit has probability 0 and is not the target, so its
  // gradient is already 0: the mask needs no backward of its own.
  nn::Matrix<Scalar> dlogits = nn::Matrix<Scalar>::Zero(logits.rows(), logits.cols());
  nn::softmax_cross_entropy_backward(loss_cache, Scalar(1), dlogits);
  nn::Matrix<Scalar> dq(dlogits.rows(), d.cols());
  nn::Matrix<Scalar> dd(dlogits.cols(), q.cols());
  nn::multiply(dlogits, nn::Operand::plain, d, nn::Operand::plain, dq, nn::Start::zero);
  nn::multiply(dlogits, nn::Operand::transposed, q, nn::Operand::plain, dd, nn::Start::zero);
  dq *= inverse_temperature;
  dd *= inverse_temperature;
  nn::Matrix<Scalar> dpooled_q = nn::Matrix<Scalar>::Zero(q.rows(), q.cols());
  nn::Matrix<Scalar> dpooled_d = nn::Matrix<Scalar>::Zero(d.rows(), d.cols());
  nn::l2_normalize_backward(q_cache, dq, dpooled_q);
  nn::l2_normalize_backward(d_cache, dd, dpooled_d);
  nn::embedding_bag_mean_backward(batch.queries, dpooled_q, registry[model.table_index(Tower::query)].grad);
  nn::embedding_bag_mean_backward(batch.documents, dpooled_d, registry[model.table_index(Tower::document)].grad);
  return loss;
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                          \
  template ContrastiveBatch make_contrastive_batch<Scalar>(                                                   \
      const DualEncoder<Scalar>&, const std::vector<std::vector<std::int32_t>>&,                              \
      const std::vector<std::vector<std::int32_t>>&, const std::vector<TrainingPair>&,                        \
      const std::vector<std::size_t>&, const std::vector<TrainingPair>&);                                     \
  template double contrastive_forward_backward<Scalar>(DualEncoder<Scalar>&, const ContrastiveBatch&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::dense
