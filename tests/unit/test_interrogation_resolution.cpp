// Response resolution: a table of hand-written responses with the answer each must resolve to,
// both as an answer to the probe's own question and as a stance on the original claim.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claimrag/interrogation/resolution.hpp"
#include "interrogation_answers.hpp"

namespace ci = claimrag::interrogation;
using ci::Answer;

namespace {

const std::string claim = "Human activities may cause climate change";
const std::string negated = "Human activities may not cause climate change";

ci::Probe make_probe(bool asks_false, bool negated_claim, ci::ProbeForm form = ci::ProbeForm::question) {
  ci::Probe probe;
  probe.id = "p";
  probe.template_text = "{claim}";
  probe.asks_false = asks_false;
  probe.negated_claim = negated_claim;
  probe.form = form;
  return probe;
}

// The probes of the table: "is C true?" (agree), "is C false?" (conflict), "is ¬C true?"
// (conflict), and the completion "the likelihood that C is true / false is relatively [...]".
enum Kind { asks_true, asks_false, negated_true, completion_true, completion_false };

ci::Probe probe_of(Kind kind) {
  switch (kind) {
    case asks_true: return make_probe(false, false);
    case asks_false: return make_probe(true, false);
    case negated_true: return make_probe(false, true);
    case completion_true: return make_probe(false, false, ci::ProbeForm::completion);
    case completion_false: return make_probe(true, false, ci::ProbeForm::completion);
  }
  return make_probe(false, false);
}

struct Case {
  Kind kind;
  std::string text;
  Answer answer;  // to the probe's own question
  Answer stance;  // on the original claim C
  bool resolved;
  int rule;
};

using claimrag::testing::N;
using claimrag::testing::R;
using claimrag::testing::S;

const std::vector<Case> table = {
    // Direct answers to "is C true?".
    {asks_true, "Yes", S, S, true, 5},
    {asks_true, "No", R, R, true, 5},
    {asks_true, "Yes.", S, S, true, 5},
    {asks_true, "Correct.", S, S, true, 5},
    {asks_true, "True.", S, S, true, 5},
    {asks_true, "False.", R, R, true, 5},
    {asks_true, "Absolutely, the findings agree.", S, S, true, 5},
    {asks_true, "Based on the abstract, yes.", S, S, true, 6},
    {asks_true, "Based on the abstract, no.", R, R, true, 6},
    {asks_true, "The answer is yes.", S, S, true, 6},
    // "no" inside a sentence is not an answer.
    {asks_true, "There is no significant difference in outcomes.", N, N, false, 7},
    // Hedges.
    {asks_true, "I am not sure", N, N, true, 2},
    {asks_true, "I am not sure.", N, N, true, 2},
    {asks_true, "The abstract does not provide enough information to determine this.", N, N, true, 2},
    {asks_true, "It is unclear from the abstract.", N, N, true, 2},
    {asks_true, "I don't know.", N, N, true, 2},
    {asks_true, "The evidence is inconclusive.", N, N, true, 2},
    {asks_true, "I'm not sure whether the claim is true.", N, N, true, 2},
    // Statements on the claim's truth.
    {asks_true, "The claim is true.", S, S, true, 4},
    {asks_true, "The claim is correct based on the abstract.", S, S, true, 4},
    {asks_true, "The statement is false.", R, R, true, 4},
    {asks_true,
     "According to the abstract provided, the statement \"Human activities may cause climate change\" is false.", R, R,
     true, 4},
    {asks_true, "The claim \xE2\x80\x9CHuman activities may cause climate change\xE2\x80\x9D is accurate.", S, S, true, 4},
    {asks_true, "The claim is not true.", R, R, true, 4},
    {asks_true, "It isn't true.", R, R, true, 4},
    {asks_true, "The claim is not necessarily true.", R, R, true, 4},
    {asks_true, "The claim is not supported by the study.", R, R, true, 4},
    {asks_true, "Yes, the claim is supported by the study.", S, S, true, 4},
    {asks_true, "No. The claim is incorrect.", R, R, true, 4},
    {asks_true, "Nope, it is wrong.", R, R, true, 4},
    {asks_true, "The findings are consistent with the claim, which is true.", S, S, true, 4},
    {asks_true, "The study supports the claim.", S, S, true, 4},
    {asks_true, "The study contradicts the claim.", R, R, true, 4},
    {asks_true, "No, the study does not support it.", R, R, true, 4},
    // Unresolvable.
    {asks_true, "", N, N, false, 1},
    {asks_true, "   \n\t", N, N, false, 1},
    {asks_true, "<html><body><h1>502 Bad Gateway</h1></body></html>", N, N, false, 1},
    {asks_true, "<!DOCTYPE html><html><head><title>Error</title></head></html>", N, N, false, 1},
    // A bare echo of the claim says nothing once the claim is removed.
    {asks_true, "Human activities may cause climate change.", N, N, false, 1},
    // "is C false?": the seed's two GPT-3.5 answers both support C.
    {asks_false,
     "Yes, the statement \xE2\x80\x9CHuman activities may cause climate change\xE2\x80\x9D is not necessarily false "
     "based on the information provided in the abstract.",
     R, S, true, 4},
    {asks_false,
     "No. The statement \xE2\x80\x9CHuman activities may cause climate change\xE2\x80\x9D is not false based on the "
     "information provided in the abstract.",
     R, S, true, 4},
    {asks_false, "Yes.", S, R, true, 5},
    {asks_false, "No.", R, S, true, 5},
    {asks_false, "False.", R, S, true, 5},
    {asks_false, "Yes, the claim is false.", S, R, true, 4},
    {asks_false, "The claim is true.", R, S, true, 4},
    {asks_false, "The claim is refuted by the study.", S, R, true, 4},
    {asks_false, "I am not sure", N, N, true, 2},
    // "is ¬C true?": answers about the negated claim, inverted into stances on C.
    {negated_true, "Yes", S, R, true, 5},
    {negated_true, "No", R, S, true, 5},
    {negated_true, "The statement \"Human activities may not cause climate change\" is false.", R, S, true, 4},
    {negated_true, "The claim Human activities may not cause climate change is not correct.", R, S, true, 4},
    // Completion probes.
    {completion_true, "high", S, S, true, 3},
    {completion_true, "relatively low", R, R, true, 3},
    {completion_true, "quite high, given the data", S, S, true, 3},
    {completion_true, "moderate", N, N, true, 3},
    {completion_true, "uncertain", N, N, true, 2},
    {completion_true, "contingent on extensive scientific evidence", N, N, false, 7},
    {completion_false, "high", S, R, true, 3},
    {completion_false, "low", R, S, true, 3},
};

}  // namespace

TEST(InterrogationResolution, TableOfHandWrittenResponses) {
  ASSERT_GE(table.size(), 40U);
  for (const Case& c : table) {
    const ci::Probe probe = probe_of(c.kind);
    const std::string& probe_claim = probe.negated_claim ? negated : claim;
    const ci::Resolution resolution = ci::resolve_response(probe, c.text, probe_claim);
    EXPECT_EQ(resolution.answer, c.answer) << "text: \"" << c.text << "\"";
    EXPECT_EQ(ci::stance_on_claim(probe, resolution.answer), c.stance) << "text: \"" << c.text << "\"";
    EXPECT_EQ(resolution.resolved, c.resolved) << "text: \"" << c.text << "\"";
    EXPECT_EQ(resolution.rule, c.rule) << "text: \"" << c.text << "\"";
  }
}

TEST(InterrogationResolution, SeedAnswersToIsTheClaimFalseBothSupportTheClaim) {
  const ci::Probe is_false = probe_of(asks_false);
  const std::string yes = "Yes, the statement \"" + claim +
                          "\" is not necessarily false based on the information provided in the abstract.";
  const std::string no = "No. The statement \"" + claim + "\" is not false based on the information provided in the abstract.";
  EXPECT_EQ(ci::stance_on_claim(is_false, ci::resolve_response(is_false, yes, claim).answer), Answer::support);
  EXPECT_EQ(ci::stance_on_claim(is_false, ci::resolve_response(is_false, no, claim).answer), Answer::support);
}

TEST(InterrogationResolution, TheClaimsOwnWordsAreNotReadAsTheAnswer) {
  // Read with the claim left in, "is not supported" would deny it; removed, the "Yes" decides.
  const std::string tricky = "Drug X is not supported by randomized trials";
  const ci::Probe probe = probe_of(asks_true);
  const auto resolution = ci::resolve_response(probe, "Yes, drug X is not supported by randomized trials.", tricky);
  EXPECT_EQ(resolution.answer, Answer::support);
  EXPECT_EQ(resolution.rule, 5);
}

TEST(InterrogationResolution, StanceInvertsOnlyConflictProbes) {
  EXPECT_EQ(ci::stance_on_claim(probe_of(asks_true), Answer::support), Answer::support);
  EXPECT_EQ(ci::stance_on_claim(probe_of(asks_false), Answer::support), Answer::refute);
  EXPECT_EQ(ci::stance_on_claim(probe_of(negated_true), Answer::refute), Answer::support);
  EXPECT_EQ(ci::stance_on_claim(probe_of(asks_false), Answer::neutral), Answer::neutral);
  // "Is ¬C false?" agrees with p_O again.
  EXPECT_EQ(make_probe(true, true).set(), ci::ProbeSet::agree);
  EXPECT_EQ(ci::stance_on_claim(make_probe(true, true), Answer::support), Answer::support);
}
