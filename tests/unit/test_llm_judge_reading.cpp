// How the LLM judge reads answers a model may give on purpose or by accident: a label word the
// text denies is a failure (never that label, never its opposite), the last JSON object after a
// reasoning model's thinking is the answer, prompts are filled in one pass, and nesting deep
// enough to exhaust a parser's stack is refused.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/served/chat.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"
#include "support/scripted_transport.hpp"

namespace cv = claimrag::verification;
namespace cs = claimrag::served;
using cv::Label;

namespace {

const cv::EvidenceDocument& document() {
  static const cv::EvidenceDocument three{"d1", "", {"Mice were fed aspirin.", "Tumours shrank by half.", "No side effects."}, 0, 0.0};
  return three;
}

cv::DocumentVerdict read(const std::string& content) {
  return cv::read_judge_answer(content, "Aspirin shrinks tumours.", document(), claimrag::experiment::judge_text_resolution());
}

void expect_unreadable(const std::string& content, const std::string& part = "negates a label") {
  const auto verdict = read(content);
  EXPECT_NE(verdict.failure.find(part), std::string::npos) << content << " -> " << verdict.failure;
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0})) << content;
}

}  // namespace

TEST(LlmJudgeReading, ANegatedLabelWordIsAFailureNotThatLabelOrItsOpposite) {
  expect_unreadable("The evidence does not SUPPORT the claim.");
  expect_unreadable("NOT SUPPORT");
  expect_unreadable("There is no support for this claim.");
  expect_unreadable("The abstract doesn't contradict it.");
  expect_unreadable("The abstract doesn\xE2\x80\x99t really CONTRADICT it.");
  expect_unreadable("It does not directly support the claim");
  expect_unreadable("Answer: the evidence cannot support this.");
  expect_unreadable("Neither supports nor contradicts.");
}

TEST(LlmJudgeReading, LabelsNotDeniedStillReadAndJsonDecidesOverNegatedText) {
  EXPECT_EQ(read("Answer: CONTRADICT").label, Label::contradict);
  EXPECT_EQ(read("NOT_ENOUGH_INFO").label, Label::not_enough_info);
  // A negation in another clause does not deny the label.
  EXPECT_EQ(read("It is not a trial in humans. Still, SUPPORT.").label, Label::support);
  // The JSON says otherwise: it decides.
  const auto verdict = read("I do not think it fails to SUPPORT it. {\"label\": \"SUPPORT\", \"sentences\": [2]}");
  EXPECT_TRUE(verdict.failure.empty()) << verdict.failure;
  EXPECT_EQ(verdict.label, Label::support);
  EXPECT_EQ(verdict.rationale, (std::vector<std::size_t>{1}));
  // A negated label inside the JSON's label is no label.
  expect_unreadable(R"({"label": "NOT SUPPORT"})", "none of SUPPORT, CONTRADICT, NOT_ENOUGH_INFO");
}

TEST(LlmJudgeReading, TheLastJsonObjectAfterTheThinkingIsTheAnswer) {
  const auto thought = read("<think>Maybe {\"label\": \"CONTRADICT\"}? No.</think>\n{\"label\": \"SUPPORT\", \"sentences\": [1]}");
  EXPECT_EQ(thought.label, Label::support);
  const auto revised = read("First guess {\"label\": \"CONTRADICT\", \"sentences\": [3]}; final: {\"label\": \"SUPPORT\", \"sentences\": [2]}");
  EXPECT_EQ(revised.label, Label::support);
  EXPECT_EQ(revised.rationale, (std::vector<std::size_t>{1}));
  // The schema's object (with "label") wins over a later object without it.
  EXPECT_EQ(read("{\"label\": \"CONTRADICT\", \"sentences\": [1]} and {\"confidence\": 0.9}").label, Label::contradict);
  // Thinking that names labels, then a plain answer.
  EXPECT_EQ(read("<think>SUPPORT or CONTRADICT? It does not support...</think>Answer: CONTRADICT").label, Label::contradict);
  EXPECT_EQ(*cs::json_in_content("```json\n{\"a\": 1}\n```\nthen {\"b\": {\"c\": 2}}"), nlohmann::json::parse(R"({"b": {"c": 2}})"));
}

TEST(LlmJudgeReading, DeeplyNestedContentIsAFailureNotACrash) {
  const std::string deep = "{\"label\": \"SUPPORT\", \"x\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto verdict = read(deep);
  EXPECT_FALSE(verdict.failure.empty());
  EXPECT_FALSE(cs::json_in_content(std::string(100000, '{')).has_value());
  // Many unclosed braces are scanned once, not once per brace.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(cs::json_in_content(std::string(120, '{') + std::string(500000, 'x')).has_value());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

TEST(LlmJudgeReading, PromptSlotsAreFilledOnceNeverInsideWhatWasFilledIn) {
  const cv::EvidenceDocument abstract{"d", "", {"It says {claim} here."}, 0, 0.0};
  const std::string prompt = cv::judge_prompt("C: {claim}\nE: {evidence}\nAgain: {claim}", "A {evidence} claim", abstract);
  EXPECT_EQ(prompt, "C: A {evidence} claim\nE: [1] It says {claim} here.\nAgain: A {evidence} claim");
}

TEST(LlmJudgeReading, TheVerifierOverAScriptedModelCountsNegationsAsFailures) {
  auto transport = std::make_unique<claimrag::testing::ScriptedTransport>([](const std::string& prompt) {
    return claimrag::testing::ScriptedReply{prompt.find("first") != std::string::npos ? "The evidence does not SUPPORT the claim."
                                                                                       : "{\"label\": \"SUPPORT\", \"sentences\": [1]}",
                                            ""};
  });
  cv::LlmJudgeVerifier judge(std::move(transport),
                             {.model = "m", .prompt_template = "{claim} {evidence}", .temperature = 0.0, .resolve_text = {}});
  const std::vector<cv::VerificationInput> inputs{{"a", "first claim", {document()}}, {"b", "second claim", {document()}}};
  const auto verdicts = judge.verify(inputs);
  EXPECT_FALSE(verdicts[0].documents[0].failure.empty());
  EXPECT_EQ(verdicts[1].documents[0].label, Label::support);
}
