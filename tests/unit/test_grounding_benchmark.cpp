// The grounding benchmark's construction (grounding/benchmark.hpp) on five hand-made claims:
// families, label interleaving, contexts with decoys, gold labels, skipped claims, the sample.

#include <gtest/gtest.h>

#include <algorithm>

#include "claimrag/grounding/benchmark.hpp"
#include "claimrag/grounding/claim_segmenter.hpp"

namespace claimrag::grounding {
namespace {

using verification::Label;

dataset::Claim claim(std::string id, std::string text, std::vector<std::string> cited, std::string label = "") {
  dataset::Claim c{std::move(id), std::move(text), {}, cited};
  if (!label.empty()) c.evidence[cited.front()] = {{{0}, label}};
  return c;
}

TEST(GroundingBenchmark, FamiliesMixLabelsContextsHoldGoldThenDecoys) {
  const std::vector<dataset::Claim> claims{
      claim("1", "Drug A lowers risk", {"10"}, "SUPPORT"),
      claim("2", "Drug A raises risk.", {"10"}, "CONTRADICT"),
      claim("3", "Drug A is cheap.", {"10", "11"}),
      claim("4", "mRNA levels rise.", {"12"}, "SUPPORT"),  // starts lowercase: would merge, skipped
      claim("5", "Coffee helps.", {"13"}, "SUPPORT")};      // a family of one: pooled, and alone in the pool
  run::Run decoys;
  decoys.add({"1", {{"11", 3.0}, {"20", 2.0}, {"21", 1.0}}});
  decoys.add({"2", {{"10", 3.0}, {"22", 2.0}}});
  BenchmarkOptions options;
  options.decoys_per_claim = 1;
  options.id_prefix = "dev";
  const Benchmark benchmark = build_benchmark(claims, decoys, options);
  EXPECT_EQ(benchmark.skipped_claims, 1u);
  EXPECT_EQ(benchmark.dropped_claims, 1u);  // "Coffee helps." alone in the pool
  ASSERT_EQ(benchmark.answers.size(), 1u);
  const auto& answer = benchmark.answers[0];
  EXPECT_EQ(answer.id, "dev-r0-0");
  ASSERT_EQ(answer.claims.size(), 3u);
  // One claim of each label, interleaved SUPPORT, CONTRADICT, NEI.
  EXPECT_EQ(answer.claims[0].claim_id, "1");
  EXPECT_EQ(answer.claims[0].text, "Drug A lowers risk.");  // '.' appended
  EXPECT_EQ(answer.claims[0].gold, Label::support);
  EXPECT_EQ(answer.claims[1].gold, Label::contradict);
  EXPECT_EQ(answer.claims[2].gold, Label::not_enough_info);
  EXPECT_EQ(answer.answer, "Drug A lowers risk. Drug A raises risk. Drug A is cheap.");
  EXPECT_EQ(segment_claims(answer.answer).size(), 3u);
  EXPECT_EQ(answer.gold_documents, 2u);
  EXPECT_EQ(answer.context_doc_ids, (std::vector<std::string>{"10", "11", "20", "22"}));
}

TEST(GroundingBenchmark, RoundsRepeatClaimsAndTheSampleIsSortedAndSeeded) {
  std::vector<dataset::Claim> claims;
  for (int c = 0; c < 8; ++c) claims.push_back(claim(std::to_string(c), "Claim number " + std::to_string(c) + ".", {std::to_string(100 + c)}));
  BenchmarkOptions options;
  options.rounds = 2;
  const Benchmark benchmark = build_benchmark(claims, run::Run{}, options);
  ASSERT_EQ(benchmark.answers.size(), 4u);  // 8 pooled claims cut into 2 answers of 4, twice
  EXPECT_EQ(benchmark.answers[2].id, "answer-r1-2");
  EXPECT_EQ(benchmark.answers[0].claims.size(), 4u);
  const auto sample = frozen_sample(10, 4, 42);
  ASSERT_EQ(sample.size(), 4u);
  EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
  EXPECT_EQ(sample, frozen_sample(10, 4, 42));
  EXPECT_EQ(frozen_sample(3, 100, 42), (std::vector<std::size_t>{0, 1, 2}));
}

}  // namespace
}  // namespace claimrag::grounding
