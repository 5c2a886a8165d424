#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using metrics::MetricSpec;
using metrics::RankingMetric;

namespace {
std::vector<run::ScoredDocument> ranking_of(const std::vector<std::string>& ids) {
  std::vector<run::ScoredDocument> documents;
  double score = 100;
  for (const auto& id : ids) documents.push_back({id, score--});
  return documents;
}
}  // namespace

TEST(MetricList, ParsesNamesAndRepeatedCutoffs) {
  const auto specs = metrics::parse_metric_list("ndcg@5,10,recall@100");
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0], (MetricSpec{RankingMetric::ndcg, 5}));
  EXPECT_EQ(specs[1], (MetricSpec{RankingMetric::ndcg, 10}));
  EXPECT_EQ(specs[2], (MetricSpec{RankingMetric::recall, 100}));
  EXPECT_EQ(specs[2].name(), "recall@100");
}

TEST(MetricList, RefusesUnknownNamesBadCutoffsAndDuplicates) {
  EXPECT_THROW(metrics::parse_metric_list("map@10"), UsageError);
  EXPECT_THROW(metrics::parse_metric_list("ndcg@0"), UsageError);
  EXPECT_THROW(metrics::parse_metric_list("ndcg@ten"), UsageError);
  EXPECT_THROW(metrics::parse_metric_list("10"), UsageError);
  EXPECT_THROW(metrics::parse_metric_list("ndcg@10,ndcg@10"), UsageError);
  EXPECT_THROW(metrics::parse_metric_list(""), UsageError);
}

TEST(Ndcg, MatchesAHandComputation) {
  // Relevant: a, c, x (x never retrieved). Ranking: a b c.
  const std::map<std::string, int> judgments{{"a", 1}, {"c", 1}, {"x", 1}, {"b", 0}};
  const auto ranking = ranking_of({"a", "b", "c"});
  const double dcg = 1.0 + 1.0 / std::log2(4.0);
  const double ideal3 = 1.0 + 1.0 / std::log2(3.0) + 1.0 / std::log2(4.0);
  EXPECT_NEAR(metrics::ndcg_at(ranking, judgments, 3), dcg / ideal3, 1e-15);
  // Cutoff 1: only a; ideal is one relevant document.
  EXPECT_DOUBLE_EQ(metrics::ndcg_at(ranking, judgments, 1), 1.0);
  // Cutoff beyond the list: scored on what there is, ideal over min(k, R) = 3.
  EXPECT_NEAR(metrics::ndcg_at(ranking, judgments, 10), dcg / ideal3, 1e-15);
}

TEST(Ndcg, PerfectAndEmptyRankings) {
  const std::map<std::string, int> judgments{{"a", 1}, {"b", 2}};
  EXPECT_DOUBLE_EQ(metrics::ndcg_at(ranking_of({"b", "a", "z"}), judgments, 10), 1.0);  // grades > 0 are binary
  EXPECT_EQ(metrics::ndcg_at({}, judgments, 10), 0.0);
  EXPECT_EQ(metrics::ndcg_at(ranking_of({"z", "y"}), judgments, 10), 0.0);
}

TEST(Recall, CountsRelevantInTheTopK) {
  const std::map<std::string, int> judgments{{"a", 1}, {"c", 1}, {"x", 1}};
  const auto ranking = ranking_of({"a", "b", "c"});
  EXPECT_DOUBLE_EQ(metrics::recall_at(ranking, judgments, 1), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics::recall_at(ranking, judgments, 2), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics::recall_at(ranking, judgments, 3), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics::recall_at(ranking, judgments, 100), 2.0 / 3.0);
}

TEST(EvaluateRun, DecidesWhichQueriesCount) {
  dataset::Qrels qrels;
  qrels.judgments["q1"] = {{"a", 1}};
  qrels.judgments["q2"] = {{"b", 1}};               // absent from the run: scores 0
  qrels.judgments["q3"] = {{"c", 0}};               // nothing relevant: left out
  qrels.query_order = {"q1", "q2", "q3"};
  run::Run run;
  run.tag = "t";
  run.add({"q1", ranking_of({"z", "a"})});
  run.add({"q9", ranking_of({"a"})});               // not judged: left out
  const auto evaluation = metrics::evaluate_run(run, qrels, metrics::parse_metric_list("ndcg@10,recall@1"));
  EXPECT_EQ(evaluation.query_ids, (std::vector<std::string>{"q1", "q2"}));
  EXPECT_EQ(evaluation.queries_missing_from_run, 1u);
  EXPECT_EQ(evaluation.queries_without_judgments, 1u);
  EXPECT_EQ(evaluation.queries_without_relevant, 1u);
  EXPECT_NEAR(evaluation.per_query[0][0], 1.0 / std::log2(3.0), 1e-15);
  EXPECT_EQ(evaluation.per_query[1][0], 0.0);
  EXPECT_NEAR(evaluation.mean[0], (1.0 / std::log2(3.0)) / 2.0, 1e-15);
  EXPECT_EQ(evaluation.mean[1], 0.0);
}

TEST(EvaluateRun, BruteForceAgreesOnRandomRankings) {
  // An independent formulation: DCG from the full gain vector, IDCG from the sorted gains.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::string> ids;
    for (int i = 0; i < 30; ++i) ids.push_back("d" + std::to_string(i));
    std::shuffle(ids.begin(), ids.end(), rng);
    std::map<std::string, int> judgments;
    for (int i = 0; i < 40; i += 1 + static_cast<int>(rng() % 5)) judgments["d" + std::to_string(i)] = 1;
    const auto ranking = ranking_of(ids);
    for (const std::size_t k : {1u, 5u, 10u, 50u}) {
      std::vector<double> gains;
      for (const auto& id : ids) gains.push_back(judgments.count(id) ? 1.0 : 0.0);
      std::vector<double> ideal(judgments.size(), 1.0);
      auto dcg = [&](const std::vector<double>& g) {
        double sum = 0;
        for (std::size_t i = 0; i < std::min(k, g.size()); ++i) sum += g[i] / std::log2(static_cast<double>(i) + 2);
        return sum;
      };
      EXPECT_NEAR(metrics::ndcg_at(ranking, judgments, k), dcg(gains) / dcg(ideal), 1e-12);
      double hits = 0;
      for (std::size_t i = 0; i < std::min(k, gains.size()); ++i) hits += gains[i];
      EXPECT_NEAR(metrics::recall_at(ranking, judgments, k), hits / static_cast<double>(judgments.size()), 1e-15);
    }
  }
}

#include "claimrag/metrics/seen_documents.hpp"

// q1's relevant documents were all relevant to training queries (seen), q2's none (unseen), q3 has
// one of each (mixed), q4 has no relevant document and is not evaluated.
TEST(SeenDocuments, SplitsQueriesByTheTrainingJudgments) {
  dataset::Qrels train;
  train.judgments = {{"t1", {{"a", 1}, {"x", 0}}}, {"t2", {{"b", 2}}}};
  const auto seen = metrics::relevant_documents(train);
  EXPECT_EQ(seen, (std::set<std::string>{"a", "b"}));  // "x" is judged, not relevant
  dataset::Qrels test;
  test.judgments = {{"q1", {{"a", 1}, {"b", 1}}}, {"q2", {{"c", 1}, {"a", 0}}}, {"q3", {{"a", 1}, {"d", 1}}}, {"q4", {{"a", 0}}}};
  test.query_order = {"q1", "q2", "q3", "q4"};
  run::Run run;
  run.add({"q1", {{"a", 3.0}, {"z", 2.0}}});  // recall@1 1/2, recall@2 1/2
  run.add({"q2", {{"z", 3.0}, {"c", 2.0}}});  // recall@1 0, recall@2 1
  run.add({"q3", {{"a", 3.0}, {"d", 2.0}}});
  const auto evaluation = metrics::evaluate_run(run, test, metrics::parse_metric_list("recall@1,2"));
  const auto split = metrics::split_by_seen_documents(evaluation, test, seen);
  EXPECT_EQ(split.seen.queries, 1U);
  EXPECT_EQ(split.unseen.queries, 1U);
  EXPECT_EQ(split.mixed, 1U);
  EXPECT_EQ(split.seen.mean, (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(split.unseen.mean, (std::vector<double>{0.0, 1.0}));
  // Nothing seen: every evaluated query is unseen, the seen group empty with zero means.
  const auto none = metrics::split_by_seen_documents(evaluation, test, {});
  EXPECT_EQ(none.seen.queries, 0U);
  EXPECT_EQ(none.seen.mean, (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(none.unseen.queries, 3U);
}

#include "claimrag/metrics/paired_difference.hpp"

namespace {

metrics::Evaluation evaluation_of(const std::vector<double>& per_query) {
  metrics::Evaluation evaluation;
  evaluation.metrics = metrics::parse_metric_list("ndcg@10");
  for (std::size_t q = 0; q < per_query.size(); ++q) {
    evaluation.query_ids.push_back("q" + std::to_string(q));
    evaluation.per_query.push_back({per_query[q]});
  }
  return evaluation;
}

}  // namespace

// A constant gain is the same in every resample: its interval is a point and its p-value 0. Gains
// of +0.5 and −0.5 in equal numbers average 0, with an interval around 0 and a large p-value.
TEST(PairedDifference, ResamplesQueriesPairedAcrossTheTwoRankings) {
  const auto base = evaluation_of({0.1, 0.5, 0.2, 0.7, 0.4, 0.3});
  const std::vector<std::size_t> own{0, 1, 2, 3, 4, 5};
  const auto constant = metrics::paired_differences(evaluation_of({0.3, 0.7, 0.4, 0.9, 0.6, 0.5}), base, own, {});
  ASSERT_EQ(constant.size(), 1U);
  EXPECT_NEAR(constant[0].difference, 0.2, 1e-12);
  EXPECT_NEAR(constant[0].lower, 0.2, 1e-12);
  EXPECT_NEAR(constant[0].upper, 0.2, 1e-12);
  EXPECT_EQ(constant[0].p_value, 0.0);
  const auto mixed_scores = evaluation_of({0.6, 0.0, 0.7, 0.2, 0.9, -0.2});
  const auto mixed = metrics::paired_differences(mixed_scores, base, own, {});
  EXPECT_NEAR(mixed[0].difference, 0.0, 1e-12);
  EXPECT_LT(mixed[0].lower, 0.0);
  EXPECT_GT(mixed[0].upper, 0.0);
  EXPECT_GT(mixed[0].p_value, 0.5);
  // Pairs of queries with opposite differences drawn together: every resample's mean is 0.
  const std::vector<std::size_t> pairs{7, 7, 8, 8, 9, 9};
  const auto clustered = metrics::paired_differences(mixed_scores, base, pairs, {});
  EXPECT_NEAR(clustered[0].lower, 0.0, 1e-12);
  EXPECT_NEAR(clustered[0].upper, 0.0, 1e-12);
  expect_error<UsageError>([&] { (void)metrics::paired_differences(evaluation_of({0.1}), base, own, {}); }, "other queries");
  const std::vector<std::size_t> one_cluster{1};
  expect_error<UsageError>([&] { (void)metrics::paired_differences(mixed_scores, base, one_cluster, {}); }, "1 clusters for 6 queries");
  expect_error<UsageError>([&] { (void)metrics::paired_differences(evaluation_of({}), evaluation_of({}), {}, {}); }, "no query");
}
