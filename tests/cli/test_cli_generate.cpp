// `ground --generate llm:URL` end to end against a chat server in the test process: the model's
// answer kept beside the grounded one, the refusal prompt, recording and offline replay to the
// same bytes, and failed generations counted against --max-failures. The grounding verifier is the
// committed tiny NLI checkpoint: its labels are random, what is tested is everything around them.

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "support/chat_completion.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::completion;
using claimrag::testing::FakeHttpServer;
using claimrag::testing::json_lines;
using claimrag::testing::prompt_of;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

const std::string kVerifier = " --verifier checkpoint:tests/fixtures/pretrained/models/bert-classifier";

const char* kQuestions =
    "{\"id\": \"q1\", \"question\": \"Does aspirin lower risk?\", \"context\": [{\"id\": \"d1\", \"title\": \"T\", "
    "\"text\": \"Aspirin lowers risk in adults. It was tested in 2010.\"}]}\n"
    "{\"id\": \"q2\", \"question\": \"Does coffee cause cancer?\", \"context\": [{\"id\": \"d2\", \"text\": \"Coffee is not a carcinogen.\"}]}\n";

/// Answers with a context sentence and one from nowhere; records the prompts; q2 fails when asked.
struct Writer {
  std::mutex mutex;
  std::vector<std::string> prompts;
  bool fail_coffee = false;
  httplib::Server::Handler handler() {
    return [this](const httplib::Request& request, httplib::Response& response) {
      const std::string prompt = prompt_of(request);
      {
        std::lock_guard lock(mutex);
        prompts.push_back(prompt);
      }
      if (prompt.find("coffee") != std::string::npos) {
        if (fail_coffee) {
          response.status = 500;
          return;
        }
        response.set_content(completion("Coffee is not a carcinogen. Coffee was discovered on Mars."), "application/json");
        return;
      }
      response.set_content(completion("  Aspirin lowers risk in adults. Penguins invented the telescope.\n"), "application/json");
    };
  }
};

std::string generate_flags(const std::string& url) { return " --generate llm:" + url + " --llm-model writer --retries 0 --timeout 5"; }

}  // namespace

TEST(CliGenerate, WritesGroundsAndReplaysOfflineToTheSameBytes) {
  TempFolder folder;
  const auto questions = folder.write("questions.jsonl", kQuestions);
  const auto out = folder.path() / "grounded.jsonl";
  Writer writer;
  std::string url;
  {
    FakeHttpServer server("/v1/chat/completions", writer.handler());
    url = server.url("/v1");
    const auto outcome = run_claimrag("ground --questions " + questions.string() + generate_flags(url) + kVerifier + " --out " + out.string(),
                                      folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  }
  ASSERT_EQ(writer.prompts.size(), 2u);
  for (const auto& prompt : writer.prompts) {
    EXPECT_EQ(prompt.find("I don't know"), std::string::npos);  // the plain answer prompt
    EXPECT_EQ(prompt.find("\nT"), std::string::npos) << "titles are not shown";
  }
  // Requests run concurrently: the aspirin question's prompt is whichever arrived with it.
  const auto& aspirin = writer.prompts[writer.prompts[0].find("aspirin") != std::string::npos ? 0 : 1];
  EXPECT_NE(aspirin.find("Question: Does aspirin lower risk?\n"), std::string::npos) << aspirin;
  EXPECT_NE(aspirin.find("[1] Aspirin lowers risk in adults. It was tested in 2010."), std::string::npos) << aspirin;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "q1");
  EXPECT_EQ(lines[0]["question"], "Does aspirin lower risk?");
  EXPECT_EQ(lines[0]["generated_answer"], "Aspirin lowers risk in adults. Penguins invented the telescope.");
  ASSERT_EQ(lines[0]["claims"].size(), 2u);
  EXPECT_EQ(lines[0]["claims"][0]["text"], "Aspirin lowers risk in adults.");
  EXPECT_EQ(lines[0]["claims"][1]["text"], "Penguins invented the telescope.");
  EXPECT_TRUE(lines[0].contains("answer"));  // the grounded answer, beside the generated one
  EXPECT_EQ(lines[1]["generated_answer"], "Coffee is not a carcinogen. Coffee was discovered on Mars.");

  const auto recording = folder.path() / "grounded.recording.jsonl";
  ASSERT_TRUE(std::filesystem::exists(recording));
  const auto replayed = folder.path() / "replayed.jsonl";
  const auto replay = run_claimrag("ground --questions " + questions.string() + generate_flags(url) + kVerifier + " --out " +
                                       replayed.string() + " --replay " + recording.string(),
                                   folder.path());
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(slurp(replayed), slurp(out));
  // The refusal prompt is another request: the recording lacks it.
  const auto refusal = folder.path() / "refusal.jsonl";
  EXPECT_EQ(run_claimrag("ground --questions " + questions.string() + generate_flags(url) + kVerifier + " --generate-prompt refusal --out " +
                             refusal.string() + " --replay " + recording.string(),
                         folder.path())
                .exit_code,
            3);
  EXPECT_FALSE(std::filesystem::exists(refusal));
}

TEST(CliGenerate, TheRefusalPromptAsksForIDontKnow) {
  TempFolder folder;
  const auto questions = folder.write("questions.jsonl", kQuestions);
  const auto out = folder.path() / "grounded.jsonl";
  Writer writer;
  FakeHttpServer server("/v1/chat/completions", writer.handler());
  const auto outcome = run_claimrag("ground --questions " + questions.string() + generate_flags(server.url("/v1")) + kVerifier +
                                        " --generate-prompt refusal --out " + out.string(),
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  ASSERT_EQ(writer.prompts.size(), 2u);
  EXPECT_NE(writer.prompts[0].find("otherwise\nanswer exactly \"I don't know\""), std::string::npos) << writer.prompts[0];
}

TEST(CliGenerate, AFailedGenerationBeyondMaxFailuresWritesNothingAndWithinItIsWrittenAsFailed) {
  TempFolder folder;
  const auto questions = folder.write("questions.jsonl", kQuestions);
  const auto out = folder.path() / "grounded.jsonl";
  Writer writer;
  writer.fail_coffee = true;
  FakeHttpServer server("/v1/chat/completions", writer.handler());
  const std::string command = "ground --questions " + questions.string() + generate_flags(server.url("/v1")) + kVerifier + " --out " + out.string();
  const auto refused = run_claimrag(command, folder.path());
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.err.find("1 of 2 answers could not be generated"), std::string::npos) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "grounded.recording.jsonl"));

  const auto allowed = run_claimrag(command + " --max-failures 0.5", folder.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["generated_answer"], "Aspirin lowers risk in adults. Penguins invented the telescope.");
  EXPECT_EQ(lines[1]["id"], "q2");
  EXPECT_TRUE(lines[1]["generated_answer"].is_null());
  EXPECT_NE(lines[1]["generation_failure"].get<std::string>().find("500"), std::string::npos);
  EXPECT_FALSE(lines[1].contains("claims"));
}

TEST(CliGenerate, QuestionsNeedGenerateAndGenerateNeedsQuestions) {
  TempFolder folder;
  const auto questions = folder.write("questions.jsonl", kQuestions);
  const auto out = folder.path() / "grounded.jsonl";
  EXPECT_EQ(run_claimrag("ground --questions " + questions.string() + kVerifier + " --out " + out.string(), folder.path()).exit_code, 2);
  EXPECT_EQ(run_claimrag("ground --answers " + questions.string() + generate_flags("http://127.0.0.1:9/v1") + kVerifier + " --out " +
                             out.string(),
                         folder.path())
                .exit_code,
            2);
  EXPECT_FALSE(std::filesystem::exists(out));
}
