// The abstention comparison on SciFact-shaped data: the shared answer and the unsafe rule, each
// system's confidence in a verdict, the claims table, operating points from the training table and
// the stacked strategy. Every expected value is computed by hand.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "claimrag/abstention/claim_answer.hpp"
#include "claimrag/abstention/claims_table.hpp"
#include "claimrag/abstention/comparison.hpp"
#include "claimrag/abstention/stacked_strategy.hpp"
#include "claimrag/abstention/strategy_confidence.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using verification::Label;

namespace {

verification::DocumentVerdict document(std::string id, double support, double contradict, std::vector<std::size_t> rationale,
                                       std::vector<double> sentence_scores) {
  verification::DocumentVerdict verdict;
  verdict.doc_id = std::move(id);
  verdict.probabilities = {support, contradict, 1.0 - support - contradict};
  verdict.rationale = std::move(rationale);
  for (std::size_t s = 0; s < sentence_scores.size(); ++s) verdict.sentence_scores.push_back({s, sentence_scores[s]});
  return verdict;
}

/// Claim 7: evidence in abstract "10" (SUPPORT, rationale sets {1} and {2, 3}).
dataset::Claim supported_claim() {
  dataset::Claim claim;
  claim.id = "7";
  claim.text = "x";
  claim.evidence["10"] = {{{1}, "SUPPORT"}, {{2, 3}, "SUPPORT"}};
  claim.cited_doc_ids = {"10"};
  return claim;
}

}  // namespace

TEST(AbstentionAnswer, TakesTheMostProbableVerdictOverDocumentsAndItsRationale) {
  verification::ClaimVerdict verdict;
  verdict.claim_id = "7";
  verdict.documents = {document("10", 0.30, 0.25, {2}, {0.1, 0.2, 0.9}), document("11", 0.20, 0.55, {0, 1}, {0.8, 0.7})};
  const auto answer = abstention::claim_answer(verdict);
  ASSERT_TRUE(answer.answered);
  EXPECT_EQ(answer.verdict, Label::contradict);  // 0.55 beats 0.30 although the verifier may call both NEI
  EXPECT_EQ(answer.doc_id, "11");
  EXPECT_EQ(answer.cited, (std::vector<std::size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(answer.probability, 0.55);
  EXPECT_DOUBLE_EQ(answer.citation_score, 0.8);  // the better of the cited sentences' 0.8 and 0.7
}

TEST(AbstentionAnswer, TiesGoToSupportThenTheEarlierDocumentAndAnEmptyRationaleCitesTheBestSentence) {
  verification::ClaimVerdict verdict;
  verdict.claim_id = "7";
  verdict.documents = {document("10", 0.4, 0.4, {}, {0.1, 0.6, 0.3}), document("11", 0.4, 0.1, {0}, {0.9})};
  const auto answer = abstention::claim_answer(verdict);
  EXPECT_EQ(answer.verdict, Label::support);
  EXPECT_EQ(answer.doc_id, "10");
  EXPECT_EQ(answer.cited, (std::vector<std::size_t>{1}));
  EXPECT_DOUBLE_EQ(answer.citation_score, 0.6);
}

TEST(AbstentionAnswer, AClaimWithoutDocumentsHasNoAnswerAndItsReason) {
  verification::ClaimVerdict verdict;
  verdict.claim_id = "7";
  verdict.reason = "no retrieved abstract";
  const auto answer = abstention::claim_answer(verdict);
  EXPECT_FALSE(answer.answered);
  EXPECT_EQ(answer.reason, "no retrieved abstract");
  EXPECT_TRUE(abstention::is_unsafe(answer, supported_claim()));
}

TEST(AbstentionAnswer, UnsafeUnlessTheVerdictIsRightAndACitedSentenceIsAGoldRationale) {
  const auto claim = supported_claim();
  abstention::ClaimAnswer answer;
  answer.answered = true;
  answer.verdict = Label::support;
  answer.doc_id = "10";
  answer.cited = {0, 3};  // 3 is in the set {2, 3}
  EXPECT_FALSE(abstention::is_unsafe(answer, claim));
  answer.cited = {0};  // right verdict, no gold sentence
  EXPECT_TRUE(abstention::is_unsafe(answer, claim));
  answer.cited = {1};
  answer.verdict = Label::contradict;  // gold sentence, wrong verdict
  EXPECT_TRUE(abstention::is_unsafe(answer, claim));
  answer.verdict = Label::support;
  answer.doc_id = "11";  // not an evidence abstract of the claim
  EXPECT_TRUE(abstention::is_unsafe(answer, claim));
  dataset::Claim nei = claim;
  nei.evidence.clear();
  answer.doc_id = "10";
  EXPECT_TRUE(abstention::is_unsafe(answer, nei));  // any verdict on a NOT ENOUGH INFO claim
}

TEST(AbstentionStrategyConfidence, EachSystemsConfidenceInTheGivenVerdict) {
  grounding::ClaimJudgement judgement;
  judgement.support = 0.7;
  judgement.conflict = 0.2;
  EXPECT_DOUBLE_EQ(abstention::grounding_confidence(judgement, Label::support), 0.7);
  EXPECT_DOUBLE_EQ(abstention::grounding_confidence(judgement, Label::contradict), 0.2);
  EXPECT_THROW((void)abstention::grounding_confidence(judgement, Label::not_enough_info), InternalError);

  interrogation::ClaimLevelVerdict ciber;
  ciber.supporting = {{"p1", "1", 0.6}, {"p2", "2", 0.2}};
  ciber.refuting = {{"p3", "3", 0.2}};
  EXPECT_DOUBLE_EQ(abstention::interrogation_confidence(ciber, Label::support), 0.8);
  EXPECT_DOUBLE_EQ(abstention::interrogation_confidence(ciber, Label::contradict), 0.2);
  EXPECT_DOUBLE_EQ(abstention::interrogation_confidence(interrogation::ClaimLevelVerdict{}, Label::support), 0.0);

  sufficiency::SurePrediction sure;
  sure.probabilities = {0.6, 0.3, 0.1};
  sure.uncertainty = 0.4;
  EXPECT_DOUBLE_EQ(abstention::sufficiency_confidence(sure, 0.5, Label::support), 0.6 - 0.2);
  EXPECT_DOUBLE_EQ(abstention::sufficiency_confidence(sure, 0.5, Label::contradict), 0.3 - 0.2);
}

TEST(AbstentionClaimsTable, RoundTripsAndNamesFileAndLineOnBadInput) {
  claimrag::testing::TempFolder folder;
  abstention::ClaimsTable table;
  table.strategies = {"a", "b"};
  table.claim_ids = {"1", "2"};
  table.answered = {true, false};
  table.unsafe = {false, true};
  table.confidence = {{0.1, 1.0 / 3.0}, {-2.5, 7}};
  const auto path = folder.path() / "claims.tsv";
  abstention::write_claims_table(table, path);
  const auto back = abstention::read_claims_table(path);
  EXPECT_EQ(back.strategies, table.strategies);
  EXPECT_EQ(back.claim_ids, table.claim_ids);
  EXPECT_EQ(back.answered, table.answered);
  EXPECT_EQ(back.unsafe, table.unsafe);
  EXPECT_EQ(back.confidence, table.confidence);  // shortest exact decimals read back as the same doubles

  const auto expect_error = [&](const std::string& contents, const std::string& fragment) {
    const auto bad = folder.write("bad.tsv", contents);
    try {
      (void)abstention::read_claims_table(bad);
      ADD_FAILURE() << "accepted: " << contents;
    } catch (const DataError& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
  };
  const std::string header = "claim_id\tanswered\tunsafe\ta\n";
  expect_error("claim_id\tanswered\tunsafe\n1\t1\t0\n", "bad.tsv:1:");
  expect_error("id\tanswered\tunsafe\ta\n", "bad.tsv:1:");
  expect_error("claim_id\tanswered\tunsafe\ta\ta\n", "bad.tsv:1:");
  expect_error(header + "1\t1\t0\t0.5\n2\t1\t0\t3\t4\n", "bad.tsv:3: expected 4");
  expect_error(header + "1\t2\t0\t0.5\n", "bad.tsv:2: answered");
  expect_error(header + "1\t0\t0\t0.5\n", "bad.tsv:2:");
  expect_error(header + "1\t1\t0\tnan\n", "bad.tsv:2:");
  expect_error(header + "1\t1\t0\t0.5x\n", "bad.tsv:2:");
  expect_error(header + "1\t1\t0\t0.5\n1\t1\t1\t0.5\n", "bad.tsv:3: claim 1 appears twice");
  expect_error(header, "no claims");
}

TEST(AbstentionComparison, OperatingPointsComeFromTheTrainingTable) {
  abstention::ClaimsTable test;
  test.strategies = {"s"};
  test.claim_ids = {"1", "2", "3", "4"};
  test.answered = {true, true, true, true};
  test.unsafe = {false, true, false, true};
  test.confidence = {{0.9, 0.7, 0.6, 0.2}};
  abstention::ClaimsTable train = test;
  train.unsafe = {false, false, true, true};
  train.confidence = {{0.95, 0.8, 0.5, 0.1}};
  abstention::ComparisonSettings settings;
  settings.reference = "s";
  settings.resamples = 50;
  settings.risk_targets = {0.0};
  settings.coverage_target = 0.5;
  settings.stacked = false;
  const auto comparison = abstention::compare_abstention(test, train, settings);
  ASSERT_EQ(comparison.operating_points.size(), 2u);
  // Train risk 0 holds down to 0.8; on test that answers 0.9 only.
  EXPECT_EQ(comparison.operating_points[0].target, "risk_0.00");
  EXPECT_DOUBLE_EQ(comparison.operating_points[0].train.threshold, 0.8);
  EXPECT_EQ(comparison.operating_points[0].test.answered, 1u);
  EXPECT_DOUBLE_EQ(comparison.operating_points[0].test.risk, 0.0);
  // Train coverage 0.5 is the same threshold 0.8 here.
  EXPECT_EQ(comparison.operating_points[1].target, "coverage_0.50");
  EXPECT_DOUBLE_EQ(comparison.operating_points[1].test.coverage, 0.25);
  EXPECT_EQ(comparison.unsafe, 2u);

  train.strategies = {"t"};
  EXPECT_THROW((void)abstention::compare_abstention(test, train, settings), UsageError);
}

TEST(AbstentionStackedStrategy, LearnsFromTheTrainingTableOnlyAndScoresTrainOutOfFold) {
  // "noise" says nothing; "signal" is high exactly for the safe answers (with a margin that
  // varies, so the fit is finite under L2).
  abstention::ClaimsTable train;
  train.strategies = {"noise", "signal"};
  train.confidence.resize(2);
  for (int c = 0; c < 40; ++c) {
    const bool safe = c % 2 == 0;
    train.claim_ids.push_back(std::to_string(c));
    train.answered.push_back(c != 39);  // one unanswered claim, left out of the fit
    train.unsafe.push_back(!safe || c == 39);
    train.confidence[0].push_back(static_cast<double>((c * 7) % 5));
    train.confidence[1].push_back((safe ? 1.0 : -1.0) * (1.0 + 0.1 * (c % 3)));
  }
  abstention::ClaimsTable test = train;
  test.confidence[1] = std::vector<double>(40, 0.0);
  test.confidence[1][3] = 2.0;  // an unsafe test claim that "signal" now puts first
  auto train_copy = train;
  abstention::add_stacked_strategy(train_copy, test, 42);
  ASSERT_EQ(test.strategies.back(), "stacked");
  ASSERT_EQ(train_copy.strategies.back(), "stacked");
  // The learned weight on "signal" is positive: claim 3 ranks first on test.
  const auto& stacked = test.confidence.back();
  EXPECT_EQ(std::max_element(stacked.begin(), stacked.end()) - stacked.begin(), 3);
  // Out of fold on train, every answered safe claim still ranks above every answered unsafe one.
  double lowest_safe = 1e300, highest_unsafe = -1e300;
  for (std::size_t c = 0; c + 1 < 40; ++c) {
    const double value = train_copy.confidence.back()[c];
    if (train.unsafe[c]) highest_unsafe = std::max(highest_unsafe, value);
    else lowest_safe = std::min(lowest_safe, value);
  }
  EXPECT_GT(lowest_safe, highest_unsafe);
  // The same seed gives the same values; a table that already has the column is refused.
  auto again_train = train;
  auto again_test = train;
  again_test.confidence[1] = std::vector<double>(40, 0.0);
  again_test.confidence[1][3] = 2.0;
  abstention::add_stacked_strategy(again_train, again_test, 42);
  EXPECT_EQ(again_train.confidence.back(), train_copy.confidence.back());
  EXPECT_THROW(abstention::add_stacked_strategy(again_train, again_test, 42), UsageError);
}

TEST(AbstentionConfig, ReadsTheSectionAndRefusesUnknownKeysAndBadValues) {
  claimrag::testing::TempFolder folder;
  const auto config = experiment::load_config(folder.write(
      "good.json", R"({"seed": 7, "abstention": {"reference": "verifier", "resamples": 50, "risk_targets": [0.2], "stacked": false}})"));
  EXPECT_EQ(config.abstention.reference, "verifier");
  EXPECT_EQ(config.abstention.resamples, 50u);
  EXPECT_EQ(config.abstention.risk_targets, std::vector<double>{0.2});
  EXPECT_DOUBLE_EQ(config.abstention.coverage_target, 0.30);
  EXPECT_FALSE(config.abstention.stacked);
  EXPECT_EQ(config.abstention.seed, 7u);  // the experiment's seed
  using claimrag::testing::expect_error;
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("a.json", R"({"abstention": {"target": 0.3}})")); }, "target");
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("b.json", R"({"abstention": {"coverage_target": 0}})")); },
                           "abstention.coverage_target must lie in (0, 1]");
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("c.json", R"({"abstention": {"risk_targets": [1.5]}})")); },
                           "abstention.risk_targets");
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("d.json", R"({"abstention": {"resamples": 0}})")); }, "resamples");
}
