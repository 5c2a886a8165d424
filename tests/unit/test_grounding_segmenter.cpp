// The answer segmenter (grounding/claim_segmenter.hpp): each documented rule, with byte spans.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claimrag/grounding/claim_segmenter.hpp"

namespace claimrag::grounding {
namespace {

std::vector<std::string> texts(std::string_view answer) {
  std::vector<std::string> out;
  for (const auto& claim : segment_claims(answer)) out.push_back(claim.text);
  return out;
}

TEST(ClaimSegmenter, SplitsAtTerminatorsFollowedByWhitespaceWithByteSpans) {
  const std::string answer = "Aspirin lowers risk. Does it work?  Yes!\tDone.";
  const auto claims = segment_claims(answer);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_EQ(claims[0].text, "Aspirin lowers risk.");
  EXPECT_EQ(claims[0].begin, 0u);
  EXPECT_EQ(claims[0].end, 20u);
  EXPECT_EQ(claims[1].text, "Does it work?");
  EXPECT_EQ(claims[1].begin, 21u);
  EXPECT_EQ(claims[1].end, 34u);
  EXPECT_EQ(claims[2].text, "Yes!");
  EXPECT_EQ(claims[2].begin, 36u);
  EXPECT_EQ(claims[3].text, "Done.");
  EXPECT_EQ(claims[3].begin, 41u);
  EXPECT_EQ(claims[3].end, answer.size());
  for (const auto& claim : claims) EXPECT_EQ(answer.substr(claim.begin, claim.end - claim.begin), claim.text);
}

TEST(ClaimSegmenter, AbbreviationsDoNotSplit) {
  EXPECT_EQ(texts("Statins, e.g. Atorvastatin, help. Next one."),
            (std::vector<std::string>{"Statins, e.g. Atorvastatin, help.", "Next one."}));
  EXPECT_EQ(texts("Some drugs (i.e. Statins) help. Next."), (std::vector<std::string>{"Some drugs (i.e. Statins) help.", "Next."}));
  EXPECT_EQ(texts("Smith et al. Reported this. Next."), (std::vector<std::string>{"Smith et al. Reported this.", "Next."}));
  EXPECT_EQ(texts("As shown in Fig. 2 it rises. Next."), (std::vector<std::string>{"As shown in Fig. 2 it rises.", "Next."}));
  EXPECT_EQ(texts("Drug A vs. Placebo differed. Next."), (std::vector<std::string>{"Drug A vs. Placebo differed.", "Next."}));
}

TEST(ClaimSegmenter, DecimalsAndPValuesDoNotSplit) {
  EXPECT_EQ(texts("The dose was 0.5 mg. It worked."), (std::vector<std::string>{"The dose was 0.5 mg.", "It worked."}));
  EXPECT_EQ(texts("The effect held (p < 0.05). It was large."),
            (std::vector<std::string>{"The effect held (p < 0.05).", "It was large."}));
  EXPECT_EQ(texts("Significant at p<.05 here. Next."), (std::vector<std::string>{"Significant at p<.05 here.", "Next."}));
}

TEST(ClaimSegmenter, LowercaseDigitOrPunctuationAfterAPeriodContinues) {
  EXPECT_EQ(texts("It rose approx. five fold. Next."), (std::vector<std::string>{"It rose approx. five fold.", "Next."}));
  EXPECT_EQ(texts("See item no. 5 below. Next."), (std::vector<std::string>{"See item no. 5 below.", "Next."}));
  // A run of terminators is not a single period: "?!" followed by lowercase still ends the claim.
  EXPECT_EQ(texts("Really?! yes."), (std::vector<std::string>{"Really?!", "yes."}));
}

TEST(ClaimSegmenter, ClosingQuotesAndBracketsStayWithTheClaim) {
  EXPECT_EQ(texts("He said \"it works.\" Then left."), (std::vector<std::string>{"He said \"it works.\"", "Then left."}));
  EXPECT_EQ(texts("(This is aside.) Main point."), (std::vector<std::string>{"(This is aside.)", "Main point."}));
}

TEST(ClaimSegmenter, BlankLinesEndClaims) {
  const std::string answer = "First paragraph without period\n \nSecond one\nstill second";
  const auto claims = segment_claims(answer);
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_EQ(claims[0].text, "First paragraph without period");
  EXPECT_EQ(claims[1].text, "Second one\nstill second");
  EXPECT_EQ(claims[1].begin, 33u);
}

TEST(ClaimSegmenter, WhitespaceOnlyAndEmptyGiveNoClaim) {
  EXPECT_TRUE(segment_claims("").empty());
  EXPECT_TRUE(segment_claims(" \n\t ").empty());
  EXPECT_EQ(texts("  No terminator at all  "), (std::vector<std::string>{"No terminator at all"}));
}

TEST(ClaimSegmenter, Utf8PassesThroughWithByteSpans) {
  const std::string answer = "IL-6 rises by 5 µg. Größe matters.";
  const auto claims = segment_claims(answer);
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_EQ(claims[0].text, "IL-6 rises by 5 µg.");
  EXPECT_EQ(claims[0].end, 20u);  // "µ" is two bytes
  EXPECT_EQ(claims[1].begin, 21u);
}

TEST(ClaimSegmenter, JoinKeepsTheInputsSeparators) {
  const std::string answer = "One.  Two.\n\nThree. Four.";
  const auto claims = segment_claims(answer);
  ASSERT_EQ(claims.size(), 4u);
  EXPECT_EQ(join_claims(answer, claims, {true, true, true, true}), answer);
  EXPECT_EQ(join_claims(answer, claims, {true, false, true, false}), "One.  Three.");
  EXPECT_EQ(join_claims(answer, claims, {false, true, false, true}), "Two.\n\nFour.");
  EXPECT_EQ(join_claims(answer, claims, {false, false, false, false}), "");
  // The answer's last claim followed by nothing is joined with one space.
  const std::string two = "A b. C d.";
  const auto pair = segment_claims(two);
  EXPECT_EQ(join_claims(two, pair, {true, true}), two);
}

}  // namespace
}  // namespace claimrag::grounding
