// Scoring interrogation: accuracy and macro-F1 by hand, re-fusing a probe subset, SciFact's
// labelled pairs, pairs from a run, and the cluster bootstrap.

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/interrogation/evaluation.hpp"
#include "claimrag/interrogation/scifact_pairs.hpp"
#include "claimrag/metrics/bootstrap.hpp"
#include "interrogation_answers.hpp"

using namespace claimrag::interrogation;

namespace {
using claimrag::testing::N;
using claimrag::testing::R;
using claimrag::testing::S;
}  // namespace

TEST(InterrogationScores, AccuracyAndMacroF1ByHand) {
  // gold S S R N N N, predicted S R R N S N.
  // S: TP 1, gold 2, predicted 2 -> F1 = 2/4 = 0.5; R: TP 1, gold 1, predicted 2 -> 2/3;
  // N: TP 2, gold 3, predicted 2 -> 4/5. Accuracy 4/6.
  const std::vector<Answer> gold{S, S, R, N, N, N};
  const std::vector<Answer> predicted{S, R, R, N, S, N};
  const auto scores = classification_scores(gold, predicted);
  EXPECT_DOUBLE_EQ(scores.accuracy, 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(scores.f1[0], 0.5);
  EXPECT_DOUBLE_EQ(scores.f1[1], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(scores.f1[2], 0.8);
  EXPECT_DOUBLE_EQ(scores.macro_f1, (0.5 + 2.0 / 3.0 + 0.8) / 3.0);
  EXPECT_EQ(scores.items, 6u);
  // A resample with repeats: items 0, 0, 2 -> S S R against S S R: all right; N never occurs, F1 0.
  const std::vector<std::size_t> items{0, 0, 2};
  const auto resampled = classification_scores(gold, predicted, items);
  EXPECT_DOUBLE_EQ(resampled.accuracy, 1.0);
  EXPECT_DOUBLE_EQ(resampled.f1[2], 0.0);
  EXPECT_DOUBLE_EQ(resampled.macro_f1, 2.0 / 3.0);
  EXPECT_THROW(classification_scores(gold, std::vector<Answer>{S}), claimrag::InternalError);
}

TEST(InterrogationScores, RefusingASubsetUsesOnlyItsAnswers) {
  Probe original{"o", "{claim}?", false, false, ProbeForm::question, true};
  Probe asks_false{"f", "{claim} false?", true, false, ProbeForm::question, false};
  const std::vector<Probe> probes{original, asks_false};
  // p_O answered "yes" (S) twice; "is C false?" answered "yes" (R once inverted) twice.
  PairInterrogation result;
  for (std::size_t k = 0; k < 2; ++k) {
    ResolvedResponse agree;
    agree.probe = 0;
    agree.sample = k;
    agree.resolution.answer = S;
    result.responses.push_back(agree);
    ResolvedResponse conflict;
    conflict.probe = 1;
    conflict.sample = k;
    conflict.resolution.answer = S;  // "yes, it is false": a Support answer to its own question
    result.responses.push_back(conflict);
  }
  result.baseline = S;
  EXPECT_EQ(refuse(result, probes, ProbeSubset::agree_only, 0.5).wp.verdict, S);
  EXPECT_EQ(refuse(result, probes, ProbeSubset::conflict_only, 0.5).wp.verdict, R);
  const auto both = refuse(result, probes, ProbeSubset::all, 0.7);
  EXPECT_DOUBLE_EQ(both.wp.scores[0], 0.7);  // 0.7 · 1 + 0.3 · 0
  EXPECT_DOUBLE_EQ(both.wp.scores[1], 0.3);
  const std::vector<PairInterrogation> results{result};
  EXPECT_EQ(verdicts(results, probes, ProbeSubset::conflict_only, VerdictSource::meta, 0.5), std::vector<Answer>{R});
  EXPECT_EQ(verdicts(results, probes, ProbeSubset::conflict_only, VerdictSource::baseline, 0.5), std::vector<Answer>{S});
  EXPECT_EQ(verdict_source_name(VerdictSource::meta), "all");
}

TEST(InterrogationScifactPairs, CitedWithGoldThenUncitedRetrievedAsNeutral) {
  using claimrag::dataset::Abstract;
  using claimrag::dataset::Claim;
  const std::vector<Abstract> abstracts{{"10", "T10", {"s0.", "s1."}, false},
                                        {"11", "T11", {"u0."}, false},
                                        {"12", "T12", {"v0."}, false}};
  Claim claim;
  claim.id = "7";
  claim.text = "Drug X increases survival.";
  claim.cited_doc_ids = {"10", "11"};
  claim.evidence["10"] = {{{1}, "CONTRADICT"}};
  const std::vector<Claim> claims{claim};
  claimrag::run::Run run;
  run.add({"7", {{"12", 3.0}, {"10", 2.0}, {"11", 1.0}}});
  const auto index = claimrag::verification::index_abstracts(abstracts);
  const auto labelled = scifact_pairs(claims, index, run, 2);
  ASSERT_EQ(labelled.pairs.size(), 3u);
  EXPECT_EQ(labelled.pairs[0].id, "7:10");
  EXPECT_EQ(labelled.gold[0], R);
  EXPECT_EQ(labelled.pairs[1].id, "7:11");
  EXPECT_EQ(labelled.gold[1], N);  // cited, no evidence: NOT ENOUGH INFO
  EXPECT_EQ(labelled.pairs[2].id, "7:12");
  EXPECT_EQ(labelled.gold[2], N);  // retrieved, not cited
  EXPECT_TRUE(labelled.retrieved[2]);
  EXPECT_FALSE(labelled.retrieved[0]);
  EXPECT_EQ(labelled.pairs[0].claim_id, "7");
  EXPECT_EQ(labelled.pairs[0].evidence.sentences, (std::vector<std::string>{"s0.", "s1."}));
  EXPECT_EQ(labelled.pairs[0].abstract, "T10\ns0. s1.");
  EXPECT_EQ(labelled.pairs[0].negated_claim, "Drug X decreases survival.");
  EXPECT_EQ(labelled.claim_index, (std::vector<std::size_t>{0, 0, 0}));
}

TEST(InterrogationPairsFromRun, TopKPerQueryAndUnrankedListed) {
  claimrag::dataset::Corpus corpus;
  corpus.documents = {{"a", "Title A", "Text of a."}, {"b", "", "Text of b."}};
  corpus.position = {{"a", 0}, {"b", 1}};
  const std::vector<claimrag::dataset::Query> queries{{"q1", "Claim one.", "{}"}, {"q2", "Claim two.", "{}"}};
  claimrag::run::Run run;
  run.add({"q1", {{"b", 2.0}, {"a", 1.0}}});
  std::vector<std::string> unranked;
  const auto pairs = pairs_from_run(queries, run, 1, corpus, unranked);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].id, "q1:b");
  EXPECT_EQ(pairs[0].claim_id, "q1");
  EXPECT_EQ(pairs[0].abstract, "Text of b.");
  EXPECT_EQ(unranked, std::vector<std::string>{"q2"});
  run.add({"q2", {{"missing", 1.0}}});
  EXPECT_THROW(pairs_from_run(queries, run, 1, corpus, unranked), claimrag::DataError);
  EXPECT_THROW(pairs_from_run(queries, run, 0, corpus, unranked), claimrag::UsageError);
}

TEST(ClusterBootstrap, WholeClustersAndPercentiles) {
  using claimrag::metrics::cluster_bootstrap;
  // Two clusters: items 0 and 1 (value 1 each), item 2 (value 3). A resample's mean over its
  // items is 1 (cluster 0 twice), 3 (cluster 1 twice) or 5/3 (one of each): whole clusters only.
  const std::vector<std::size_t> cluster_of{4, 4, 9};
  const std::vector<double> value{1.0, 1.0, 3.0};
  std::vector<double> seen;
  const auto mean = [&](std::span<const std::size_t> items) {
    double sum = 0;
    for (const auto i : items) sum += value[i];
    const double m = sum / static_cast<double>(items.size());
    seen.push_back(m);
    return m;
  };
  const auto interval = cluster_bootstrap(cluster_of, mean, {2000, 0.95, 42});
  EXPECT_DOUBLE_EQ(interval.estimate, 5.0 / 3.0);
  for (const double m : seen) EXPECT_TRUE(m == 1.0 || m == 3.0 || m == 5.0 / 3.0) << m;
  // P(mean = 1) = P(mean = 3) = 1/4: the 2.5 % and 97.5 % quantiles are the extremes.
  EXPECT_DOUBLE_EQ(interval.lower, 1.0);
  EXPECT_DOUBLE_EQ(interval.upper, 3.0);
  EXPECT_EQ(interval.resamples, 2000u);
  // The same seed, the same interval; a constant statistic, a point.
  const auto again = cluster_bootstrap(cluster_of, mean, {2000, 0.95, 42});
  EXPECT_EQ(again.lower, interval.lower);
  const auto point = cluster_bootstrap(cluster_of, [](std::span<const std::size_t>) { return 0.25; });
  EXPECT_EQ(point.lower, 0.25);
  EXPECT_EQ(point.upper, 0.25);
  EXPECT_THROW(cluster_bootstrap({}, mean), claimrag::UsageError);
  EXPECT_THROW(cluster_bootstrap(cluster_of, mean, {10, 1.0, 42}), claimrag::UsageError);
}
