// The abstracts' prior (retrieval/abstract_prior.hpp) and its out-of-fold use in the ranker's
// training claims (retrieval/training_claims.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/retrieval/abstract_prior.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/retrieval/lexical_ranker.hpp"
#include "claimrag/text/character_grams.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;

namespace {

dataset::Corpus corpus_of(const std::vector<std::string>& texts) {
  dataset::Corpus corpus;
  for (std::size_t d = 0; d < texts.size(); ++d) {
    corpus.documents.push_back({"doc" + std::to_string(d), "", texts[d]});
    corpus.position.emplace(corpus.documents.back().id, static_cast<std::uint32_t>(d));
  }
  return corpus;
}

std::int64_t term(const bm25::InvertedIndex& index, std::string_view word) { return index.term_id(word); }

}  // namespace

// Document frequencies: "we" 3, "found" 2, then "cell", "mice", "rain", "sun" once each (ties to
// the smaller term id, i.e. alphabetical). Two terms: columns "we", "found", then ln(1 + length).
TEST(AbstractPrior, FeaturesAreLogCountsOfTheMostFrequentTermsThenLength) {
  const auto corpus = corpus_of({"we found we found cell", "we found mice", "we rain", "sun"});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::none);
  ASSERT_GE(term(indexes.whole, "we"), 0);
  const auto features = retrieval::abstract_prior_features(indexes, 2);
  ASSERT_EQ(features.rows(), 4);
  ASSERT_EQ(features.cols(), 3);
  EXPECT_DOUBLE_EQ(features(0, 0), std::log1p(2.0));  // "we" twice
  EXPECT_DOUBLE_EQ(features(0, 1), std::log1p(2.0));  // "found" twice
  EXPECT_DOUBLE_EQ(features(0, 2), std::log1p(5.0));  // five tokens
  EXPECT_DOUBLE_EQ(features(2, 0), std::log1p(1.0));
  EXPECT_EQ(features(2, 1), 0.0);
  EXPECT_EQ(features(3, 0), 0.0);
  EXPECT_DOUBLE_EQ(features(3, 2), std::log1p(1.0));
  // More terms than the view has: every term, then the length.
  EXPECT_EQ(retrieval::abstract_prior_features(indexes, 100).cols(), static_cast<Eigen::Index>(indexes.whole.term_count() + 1));
}

// Abstracts that report a finding ("found") are the cited ones: the prior ranks an uncited
// abstract that also reports one above those that do not.
TEST(AbstractPrior, RanksAbstractsLikeTheCitedOnesHigher) {
  const auto corpus = corpus_of({"we found that x", "we found that y", "we found that z", "a review of x", "a review of y",
                                 "a review of z", "we found that w", "a review of w"});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::none);
  const auto features = retrieval::abstract_prior_features(indexes, 10);
  const std::vector<int> cited{1, 1, 1, 0, 0, 0, 0, 0};
  const auto prior = retrieval::fit_abstract_prior(features, cited, 1.0);
  ASSERT_EQ(prior.size(), 8U);
  EXPECT_GT(prior[6], prior[7]);
  EXPECT_GT(prior[6], prior[3]);
  EXPECT_GT(prior[0], 0.0);
  EXPECT_LT(prior[3], 0.0);
  // Nothing to separate: every prior is 0.
  EXPECT_EQ(retrieval::fit_abstract_prior(features, std::vector<int>(8, 1), 1.0), std::vector<double>(8, 0.0));
  EXPECT_EQ(retrieval::fit_abstract_prior(features, std::vector<int>(8, 0), 1.0), std::vector<double>(8, 0.0));
  expect_error<UsageError>([&] { (void)retrieval::fit_abstract_prior(features, {1, 0}, 1.0); }, "2 labels for 8 abstracts");
  expect_error<UsageError>([&] { (void)retrieval::fit_abstract_prior(features, {2, 0, 0, 0, 0, 0, 0, 1}, 1.0); }, "0 or 1");
}

// Each training claim's prior column is the prior fitted without its own fold, so the abstract it
// cites is not a positive of the prior it is ranked with; the prior kept for new claims is fitted
// on every claim.
TEST(AbstractPrior, TrainingClaimsUseThePriorOfTheOtherFolds) {
  const auto corpus = corpus_of({"aspirin lowers stroke risk we found", "statins lower cholesterol we found",
                                 "vitamin d and bone density", "exercise improves sleep quality we found",
                                 "smoking raises cancer risk", "a review of sleep and stroke"});
  const auto indexes = retrieval::build_abstract_indexes(corpus);
  const retrieval::ClaimFeaturizer featurizer(indexes, {});
  const std::vector<dataset::Query> queries{{"q1", "aspirin lowers stroke", "{}"},
                                            {"q2", "statins and cholesterol", "{}"},
                                            {"q3", "exercise and sleep", "{}"},
                                            {"q4", "smoking and cancer", "{}"}};
  dataset::Qrels qrels;
  qrels.judgments = {{"q1", {{"doc0", 1}}}, {"q2", {{"doc1", 1}}}, {"q3", {{"doc3", 1}}}, {"q4", {{"doc4", 1}}}};
  retrieval::AbstractPriorOptions options;
  options.C = 1.0;
  const auto claims = retrieval::build_training_claims(featurizer, queries, qrels, 2, options);
  const auto& names = retrieval::claim_feature_names();
  const auto column = static_cast<std::size_t>(std::find(names.begin(), names.end(), "abstract_prior") - names.begin());
  for (std::size_t c = 0; c < claims.ids.size(); ++c) {
    const auto fold_prior = retrieval::training_prior(indexes, claims, claims.folds[c], options);
    const auto cited = retrieval::cited_abstracts(indexes, claims, claims.folds[c]);
    for (std::size_t i = 0; i < claims.candidates[c].documents.size(); ++i) {
      const auto d = claims.candidates[c].documents[i];
      EXPECT_EQ(claims.candidates[c].features[i][column], fold_prior[d]);
      if (claims.labels[c][i] == 1) {
        EXPECT_EQ(cited[d], 0) << claims.ids[c];  // its own abstract is held out
      }
    }
  }
  EXPECT_EQ(retrieval::cited_abstracts(indexes, claims, 2), (std::vector<int>{1, 1, 0, 1, 1, 0}));
  // Without a prior the column is 0.
  options.terms = 0;
  const auto without = retrieval::build_training_claims(featurizer, queries, qrels, 2, options);
  for (const auto& row : without.candidates[0].features) EXPECT_EQ(row[column], 0.0);
  EXPECT_TRUE(retrieval::training_prior(indexes, without, 2, options).empty());
}

// The n-gram view and its column: BM25 over the grams of the claim as written.
TEST(AbstractPrior, GramViewMatchesAMisspeltWord) {
  const auto corpus = corpus_of({"nonsteroidal anti-inflammatory drugs", "cancer treatment"});
  const auto indexes = retrieval::build_abstract_indexes(corpus);
  EXPECT_EQ(indexes.gram_size, 3U);
  EXPECT_GE(term(indexes.grams, "lam"), 0);
  const retrieval::ClaimFeaturizer featurizer(indexes, {});
  // "antinflammatory" is no token of the corpus, but shares grams with "inflammatory".
  const auto claim = featurizer.candidates("antinflammatory", {});
  ASSERT_EQ(claim.documents, (std::vector<std::uint32_t>{0}));
  const auto& names = retrieval::claim_feature_names();
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const bm25::Searcher grams(indexes.grams, {1.2, 0.75});
  EXPECT_NEAR(claim.features[0][column("gram_bm25")], grams.score(text::character_grams("antinflammatory", 3), 0), 1e-12);
  EXPECT_GT(claim.features[0][column("gram_bm25")], 0.0);
  EXPECT_EQ(claim.features[0][column("gram_bm25_relative")], 1.0);
  EXPECT_EQ(claim.features[0][column("bm25")], 0.0);
  retrieval::ClaimFeatureOptions no_gram_candidates;
  no_gram_candidates.gram_depth = 0;
  EXPECT_TRUE(retrieval::ClaimFeaturizer(indexes, no_gram_candidates).candidates("antinflammatory", {}).documents.empty());
  expect_error<UsageError>([&] { (void)retrieval::build_abstract_indexes(corpus, text::Stemmer::porter, 1, 0); }, "gram_size");
}
