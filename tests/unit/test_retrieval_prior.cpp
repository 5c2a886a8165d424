// The abstracts' prior (retrieval/abstract_prior.hpp) and its out-of-fold use in the ranker's
// training claims (retrieval/training_claims.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <omp.h>

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

std::int64_t prior_term(const bm25::InvertedIndex& index, std::string_view word) { return index.term_id(word); }

}  // namespace

// Document frequencies: "we" 3, "found" 2, then "cell", "mice", "rain", "sun" once each (ties to
// the smaller term id, i.e. alphabetical). Two terms: columns "we", "found", then ln(1 + length).
TEST(AbstractPrior, FeaturesAreLogCountsOfTheMostFrequentTermsThenLength) {
  const auto corpus = corpus_of({"we found we found cell", "we found mice", "we rain", "sun"});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::none);
  ASSERT_GE(prior_term(indexes.whole, "we"), 0);
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

namespace {

// Six abstracts that share words, so that every claim has a relevant candidate and others; two
// family folds.
struct SmallRankingTask {
  dataset::Corpus corpus = corpus_of({"aspirin lowers stroke risk we found", "statins lower cholesterol and stroke risk we found",
                                      "vitamin d and bone density in stroke", "exercise improves sleep quality we found",
                                      "smoking raises cancer risk and stroke", "a review of sleep and stroke risk"});
  std::vector<dataset::Query> queries{{"q1", "aspirin lowers stroke", "{}"},
                                      {"q2", "statins lower cholesterol", "{}"},
                                      {"q3", "exercise and sleep quality", "{}"},
                                      {"q4", "smoking and cancer risk", "{}"}};
  dataset::Qrels qrels;
  retrieval::AbstractIndexes indexes = retrieval::build_abstract_indexes(corpus);
  retrieval::ClaimFeaturizer featurizer{indexes, {}};
  SmallRankingTask() {
    qrels.judgments = {{"q1", {{"doc0", 1}}}, {"q2", {{"doc1", 1}}}, {"q3", {{"doc3", 1}}}, {"q4", {{"doc4", 1}}}};
    qrels.query_order = {"q1", "q2", "q3", "q4"};
  }
};

}  // namespace

// Each training claim's prior column is the prior fitted without its own fold, so the abstract it
// cites is not a positive of the prior it is ranked with; while fold f is held out, fold g's rows
// read the prior fitted without f and g.
TEST(AbstractPrior, TrainingClaimsUseThePriorOfTheOtherFolds) {
  const SmallRankingTask task;
  const auto& indexes = task.indexes;
  const auto& featurizer = task.featurizer;
  retrieval::AbstractPriorOptions options;
  options.C = 1.0;
  const auto claims = retrieval::build_training_claims(featurizer, task.queries, task.qrels, 3, options);
  ASSERT_EQ(retrieval::claim_feature_names()[retrieval::kAbstractPriorColumn], "abstract_prior");
  for (std::size_t c = 0; c < claims.ids.size(); ++c) {
    const std::set<std::size_t> own{claims.folds[c]};
    const auto fold_prior = retrieval::training_prior(indexes, claims, own, options);
    const auto cited = retrieval::cited_abstracts(indexes, claims, own);
    for (std::size_t i = 0; i < claims.candidates[c].documents.size(); ++i) {
      const auto d = claims.candidates[c].documents[i];
      EXPECT_EQ(claims.candidates[c].features[i][retrieval::kAbstractPriorColumn], fold_prior[d]);
      if (claims.labels[c][i] == 1) {
        EXPECT_EQ(cited[d], 0) << claims.ids[c];  // its own abstract is held out
      }
    }
  }
  EXPECT_EQ(retrieval::cited_abstracts(indexes, claims, {}), (std::vector<int>{1, 1, 0, 1, 1, 0}));
  ASSERT_EQ(claims.nested_priors.size(), 3U);
  for (std::size_t f = 0; f < 3; ++f) {
    EXPECT_TRUE(claims.nested_priors[f][f].empty());
    for (std::size_t g = 0; g < 3; ++g) {
      if (f != g) {
        EXPECT_EQ(claims.nested_priors[f][g], retrieval::training_prior(indexes, claims, {f, g}, options));
      }
    }
  }
  // Without a prior the column is 0 and there are no nested priors.
  options.terms = 0;
  const auto without = retrieval::build_training_claims(featurizer, task.queries, task.qrels, 3, options);
  for (const auto& row : without.candidates[0].features) EXPECT_EQ(row[retrieval::kAbstractPriorColumn], 0.0);
  EXPECT_TRUE(without.nested_priors.empty());
  EXPECT_TRUE(retrieval::training_prior(indexes, without, {}, options).empty());
}

// The fold priors are fitted in parallel: the same bytes for one thread and two.
TEST(AbstractPrior, TrainingClaimsAreTheSameForAnyThreadCount) {
  const SmallRankingTask task;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = retrieval::build_training_claims(task.featurizer, task.queries, task.qrels, 3, {});
  omp_set_num_threads(2);
  const auto two = retrieval::build_training_claims(task.featurizer, task.queries, task.qrels, 3, {});
  omp_set_num_threads(threads);
  for (std::size_t c = 0; c < one.ids.size(); ++c) EXPECT_EQ(one.candidates[c].features, two.candidates[c].features);
  EXPECT_EQ(one.nested_priors, two.nested_priors);
}

// New claims are ranked with the prior fitted on every training claim; the recipe must describe
// the indexes it is given.
TEST(AbstractPrior, TheTrainedRankerCarriesThePriorOfEveryTrainingClaim) {
  const SmallRankingTask task;
  const auto& indexes = task.indexes;
  const auto& featurizer = task.featurizer;
  retrieval::LexicalRankerOptions options;
  options.folds = 2;
  options.prior.C = 1.0;
  const auto trained = retrieval::train_lexical_ranker(featurizer, task.queries, task.qrels, options);
  const auto claims = retrieval::build_training_claims(featurizer, task.queries, task.qrels, 2, options.prior);
  EXPECT_EQ(trained.abstract_prior, retrieval::training_prior(indexes, claims, {}, options.prior));
  const std::vector<dataset::Query> fresh{{"n1", "stroke risk and sleep", "{}"}};
  const auto run = retrieval::lexical_ranker_run(featurizer, trained, fresh, 10, "t");
  const auto expected = retrieval::ranked(trained.ranker, indexes, "n1", featurizer.candidates(fresh[0].text, trained.abstract_prior), 10);
  ASSERT_EQ(run.rankings.size(), 1U);
  ASSERT_EQ(run.rankings[0].documents.size(), expected.documents.size());
  ASSERT_FALSE(expected.documents.empty());
  for (std::size_t r = 0; r < expected.documents.size(); ++r) {
    EXPECT_EQ(run.rankings[0].documents[r].doc_id, expected.documents[r].doc_id);
    EXPECT_EQ(run.rankings[0].documents[r].score, expected.documents[r].score);
  }
  options.gram_size = 4;
  expect_error<UsageError>([&] { (void)retrieval::train_lexical_ranker(featurizer, task.queries, task.qrels, options); },
                           "another stemmer or n-gram size");
}
