#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "claimrag/dense/contrastive_loss.hpp"

using claimrag::dense::DenseOptions;
using claimrag::dense::DualEncoder;
using claimrag::dense::TrainingPair;
using claimrag::nn::Matrix;
using Texts = std::vector<std::vector<std::int32_t>>;

namespace {

DenseOptions small_options() {
  DenseOptions options;
  options.dimension = 3;
  options.max_query_tokens = 2;
  options.max_document_tokens = 3;
  options.temperature = 0.5;
  return options;
}

std::vector<TrainingPair> sorted(std::vector<TrainingPair> pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

TEST(DenseContrastiveBatch, DeduplicatesDocumentsAndMasksOtherPositivesOfTheQuery) {
  const DualEncoder<double> model(5, small_options());
  const Texts queries{{0, 1, 2}, {1}, {2}};
  const Texts documents{{0}, {1, 2, 3, 4}, {2}, {3}};
  const std::vector<TrainingPair> pairs{{0, 1}, {1, 2}, {2, 2}, {0, 3}, {1, 0}};
  // Pair {1, 0} is left out of the batch, so its document has no column to mask.
  const auto batch =
      claimrag::dense::make_contrastive_batch(model, queries, documents, pairs, {0, 1, 2, 3}, sorted(pairs));
  EXPECT_EQ(batch.targets, (std::vector<std::int32_t>{0, 1, 1, 2}));  // columns: documents 1, 2, 3
  EXPECT_EQ(batch.masked, (std::vector<std::pair<std::int32_t, std::int32_t>>{{0, 2}, {3, 0}}));
  EXPECT_EQ(batch.documents.size(), 3u);
  EXPECT_EQ(batch.documents.ids, (std::vector<std::int32_t>{1, 2, 3, 2, 3}));  // document 1 truncated to 3
  EXPECT_EQ(batch.queries.ids, (std::vector<std::int32_t>{0, 1, 1, 2, 0, 1}));  // query 0 truncated to 2
}

TEST(DenseContrastiveLoss, MatchesAPlainLoopComputation) {
  DualEncoder<double> model(5, small_options());
  std::mt19937_64 rng(4);
  model.initialise(rng);
  const Texts queries{{0, 1, 2}, {1}, {2, 2}};
  const Texts documents{{0}, {1, 2, 3, 4}, {2}, {3}};
  const std::vector<TrainingPair> pairs{{0, 1}, {1, 2}, {2, 2}, {0, 3}};
  const auto batch = claimrag::dense::make_contrastive_batch(model, queries, documents, pairs, {0, 1, 2, 3}, sorted(pairs));
  const double loss = claimrag::dense::contrastive_forward_backward(model, batch);

  // The oracle: normalised mean embeddings, cosine / τ, masked log-softmax, mean over rows.
  const Matrix<double>& table = model.table(claimrag::dense::Tower::query);
  const auto embed = [&](const std::vector<std::int32_t>& ids, std::size_t limit) {
    std::vector<double> sum(3, 0.0);
    const std::size_t n = std::min(ids.size(), limit);
    for (std::size_t t = 0; t < n; ++t) {
      for (int c = 0; c < 3; ++c) sum[static_cast<std::size_t>(c)] += table(ids[t], c) / static_cast<double>(n);
    }
    const double norm = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
    for (auto& x : sum) x /= norm;
    return sum;
  };
  const std::vector<int> column_documents{1, 2, 3};
  const std::vector<std::vector<bool>> masked{{false, false, true}, {false, false, false},
                                              {false, false, false}, {true, false, false}};
  double expected = 0;
  for (std::size_t row = 0; row < 4; ++row) {
    const auto q = embed(queries[static_cast<std::size_t>(pairs[row].query)], 2);
    double normaliser = 0, target_logit = 0;
    for (std::size_t column = 0; column < 3; ++column) {
      const auto d = embed(documents[static_cast<std::size_t>(column_documents[column])], 3);
      const double logit = (q[0] * d[0] + q[1] * d[1] + q[2] * d[2]) / 0.5;
      if (column_documents[column] == pairs[row].document) target_logit = logit;
      if (!masked[row][column]) normaliser += std::exp(logit);
    }
    expected += (std::log(normaliser) - target_logit) / 4;
  }
  EXPECT_NEAR(loss, expected, 1e-12);
}
