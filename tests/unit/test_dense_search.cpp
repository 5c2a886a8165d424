#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <random>

#include "claimrag/dense/search.hpp"

using claimrag::dense::ScoredDocument;
using claimrag::nn::Matrix;

namespace {

// Small integers: every dot product is exact in float whatever the summation order, so the
// oracle's double arithmetic gives the very same scores and ties are real ties.
Matrix<float> integer_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-3, 3);
  Matrix<float> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(value(rng));
  return m;
}

std::vector<ScoredDocument> brute_force(const Matrix<float>& queries, Eigen::Index q, const Matrix<float>& documents,
                                        std::size_t k) {
  std::vector<ScoredDocument> all;
  for (Eigen::Index d = 0; d < documents.rows(); ++d) {
    double score = 0;
    for (Eigen::Index c = 0; c < documents.cols(); ++c) score += double(queries(q, c)) * double(documents(d, c));
    all.push_back({static_cast<std::int32_t>(d), static_cast<float>(score)});
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  all.resize(std::min(k, all.size()));
  return all;
}

}  // namespace

TEST(DenseSearch, HandMadeRankingWithTiesBrokenByLowerIndex) {
  Matrix<float> documents(4, 2);
  documents << 1, 0,  //
      0, 1,           //
      1, 0,           // same as document 0
      2, 2;
  Matrix<float> queries(1, 2);
  queries << 1, 0;
  const auto hits = claimrag::dense::search_top_k(queries, documents, 3);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0], (std::vector<ScoredDocument>{{3, 2.0F}, {0, 1.0F}, {2, 1.0F}}));
}

TEST(DenseSearch, KLargerThanTheCorpusReturnsEveryDocument) {
  Matrix<float> documents(2, 1);
  documents << -1, 5;
  Matrix<float> queries(2, 1);
  queries << 1, 0;
  const auto hits = claimrag::dense::search_top_k(queries, documents, 10);
  EXPECT_EQ(hits[0], (std::vector<ScoredDocument>{{1, 5.0F}, {0, -1.0F}}));
  EXPECT_EQ(hits[1], (std::vector<ScoredDocument>{{0, 0.0F}, {1, 0.0F}}));  // all tied: index order
}

TEST(DenseSearch, MatchesABruteForceOracleWithManyTies) {
  std::mt19937_64 rng(5);
  const Matrix<float> documents = integer_matrix(300, 8, rng);
  const Matrix<float> queries = integer_matrix(37, 8, rng);  // not a multiple of the query block
  const auto hits = claimrag::dense::search_top_k(queries, documents, 25);
  ASSERT_EQ(hits.size(), 37u);
  for (Eigen::Index q = 0; q < queries.rows(); ++q) {
    EXPECT_EQ(hits[static_cast<std::size_t>(q)], brute_force(queries, q, documents, 25)) << "query " << q;
  }
}

TEST(DenseSearch, ResultsDoNotDependOnTheThreadCount) {
  std::mt19937_64 rng(6);
  std::normal_distribution<float> normal(0.0F, 1.0F);
  Matrix<float> documents(2000, 32), queries(70, 32);
  for (Eigen::Index i = 0; i < documents.size(); ++i) documents.data()[i] = normal(rng);
  for (Eigen::Index i = 0; i < queries.size(); ++i) queries.data()[i] = normal(rng);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = claimrag::dense::search_top_k(queries, documents, 200);
  omp_set_num_threads(2);
  const auto two = claimrag::dense::search_top_k(queries, documents, 200);
  omp_set_num_threads(saved);
  EXPECT_EQ(one, two);
}
