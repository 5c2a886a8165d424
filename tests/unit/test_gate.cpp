#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/gate/risk_coverage.hpp"
#include "claimrag/gate/sweep.hpp"
#include "claimrag/gate/thresholds.hpp"

using namespace claimrag;

TEST(Thresholds, ListsRangesAndCoverages) {
  EXPECT_EQ(gate::parse_thresholds("10,15,20").values, (std::vector<double>{10, 15, 20}));
  EXPECT_EQ(gate::parse_thresholds("10:40:5").values, (std::vector<double>{10, 15, 20, 25, 30, 35, 40}));
  EXPECT_EQ(gate::parse_thresholds("0:1:0.1").values.size(), 11u);  // 1.0 is reached despite rounding
  EXPECT_EQ(gate::parse_thresholds("0:1:0.1").values[3], 0.30000000000000004);  // start + i·step
  EXPECT_EQ(gate::parse_thresholds("5:5:1").values, std::vector<double>{5});
  EXPECT_EQ(gate::parse_thresholds("coverage:0.5,1").coverages, (std::vector<double>{0.5, 1.0}));
}

TEST(Thresholds, RefusesEmptyReversedAndMalformedSpecifications) {
  EXPECT_THROW(gate::parse_thresholds(""), UsageError);
  EXPECT_THROW(gate::parse_thresholds("40:10:5"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("10:40:0"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("10:40:-5"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("10:40"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("ten"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("1,,2"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("coverage:0"), UsageError);
  EXPECT_THROW(gate::parse_thresholds("coverage:1.5"), UsageError);
}

TEST(Thresholds, CoverageResolvesToTheSignalOfTheLastAnsweredClaim) {
  const auto spec = gate::parse_thresholds("coverage:0.25,0.5,1");
  EXPECT_EQ(gate::resolve_thresholds(spec, {3, 1, 4, 2}), (std::vector<double>{4, 3, 1}));
}

TEST(Sweep, RatesComputedByHand) {
  // Signals 5, 4, 3, 2; hallucinated: the claims with 4 and 2; F1 known for 5 (0.5) and 3 (0.1).
  const std::vector<gate::ClaimOutcome> claims{
      {"a", 5, false, 0.5}, {"b", 4, true, std::nullopt}, {"c", 3, false, 0.1}, {"d", 2, true, std::nullopt}};
  const auto rows = gate::sweep(claims, {4, 3.5, 6, 0});
  EXPECT_EQ(rows[0].answered, 2u);  // signal >= threshold answers
  EXPECT_DOUBLE_EQ(rows[0].answer_rate, 0.5);
  EXPECT_DOUBLE_EQ(rows[0].refusal_rate, 0.5);
  EXPECT_DOUBLE_EQ(rows[0].hallucination_rate, 0.5);
  EXPECT_DOUBLE_EQ(rows[0].evidence_f1, 0.5);
  EXPECT_EQ(rows[1].answered, 2u);
  EXPECT_EQ(rows[2].answered, 0u);
  EXPECT_EQ(rows[2].hallucination_rate, 0.0);
  EXPECT_EQ(rows[2].refusal_rate, 1.0);
  EXPECT_EQ(rows[3].answered, 4u);
  EXPECT_DOUBLE_EQ(rows[3].evidence_f1, 0.3);
}

TEST(Sweep, AgreesWithADirectCountForManyThresholds) {
  std::vector<gate::ClaimOutcome> claims;
  for (int i = 0; i < 200; ++i) claims.push_back({std::to_string(i), static_cast<double>((i * 37) % 23), i % 3 == 0, std::nullopt});
  std::vector<double> thresholds;
  for (int t = -1; t < 25; ++t) thresholds.push_back(t + 0.0);
  const auto rows = gate::sweep(claims, thresholds);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::size_t answered = 0, hallucinated = 0;
    for (const auto& claim : claims) {
      if (claim.signal >= thresholds[r]) {
        ++answered;
        hallucinated += claim.hallucinated ? 1 : 0;
      }
    }
    EXPECT_EQ(rows[r].answered, answered);
    EXPECT_DOUBLE_EQ(rows[r].hallucination_rate, answered ? static_cast<double>(hallucinated) / static_cast<double>(answered) : 0.0);
  }
}

TEST(RiskCoverage, CurveAurcAndSummariesByHand) {
  // Descending signals: 4 (ok), 3 (hallucinated), 2 (ok), 1 (hallucinated).
  const std::vector<gate::ClaimOutcome> claims{{"a", 4, false, {}}, {"b", 3, true, {}}, {"c", 2, false, {}}, {"d", 1, true, {}}};
  const auto curve = gate::risk_coverage(claims);
  EXPECT_EQ(curve.risk, (std::vector<double>{0.0, 0.5, 1.0 / 3.0, 0.5}));
  EXPECT_DOUBLE_EQ(curve.aurc, (0.0 + 0.5 + 1.0 / 3.0 + 0.5) / 4.0);
  EXPECT_DOUBLE_EQ(curve.risk_at_30, 0.5);  // ceil(0.3·4) = 2 answered
  EXPECT_DOUBLE_EQ(curve.risk_at_50, 0.5);
  EXPECT_DOUBLE_EQ(curve.risk_at_70, 1.0 / 3.0);  // ceil(0.7·4) = 3 answered
  EXPECT_DOUBLE_EQ(curve.coverage_at_risk_5, 0.25);
  EXPECT_DOUBLE_EQ(curve.coverage_at_risk_10, 0.25);
}

TEST(RiskCoverage, TiesTakeTheExpectationOverOrders) {
  // All four tied, two hallucinated: whatever the order, the expected risk is 0.5 everywhere.
  const std::vector<gate::ClaimOutcome> claims{{"a", 1, true, {}}, {"b", 1, false, {}}, {"c", 1, true, {}}, {"d", 1, false, {}}};
  const auto curve = gate::risk_coverage(claims);
  for (const double risk : curve.risk) EXPECT_DOUBLE_EQ(risk, 0.5);
  auto reordered = claims;
  std::reverse(reordered.begin(), reordered.end());
  EXPECT_EQ(gate::risk_coverage(reordered).risk, curve.risk);
}

#include "claimrag/gate/signals.hpp"
#include "support/temp_folder.hpp"

TEST(Signals, ComputedFromRunsByHand) {
  run::Run bm25, dense;
  bm25.tag = "bm25";
  bm25.add({"c1", {{"a", 30}, {"b", 12}, {"x", 1}}});
  bm25.add({"c2", {{"z", 8}}});
  dense.tag = "dense";
  dense.add({"c1", {{"b", 0.9}, {"c", 0.8}, {"a", 0.7}}});
  dense.add({"c2", {{"y", 0.5}}});
  const gate::SignalInputs inputs{&bm25, &dense, nullptr, nullptr, nullptr};
  const std::vector<std::string> ids{"c1", "c2"};
  EXPECT_EQ(gate::signal_values("bm25_top1", inputs, ids), (std::vector<double>{30, 8}));
  EXPECT_EQ(gate::signal_values("bm25_margin", inputs, ids), (std::vector<double>{18, 8}));
  EXPECT_EQ(gate::signal_values("sparse_dense_rank", inputs, ids), (std::vector<double>{1.0 / 3.0, 0.0}));
  EXPECT_EQ(gate::signal_values("sparse_dense_overlap", inputs, ids), (std::vector<double>{0.2, 0.0}));
}

TEST(Signals, MissingInputsClaimsAndUnknownNamesAreErrors) {
  run::Run bm25;
  bm25.tag = "bm25";
  bm25.add({"c1", {{"a", 1}}});
  const gate::SignalInputs inputs{&bm25, nullptr, nullptr, nullptr, nullptr};
  EXPECT_THROW(gate::signal_values("rerank_top1", inputs, {"c1"}), UsageError);
  EXPECT_THROW(gate::signal_values("sparse_dense_rank", inputs, {"c1"}), UsageError);
  EXPECT_THROW(gate::signal_values("bm25_top1", inputs, {"c1", "c9"}), DataError);
  EXPECT_THROW(gate::signal_values("magic", inputs, {"c1"}), UsageError);
}

TEST(Signals, AClaimMissingFromARunNamesTheRunFile) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("bm25.trec", "c1 Q0 a 1 1 bm25\n");
  const run::Run bm25 = run::read_trec_run(file);
  const gate::SignalInputs inputs{&bm25, nullptr, nullptr, nullptr, nullptr};
  claimrag::testing::expect_error<DataError>([&] { gate::signal_values("bm25_top1", inputs, {"c1", "c9"}); },
                                             file.string() + ": the BM25 run (tag bm25) has no ranking for claim c9");
}

TEST(Signals, SignalFileIsReadStrictly) {
  claimrag::testing::TempFolder folder;
  const auto values = gate::read_signal_file(folder.write("s.tsv", "claim_id\tvalue\nc1\t0.5\r\nc2\t-2\n").string());
  EXPECT_EQ(values.at("c1"), 0.5);
  EXPECT_EQ(values.at("c2"), -2.0);
  EXPECT_THROW(gate::read_signal_file(folder.write("a.tsv", "c1\t0.5\t3\n").string()), DataError);
  EXPECT_THROW(gate::read_signal_file(folder.write("b.tsv", "c1\thigh\n").string()), DataError);
  EXPECT_THROW(gate::read_signal_file(folder.write("c.tsv", "c1\t1\nc1\t2\n").string()), DataError);
}
