// What a served judge says, through the binary: a key echoed across the excerpt's cut or
// JSON-escaped reaches neither the verdicts, the recording nor stderr; the ESC codes and line
// breaks of an error page reach stderr escaped; an answer in Chinese longer than an excerpt is a
// counted failure written as valid UTF-8, never an internal error.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/fake_http_server.hpp"
#include "support/key_echo.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;

const std::string kServedWordsKey = "sk-proj-ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210";

const char* kServedWordsPairs = R"({"id": "raw", "claim": "Aspirin lowers fever.", "evidence": "Aspirin lowered fever."}
{"id": "escaped", "claim": "Aspirin cures cancer.", "evidence": "No tumour shrank."}
)";

}  // namespace

TEST(CliServedWords, AnEchoedKeyAndAnErrorPagesControlsReachNoFileAndNoRawStderr) {
  claimrag::testing::TempFolder folder;
  ::setenv("CLAIMRAG_API_KEY", kServedWordsKey.c_str(), 1);
  claimrag::testing::FakeHttpServer server("/v1/chat/completions", [](const httplib::Request& request, httplib::Response& response) {
    const bool escaped = request.body.find("cures") != std::string::npos;
    // The key from byte 190 on, so that a cut at 200 before redacting would keep most of it.
    response.status = 401;
    response.set_content(std::string(190, '.') + (escaped ? claimrag::testing::json_unicode_escaped(kServedWordsKey) : kServedWordsKey) +
                             " \x1b[2J\x1b]0;owned\x07\r\n[00:00:00] info all pairs judged",
                         "text/html");
  });
  const auto pairs = folder.write("pairs.jsonl", kServedWordsPairs);
  const fs::path out = folder.path() / "verdicts.jsonl";
  const auto run = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier llm:" +
                                    server.url("/v1") + " --llm-model m --retries 0 --timeout 5 --max-failures 1",
                                folder.path());
  ::unsetenv("CLAIMRAG_API_KEY");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 2U);
  for (const auto& line : lines) {
    ASSERT_TRUE(line.contains("failed")) << line;
    EXPECT_FALSE(claimrag::testing::holds_part_of_key(line["failed"].get<std::string>(), kServedWordsKey)) << line;
  }
  EXPECT_FALSE(claimrag::testing::holds_part_of_key(slurp(out), kServedWordsKey));
  EXPECT_FALSE(claimrag::testing::holds_part_of_key(slurp(folder.path() / "verdicts.recording.jsonl"), kServedWordsKey));
  EXPECT_FALSE(claimrag::testing::holds_part_of_key(run.err, kServedWordsKey)) << run.err;
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find('\x07'), std::string::npos) << run.err;
}

TEST(CliServedWords, AnAnswerInChineseLongerThanAnExcerptIsACountedFailureWritten) {
  claimrag::testing::TempFolder folder;
  std::string label;
  for (int i = 0; i < 30; ++i) label += "支持";  // 180 bytes: the 80-byte excerpt falls inside a character
  claimrag::testing::FakeHttpServer server("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& response) {
    const nlohmann::json content{{"label", label}};
    const nlohmann::json body{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content.dump()}}}}}}};
    response.set_content(body.dump(), "application/json");
  });
  const auto pairs = folder.write("pairs.jsonl", R"({"id": "zh", "claim": "Aspirin lowers fever.", "evidence": "Aspirin lowered fever."}
)");
  const fs::path out = folder.path() / "verdicts.jsonl";
  const auto run = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --verifier llm:" +
                                    server.url("/v1") + " --llm-model m --retries 0 --timeout 5 --max-failures 1",
                                folder.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = json_lines(out);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0]["label"], "NOT_ENOUGH_INFO");
  EXPECT_NE(lines[0]["failed"].get<std::string>().find("支持"), std::string::npos) << lines[0];
}
