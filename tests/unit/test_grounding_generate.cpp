// Answer generation for grounding: the prompt a question and its context make, the reading of the
// model's answer, and failures kept as failures, over a scripted transport (no network).

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/grounding/answer_generation.hpp"
#include "support/scripted_transport.hpp"

using namespace claimrag;
using namespace claimrag::grounding;
using claimrag::testing::ScriptedReply;
using claimrag::testing::ScriptedTransport;

namespace {

const text::PromptTemplate kPrompt("Q: {question}\nContext:\n{context}\nEnd.", "test prompt", kAnswerPlaceholders);

QuestionWithContext question(const std::string& id, const std::string& text, std::vector<std::vector<std::string>> documents) {
  QuestionWithContext q;
  q.id = id;
  q.question = text;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    verification::EvidenceDocument document;
    document.doc_id = "d" + std::to_string(d);
    document.title = "A title the prompt leaves out";
    document.sentences = documents[d];
    q.context.push_back(document);
  }
  return q;
}

}  // namespace

TEST(GenerateAnswerPrompt, OnePassagePerDocumentOfItsSentences) {
  const auto q = question("q1", "Does aspirin lower risk?", {{"Aspirin lowers risk.", "It was a trial."}, {"Unrelated text."}});
  EXPECT_EQ(answer_prompt(kPrompt, q),
            "Q: Does aspirin lower risk?\nContext:\n[1] Aspirin lowers risk. It was a trial.\n[2] Unrelated text.\nEnd.");
  EXPECT_EQ(answer_prompt(kPrompt, question("q2", "Why?", {})), "Q: Why?\nContext:\n\nEnd.");
}

TEST(GenerateAnswerPrompt, TheShippedPromptsHoldTheirPlaceholdersAndTheRefusalInstruction) {
  const std::filesystem::path prompts = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/prompts";
  const text::PromptTemplate answer(prompts / "grounding_answer.txt", kAnswerPlaceholders);
  const text::PromptTemplate refusal(prompts / "grounding_answer_refusal.txt", kAnswerPlaceholders);
  EXPECT_EQ(answer.text().find("I don't know"), std::string::npos);
  EXPECT_NE(refusal.text().find("I don't know"), std::string::npos);
}

TEST(GenerateAnswerReading, TrimsTheAnswerAndRefusesAnEmptyOne) {
  const auto written = answer_from_content("\n  Aspirin lowers risk. It helps.  \n");
  EXPECT_FALSE(written.failed());
  EXPECT_EQ(written.text, "Aspirin lowers risk. It helps.");
  const auto empty = answer_from_content(" \n\t ");
  EXPECT_TRUE(empty.failed());
  EXPECT_EQ(empty.text, "");
  EXPECT_EQ(empty.failure, "the model wrote an empty answer");
}

TEST(GenerateAnswers, OneTemperatureZeroRequestPerQuestionAndFailuresKept) {
  ScriptedTransport transport([](const std::string& prompt) -> ScriptedReply {
    if (prompt.find("Q: down") != std::string::npos) return {"", "connection refused"};
    if (prompt.find("Q: blank") != std::string::npos) return {"   ", ""};
    return {"Aspirin lowers risk. The moon is cheese.", ""};
  });
  const std::vector<QuestionWithContext> questions{question("a", "Does aspirin help?", {{"Aspirin lowers risk."}}),
                                                   question("b", "down", {{"x."}}), question("c", "blank", {{"y."}})};
  const auto answers = generate_answers(transport, kPrompt, answer_chat_options("writer"), questions);
  ASSERT_EQ(answers.size(), 3u);
  ASSERT_EQ(transport.requests().size(), 3u);
  const auto& body = transport.requests()[0].body;
  EXPECT_EQ(body["model"], "writer");
  EXPECT_EQ(body["temperature"], 0.0);
  EXPECT_FALSE(body.contains("response_format"));
  EXPECT_EQ(body["messages"][0]["content"], "Q: Does aspirin help?\nContext:\n[1] Aspirin lowers risk.\nEnd.");
  EXPECT_EQ(answers[0].text, "Aspirin lowers risk. The moon is cheese.");
  EXPECT_EQ(answers[1].failure, "connection refused");
  EXPECT_EQ(answers[2].failure, "the model wrote an empty answer");
}
