// The served sufficiency judge: its prompt, its reading of answers, and its decisions over a
// scripted transport (no network), each case written by hand.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/sufficiency/llm_judge.hpp"
#include "claimrag/text/prompt_template.hpp"
#include "support/scripted_transport.hpp"

using namespace claimrag;
using namespace claimrag::sufficiency;
using claimrag::testing::ScriptedReply;
using claimrag::testing::ScriptedTransport;

namespace {

const text::PromptTemplate kPrompt("Judge.\nClaim: {claim}\nPassages:\n{passages}\nJSON: {\"label\": ...}", "test prompt",
                                   kJudgePlaceholders);

Example example(const std::string& id, const std::string& claim, std::vector<std::string> evidence) {
  Example e;
  e.id = id;
  e.claim = claim;
  e.evidence = std::move(evidence);
  return e;
}

}  // namespace

TEST(PromptTemplateJudge, RendersEachPlaceholderOnceWithoutExpandingValues) {
  // The claim holds "{passages}": substituted text is never scanned again.
  const std::string prompt = judge_prompt(kPrompt, "A {passages} B", {"first\nline", "second"});
  EXPECT_EQ(prompt, "Judge.\nClaim: A {passages} B\nPassages:\n[1] first line\n[2] second\nJSON: {\"label\": ...}");
}

TEST(PromptTemplateJudge, RefusesAPromptMissingOrRepeatingAPlaceholder) {
  EXPECT_THROW(text::PromptTemplate("Claim: {claim}", "p.txt", kJudgePlaceholders), DataError);
  EXPECT_THROW(text::PromptTemplate("{claim} {claim} {passages}", "p.txt", kJudgePlaceholders), DataError);
  try {
    text::PromptTemplate("Claim: {claim}", "p.txt", kJudgePlaceholders);
  } catch (const DataError& error) {
    EXPECT_NE(std::string(error.what()).find("p.txt"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("{passages}"), std::string::npos);
  }
}

TEST(PromptTemplateJudge, TheShippedPromptHoldsBothPlaceholders) {
  const text::PromptTemplate shipped(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/prompts/sufficiency_judge.txt",
                                     kJudgePlaceholders);
  const std::string prompt = judge_prompt(shipped, "Aspirin lowers risk.", {"Aspirin lowered risk in adults."});
  EXPECT_NE(prompt.find("Claim: Aspirin lowers risk.\n"), std::string::npos);
  EXPECT_NE(prompt.find("Passages:\n[1] Aspirin lowered risk in adults."), std::string::npos);
}

TEST(JudgeAnswer, ReadsTheLabelFromPlainFencedOrEmbeddedJson) {
  std::string why;
  EXPECT_EQ(read_judge_label(R"({"label": "Supported"})", why), SufficiencyLabel::supported);
  EXPECT_EQ(read_judge_label("```json\n{\"label\": \" refuted \"}\n```", why), SufficiencyLabel::refuted);
  EXPECT_EQ(read_judge_label(R"(Sure. {"label": "INSUFFICIENT"} Hope this helps.)", why), SufficiencyLabel::insufficient);
}

TEST(JudgeAnswer, AnythingElseIsAFailureWithItsReasonNeverInsufficient) {
  std::string why;
  EXPECT_FALSE(read_judge_label("Insufficient", why).has_value());
  EXPECT_EQ(why, "no JSON object in the answer");
  EXPECT_FALSE(read_judge_label(R"({"verdict": "Supported"})", why).has_value());
  EXPECT_EQ(why, "the answer has no \"label\" string");
  EXPECT_FALSE(read_judge_label(R"({"label": "Maybe"})", why).has_value());
  EXPECT_EQ(why, "the answer's \"label\" is \"Maybe\", not Supported, Refuted or Insufficient");
}

TEST(JudgeAnswer, AsksAtTemperatureZeroWithTheLabelSchema) {
  const auto options = judge_chat_options("judge-model");
  EXPECT_EQ(options.model, "judge-model");
  EXPECT_EQ(options.temperature, 0.0);
  ASSERT_TRUE(options.json_schema.has_value());
  EXPECT_EQ((*options.json_schema)["properties"]["label"]["enum"],
            nlohmann::json::array({"Supported", "Refuted", "Insufficient"}));
  EXPECT_EQ((*options.json_schema)["required"], nlohmann::json::array({"label"}));
}

TEST(JudgeExamples, OneRequestPerJudgeableExampleWithKeptPassagesAndCountedFailures) {
  ScriptedTransport transport([](const std::string& prompt) -> ScriptedReply {
    if (prompt.find("Claim: fails") != std::string::npos) return {"", "HTTP status 503: busy"};
    if (prompt.find("Claim: rambles") != std::string::npos) return {"I think it is fine.", ""};
    return {R"({"label": "Refuted"})", ""};
  });
  const std::vector<Example> examples{example("dup", "A claim here.", {"p1", " p1 ", "p2"}), example("none", "No evidence.", {}),
                                      example("fails", "fails", {"p"}), example("rambles", "rambles", {"p"})};
  std::vector<ScoredExample> prepared;
  const auto decisions = judge_examples(transport, kPrompt, judge_chat_options("m"), examples, prepared);
  ASSERT_EQ(decisions.size(), 4u);
  // "none" is not sent: three requests, in example order; the duplicate passage is shown once.
  ASSERT_EQ(transport.requests().size(), 3u);
  EXPECT_EQ(transport.requests()[0].path, "/chat/completions");
  EXPECT_EQ(transport.requests()[0].body["messages"][0]["content"],
            "Judge.\nClaim: A claim here.\nPassages:\n[1] p1\n[2] p2\nJSON: {\"label\": ...}");
  EXPECT_EQ(transport.requests()[0].body["temperature"], 0.0);
  EXPECT_EQ(decisions[0].label, SufficiencyLabel::refuted);
  EXPECT_EQ(prepared[0].duplicates_removed, 1u);
  EXPECT_EQ(decisions[1].label, SufficiencyLabel::insufficient);
  EXPECT_EQ(decisions[1].reason, "no evidence");
  EXPECT_FALSE(decisions[1].sent);
  EXPECT_TRUE(decisions[2].failed());
  EXPECT_EQ(decisions[2].failure, "HTTP status 503: busy");
  EXPECT_FALSE(decisions[2].label.has_value());
  EXPECT_TRUE(decisions[3].failed());
  EXPECT_EQ(decisions[3].failure, "no JSON object in the answer");

  const auto judged = judge_output_line(examples[0], prepared[0], decisions[0]);
  EXPECT_EQ(judged["label"], "Refuted");
  EXPECT_EQ(judged["probabilities"]["Refuted"], 1.0);
  EXPECT_EQ(judged["probabilities"]["Supported"], 0.0);
  EXPECT_EQ(judged["score"], 0.0);
  EXPECT_EQ(judged["decision"], "abstain");
  EXPECT_EQ(judged["passages"], 2);
  EXPECT_EQ(judged["duplicates_removed"], 1);
  EXPECT_FALSE(judged.contains("failure"));
  const auto failed = judge_output_line(examples[2], prepared[2], decisions[2]);
  EXPECT_TRUE(failed["label"].is_null());
  EXPECT_TRUE(failed["probabilities"].is_null());
  EXPECT_EQ(failed["decision"], "abstain");
  EXPECT_EQ(failed["failure"], "HTTP status 503: busy");
  const auto unsent = judge_output_line(examples[1], prepared[1], decisions[1]);
  EXPECT_EQ(unsent["label"], "Insufficient");
  EXPECT_EQ(unsent["reason"], "no evidence");
  EXPECT_EQ(unsent["passages"], 0);
}

TEST(JudgeExamples, SupportedIsTheOnlyAnsweredDecision) {
  ScriptedTransport transport([](const std::string&) { return ScriptedReply{R"({"label": "Supported"})", ""}; });
  const std::vector<Example> examples{example("a", "Claim words.", {"passage"})};
  std::vector<ScoredExample> prepared;
  const auto decisions = judge_examples(transport, kPrompt, judge_chat_options("m"), examples, prepared);
  const auto line = judge_output_line(examples[0], prepared[0], decisions[0]);
  EXPECT_EQ(line["label"], "Supported");
  EXPECT_EQ(line["score"], 1.0);
  EXPECT_EQ(line["decision"], "answer");
}
