// The lexical ranker's learning: the conditional logit, the standardised linear ranker, family
// folds of the training claims, feature selection by name and the configuration section.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/lexical_ranker_config.hpp"
#include "claimrag/retrieval/conditional_logit.hpp"
#include "claimrag/retrieval/lexical_ranker.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;

namespace {

retrieval::CandidateGroup group(std::vector<std::vector<double>> rows, std::vector<int> labels) {
  retrieval::CandidateGroup g;
  g.features.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < rows[i].size(); ++j) g.features(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  }
  g.labels = std::move(labels);
  return g;
}

}  // namespace

// One group, rows x = 1 (relevant) and x = 0: f(w) = λ/2·w² − w + ln(eʷ + 1).
TEST(ConditionalLogit, ObjectiveAndGradientByHand) {
  const std::vector<retrieval::CandidateGroup> claims{group({{1.0}, {0.0}}, {1, 0})};
  const double w = 0.7, l2 = 0.1;
  const Eigen::VectorXd weights = Eigen::VectorXd::Constant(1, w);
  EXPECT_NEAR(retrieval::conditional_logit_objective(claims, weights, l2), 0.5 * l2 * w * w - w + std::log(std::exp(w) + 1.0), 1e-15);
  const double sigmoid = 1.0 / (1.0 + std::exp(-w));
  EXPECT_NEAR(retrieval::conditional_logit_gradient(claims, weights, l2)[0], l2 * w - 1.0 + sigmoid, 1e-15);
}

// A second relevant row of the same claim is its own group and stays out of the first one's softmax.
TEST(ConditionalLogit, TwoRelevantRowsMakeTwoGroups) {
  const std::vector<retrieval::CandidateGroup> claims{group({{1.0}, {2.0}, {0.0}}, {1, 1, 0})};
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);
  // At w = 0 each group is a fair coin between its relevant row and the non-relevant one: ln 2 each, mean ln 2.
  EXPECT_NEAR(retrieval::conditional_logit_objective(claims, zero, 1.0), std::log(2.0), 1e-15);
  // Gradient at 0: mean over groups of (x̄ − x_p) = ((0.5 − 1) + (1 − 2)) / 2 = −0.75.
  EXPECT_NEAR(retrieval::conditional_logit_gradient(claims, zero, 1.0)[0], -0.75, 1e-15);
}

TEST(ConditionalLogit, GradientMatchesFiniteDifferences) {
  std::mt19937_64 generator(42);
  std::normal_distribution<double> normal;
  std::vector<retrieval::CandidateGroup> claims;
  for (int c = 0; c < 4; ++c) {
    std::vector<std::vector<double>> rows(5, std::vector<double>(3));
    for (auto& row : rows) {
      for (auto& value : row) value = normal(generator);
    }
    claims.push_back(group(rows, {c % 2 == 0 ? 1 : 0, 1, 0, 0, 0}));
  }
  Eigen::VectorXd w(3);
  w << 0.3, -0.2, 0.5;
  const auto gradient = retrieval::conditional_logit_gradient(claims, w, 0.05);
  for (Eigen::Index j = 0; j < 3; ++j) {
    const double h = 1e-6;
    Eigen::VectorXd up = w, down = w;
    up[j] += h;
    down[j] -= h;
    const double numeric = (retrieval::conditional_logit_objective(claims, up, 0.05) -
                            retrieval::conditional_logit_objective(claims, down, 0.05)) / (2 * h);
    EXPECT_NEAR(gradient[j], numeric, 1e-8 * std::max(1.0, std::abs(numeric))) << j;
  }
  const auto model = retrieval::fit_conditional_logit(claims, {0.05, 1e-10, 1e-14, 100});
  EXPECT_TRUE(model.converged);
  EXPECT_LT(retrieval::conditional_logit_gradient(claims, model.weights, 0.05).norm(), 1e-6);
}

// The fit's products are summed the same way for any Eigen thread count: a ranker trained on two
// cores is the one trained on one (the reproduction compares its runs byte for byte).
TEST(ConditionalLogit, TheSameWeightsForAnyThreadCount) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise;
  std::vector<retrieval::CandidateGroup> claims;
  // Lists of 200 to 499 candidates, as the lexical ranker's (long lists split the sums of the
  // Hessian's products into blocks whose size depends on the thread count).
  for (int c = 0; c < 100; ++c) {
    retrieval::CandidateGroup g;
    const Eigen::Index n = 200 + (c * 37) % 300;
    g.features.resize(n, 20);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < g.features.cols(); ++j) g.features(i, j) = noise(rng);
    }
    g.labels.assign(static_cast<std::size_t>(n), 0);
    g.labels[static_cast<std::size_t>(c % n)] = 1;
    g.features.row(c % n).array() += 0.5;
    claims.push_back(std::move(g));
  }
  const int before = Eigen::nbThreads();
  Eigen::setNbThreads(2);
  const auto two = retrieval::fit_conditional_logit(claims, {});
  Eigen::setNbThreads(1);
  const auto one = retrieval::fit_conditional_logit(claims, {});
  Eigen::setNbThreads(before);
  ASSERT_TRUE(one.converged);
  for (Eigen::Index j = 0; j < one.weights.size(); ++j) EXPECT_EQ(one.weights[j], two.weights[j]) << j;
}

TEST(ConditionalLogit, RefusesBadInput) {
  expect_error<UsageError>([] { (void)retrieval::fit_conditional_logit({}, {}); }, "no claims");
  const std::vector<retrieval::CandidateGroup> only_negatives{group({{1.0}, {0.0}}, {0, 0})};
  expect_error<UsageError>([&] { (void)retrieval::fit_conditional_logit(only_negatives, {}); }, "both a relevant");
  const std::vector<retrieval::CandidateGroup> bad_label{group({{1.0}, {0.0}}, {2, 0})};
  expect_error<UsageError>([&] { (void)retrieval::fit_conditional_logit(bad_label, {}); }, "labels must be 0 or 1");
}

// Column values 1 and 3: mean 2, population standard deviation 1; a constant column gets scale 1.
TEST(LearnedRanker, StandardisesAndRanksTheRelevantFirst) {
  retrieval::ClaimCandidates claim;
  claim.documents = {4, 7};
  claim.features.resize(2);
  claim.features[0].fill(5.0);
  claim.features[1].fill(5.0);
  claim.features[0][0] = 1.0;
  claim.features[1][0] = 3.0;
  const std::vector<retrieval::ClaimCandidates> claims{claim};
  const std::vector<std::vector<int>> labels{{0, 1}};
  retrieval::LearnedRankerOptions options;
  options.columns = {0, 1};
  const auto ranker = retrieval::train_learned_ranker(claims, labels, options);
  EXPECT_EQ(ranker.mean[0], 2.0);
  EXPECT_EQ(ranker.scale[0], 1.0);
  EXPECT_EQ(ranker.scale[1], 1.0);
  EXPECT_GT(ranker.weights[0], 0.0);
  EXPECT_EQ(retrieval::rank_candidates(ranker, claim), (std::vector<std::size_t>{1, 0}));
  options.columns = {1, 0};
  expect_error<UsageError>([&] { (void)retrieval::train_learned_ranker(claims, labels, options); }, "increasing");
}

TEST(LexicalRanker, FeatureColumnsByName) {
  EXPECT_EQ(retrieval::feature_columns({"sentence_max", "bm25"}), (std::vector<std::size_t>{0, 2}));
  EXPECT_TRUE(retrieval::feature_columns({}).empty());
  expect_error<UsageError>([] { (void)retrieval::feature_columns({"bm26"}); }, "unknown feature \"bm26\"");
  expect_error<UsageError>([] { (void)retrieval::feature_columns({"bm25", "bm25"}); }, "named twice");
}

// q1 and q2 cite doc0 (one family), q3 and q4 cite other abstracts: with 2 folds, q1 and q2 share one.
TEST(LexicalRanker, TrainingClaimsKeepFamiliesInOneFold) {
  dataset::Corpus corpus;
  const std::vector<std::string> texts{"aspirin lowers stroke risk", "statins lower cholesterol", "vitamin d and bone density",
                                       "exercise improves sleep quality", "smoking raises cancer risk"};
  for (std::size_t d = 0; d < texts.size(); ++d) corpus.documents.push_back({"doc" + std::to_string(d), "", texts[d]});
  const auto indexes = retrieval::build_abstract_indexes(corpus);
  const retrieval::ClaimFeaturizer featurizer(indexes, {});
  const std::vector<dataset::Query> queries{{"q1", "aspirin lowers stroke", "{}"},
                                            {"q2", "aspirin does not lower stroke risk", "{}"},
                                            {"q3", "statins and cholesterol", "{}"},
                                            {"q4", "smoking and cancer", "{}"}};
  dataset::Qrels qrels;
  qrels.judgments = {{"q1", {{"doc0", 1}}}, {"q2", {{"doc0", 1}}}, {"q3", {{"doc1", 1}}}, {"q4", {{"doc4", 1}}}};
  const auto claims = retrieval::build_training_claims(featurizer, queries, qrels, 2, retrieval::AbstractPriorOptions{.terms = 0});
  EXPECT_EQ(claims.folds[0], claims.folds[1]);
  EXPECT_NE(claims.folds[0], claims.folds[2]);
  // q1's candidates are the abstracts sharing a stemmed token with it ("lower" is doc1's too);
  // doc0 is the relevant one.
  ASSERT_EQ(claims.candidates[0].documents, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(claims.labels[0], (std::vector<int>{1, 0}));
  dataset::Qrels missing = qrels;
  missing.judgments.erase("q4");
  expect_error<UsageError>([&] { (void)retrieval::build_training_claims(featurizer, queries, missing, 2, retrieval::AbstractPriorOptions{.terms = 0}); }, "q4");
}

TEST(LexicalRankerConfig, ReadsAndRefuses) {
  const auto read = [](const std::string& text) {
    experiment::LexicalRankerConfig config;
    const auto json = nlohmann::json::parse(text);
    experiment::read_lexical_ranker(io::StrictObject(json, "c.json"), config);
    return config;
  };
  const auto config = read(R"({"stemmer": "inflection", "k1": 0.9, "b": 0.4, "depth": 50, "features": ["bm25", "title"], "l2": 0.1})");
  EXPECT_EQ(config.options.stemmer, text::Stemmer::inflection);
  EXPECT_EQ(config.options.features.whole.k1, 0.9);
  EXPECT_EQ(config.options.features.title.b, 0.4);
  EXPECT_EQ(config.options.features.depth, 50U);
  EXPECT_EQ(config.options.l2, 0.1);
  EXPECT_EQ(config.options.feature_names, (std::vector<std::string>{"bm25", "title"}));
  expect_error<UsageError>([&] { (void)read(R"({"stemmer": "lovins"})"); }, "lovins");
  expect_error<UsageError>([&] { (void)read(R"({"features": ["bm25x"]})"); }, "bm25x");
  expect_error<UsageError>([&] { (void)read(R"({"l2": 0})"); }, "l2 must be positive");
  expect_error<UsageError>([&] { (void)read(R"({"folds": 1})"); }, "folds must be >= 2");
  expect_error<UsageError>([&] { (void)read(R"({"depth_typo": 1})"); }, "depth_typo");
  const auto prior = read(R"({"prior_terms": 0, "prior_C": 0.5, "gram_size": 4, "gram_depth": 0})");
  EXPECT_EQ(prior.options.prior.terms, 0U);
  EXPECT_EQ(prior.options.prior.C, 0.5);
  EXPECT_EQ(prior.options.gram_size, 4U);
  EXPECT_EQ(prior.options.features.gram_depth, 0U);
  expect_error<UsageError>([&] { (void)read(R"({"prior_C": 0})"); }, "prior_C must be positive");
  expect_error<UsageError>([&] { (void)read(R"({"gram_size": 0})"); }, "gram_size must be >= 1");
}
