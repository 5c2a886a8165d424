// claimrag interrogate end to end: a recorded run replayed, its outputs, and the exit codes of
// bad input.

#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;

std::vector<nlohmann::json> lines_of(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(slurp(file));
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

struct InterrogateInputs {
  claimrag::testing::TempFolder folder;
  std::filesystem::path pairs = folder.write(
      "pairs.jsonl",
      R"({"id": "p1", "claim_id": "c1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk."})"
      "\n"
      R"({"id": "p2", "claim_id": "c1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin lowered bleeding risk."})"
      "\n");
  std::filesystem::path probes = folder.write("probes.json", R"({"probes": [
      {"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
      {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"},
      {"id": "n", "claim": "negated", "template": "{abstract} Is \"{claim}\" true?"}]})");
  // p1: every probe answered in support of the claim; p2: against it, one answer an HTML page.
  std::filesystem::path recording = folder.write("rec.jsonl", R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "Yes"}
{"pair_id": "p1", "probe_id": "o", "sample": 1, "text": "Yes, the claim is true."}
{"pair_id": "p1", "probe_id": "f", "sample": 0, "text": "No. The statement is not false."}
{"pair_id": "p1", "probe_id": "f", "sample": 1, "text": "No"}
{"pair_id": "p1", "probe_id": "n", "sample": 0, "text": "No"}
{"pair_id": "p1", "probe_id": "n", "sample": 1, "text": "No"}
{"pair_id": "p2", "probe_id": "o", "sample": 0, "text": "No"}
{"pair_id": "p2", "probe_id": "o", "sample": 1, "text": "<html><body>oops</body></html>"}
{"pair_id": "p2", "probe_id": "f", "sample": 0, "text": "Yes"}
{"pair_id": "p2", "probe_id": "f", "sample": 1, "text": "Yes"}
{"pair_id": "p2", "probe_id": "n", "sample": 0, "text": "Yes"}
{"pair_id": "p2", "probe_id": "n", "sample": 1, "text": "Yes"}
)");
  std::string base() const {
    return "--quiet interrogate --pairs " + pairs.string() + " --probes " + probes.string() +
           " --responder recorded:" + recording.string();
  }
};

}  // namespace

TEST(CliInterrogate, ReplaysARecordingIntoVerdictsAndARecordingOfItsOwn) {
  InterrogateInputs inputs;
  const auto out = inputs.folder.path() / "out.jsonl";
  const auto record = inputs.folder.path() / "again.jsonl";
  const auto claims = inputs.folder.path() / "claims.jsonl";
  const auto outcome = run_claimrag(inputs.base() + " --samples 2 --alpha 0.5 --out " + out.string() + " --record " +
                                        record.string() + " --claims-out " + claims.string(),
                                    inputs.folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0]["pair_id"], "p1");
  EXPECT_EQ(lines[0]["negated_claim"], "Aspirin decreases bleeding.");
  EXPECT_EQ(lines[0]["responses"].size(), 6U);
  // p1: agree (2 S), conflict inverted (4 S): every strategy says SUPPORT with confidence 1.
  EXPECT_EQ(lines[0]["counts"]["agree"], nlohmann::json::array({2, 0, 0}));
  EXPECT_EQ(lines[0]["counts"]["conflict"], nlohmann::json::array({4, 0, 0}));
  EXPECT_EQ(lines[0]["wp"]["verdict"], "SUPPORT");
  EXPECT_EQ(lines[0]["wp"]["confidence"], 1.0);
  EXPECT_EQ(lines[0]["meta"]["verdict"], "SUPPORT");
  // p2: agree (0 S, 1 R, 1 N unresolved), conflict inverted (0, 4, 0).
  // WP = 0.5 (0, 0.5, 0.5) + 0.5 (0, 1, 0) = (0, 0.75, 0.25) -> REFUTE 0.75.
  EXPECT_EQ(lines[1]["unresolved"], 1);
  EXPECT_EQ(lines[1]["counts"]["agree"], nlohmann::json::array({0, 1, 1}));
  EXPECT_EQ(lines[1]["wp"]["verdict"], "REFUTE");
  EXPECT_EQ(lines[1]["wp"]["confidence"], 0.75);
  EXPECT_EQ(lines[1]["baseline"], "REFUTE");
  // The recording written by the run is the one it replayed, line for line.
  EXPECT_EQ(lines_of(record), lines_of(inputs.recording));
  const auto claim_lines = lines_of(claims);
  ASSERT_EQ(claim_lines.size(), 1U);
  EXPECT_EQ(claim_lines[0]["claim_id"], "c1");
  EXPECT_EQ(claim_lines[0]["abstracts"], 2);
  EXPECT_EQ(claim_lines[0]["supporting"][0]["pair_id"], "p1");
  EXPECT_EQ(claim_lines[0]["refuting"][0]["pair_id"], "p2");
}

TEST(CliInterrogate, BadInputExitsWithTheDocumentedCodes) {
  InterrogateInputs inputs;
  const std::string out = " --out " + (inputs.folder.path() / "out.jsonl").string();
  EXPECT_EQ(run_claimrag(inputs.base() + " --samples 0" + out, inputs.folder.path()).exit_code, 2);
  EXPECT_EQ(run_claimrag(inputs.base() + " --samples 2 --alpha 1.5" + out, inputs.folder.path()).exit_code, 2);
  // K = 3 asks for sample 2, which the recording lacks: a data error naming it.
  const auto missing = run_claimrag(inputs.base() + " --samples 3" + out, inputs.folder.path());
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(inputs.folder.path() / "out.jsonl"));
  const auto builtin = run_claimrag("interrogate --pairs " + inputs.pairs.string() + " --probes " +
                                        inputs.probes.string() + " --responder builtin --verifier llm:http://127.0.0.1:9/v1" + out,
                                    inputs.folder.path());
  EXPECT_EQ(builtin.exit_code, 2);
  EXPECT_NE(builtin.err.find("needs --llm-model"), std::string::npos) << builtin.err;
  const auto no_slot = inputs.folder.write("bad.json", R"({"probes": [{"id": "o", "original": true, "template": "True?"}]})");
  const auto slot = run_claimrag("interrogate --pairs " + inputs.pairs.string() + " --probes " + no_slot.string() +
                                     " --responder recorded:" + inputs.recording.string() + out,
                                 inputs.folder.path());
  EXPECT_EQ(slot.exit_code, 2);
  EXPECT_NE(slot.err.find("has no {claim} slot"), std::string::npos) << slot.err;
}

// The built-in responder with a verifier trained on SciFact by `verify --save-model`: one line per
// pair, every probe answered K times, and the same bytes on a second run (seeded sampling).
TEST(CliInterrogate, TheBuiltinResponderAsksASavedVerifier) {
  const std::filesystem::path scifact = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact";
  if (!std::filesystem::exists(scifact / "original/claims_train.jsonl")) GTEST_SKIP() << "SciFact is absent";
  InterrogateInputs inputs;
  ::setenv("XDG_CACHE_HOME", (inputs.folder.path() / "cache").c_str(), 1);  // the built-in verifier's cache: never the user's
  const auto model = inputs.folder.path() / "verifier.safetensors";
  // verify's pairs carry no claim_id (a field of interrogate's pairs only): the model is trained on
  // SciFact whatever the pairs; these are verified once along the way.
  const auto verify_pairs = inputs.folder.write(
      "verify_pairs.jsonl", R"({"id": "p1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk."})"
                            "\n");
  const auto trained = run_claimrag("--quiet verify --pairs " + verify_pairs.string() + " --out " +
                                        (inputs.folder.path() / "verdicts.jsonl").string() + " --config " +
                                        std::string(CLAIMRAG_SOURCE_DIR) + "/configs/scifact.json --save-model " +
                                        model.string(),
                                    inputs.folder.path());
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  std::vector<std::string> outputs;
  for (const char* name : {"first.jsonl", "second.jsonl"}) {
    const auto out = inputs.folder.path() / name;
    const auto run = run_claimrag("--quiet interrogate --pairs " + inputs.pairs.string() + " --probes " +
                                      inputs.probes.string() + " --samples 4 --responder builtin --model " +
                                      model.string() + " --out " + out.string(),
                                  inputs.folder.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    outputs.push_back(slurp(out));
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  const auto lines = lines_of(inputs.folder.path() / "first.jsonl");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["pair_id"], "p1");
  EXPECT_EQ(lines[1]["pair_id"], "p2");
  EXPECT_EQ(lines[0]["responses"].size(), 3u * 4u);  // three probes, four samples each
}

// --split + --run + --k: each of the split's claims with its top k documents of the run, pairs
// named "<claim>:<doc>"; a claim the run does not rank is warned about, not dropped silently.
TEST(CliInterrogate, TheSplitsClaimsWithTheirTopKDocumentsOfARun) {
  InterrogateInputs inputs;
  const std::filesystem::path data = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/fixtures/tiny-beir";
  // q1..q5 are the test split's claims; q2 has no ranking.
  const auto run = inputs.folder.write("run.trec",
                                       "q1 Q0 d1 1 9.5 bm25\nq1 Q0 d2 2 3.0 bm25\nq1 Q0 d5 3 1.0 bm25\n"
                                       "q3 Q0 d5 1 7.0 bm25\nq4 Q0 d4 1 6.0 bm25\nq5 Q0 d2 1 5.0 bm25\nq5 Q0 d6 2 4.0 bm25\n");
  std::string recording;
  const std::vector<std::string> pair_ids{"q1:d1", "q1:d2", "q3:d5", "q4:d4", "q5:d2", "q5:d6"};
  for (const auto& pair : pair_ids) {
    for (const char* probe : {"o", "f", "n"}) {
      recording += R"({"pair_id": ")" + pair + R"(", "probe_id": ")" + probe + R"(", "sample": 0, "text": "Yes"})" "\n";
    }
  }
  const auto replay = inputs.folder.write("split.rec.jsonl", recording);
  const auto out = inputs.folder.path() / "split.jsonl";
  const auto outcome = run_claimrag("interrogate --data " + data.string() + " --split test --run " + run.string() +
                                        " --k 2 --samples 1 --probes " + inputs.probes.string() +
                                        " --responder recorded:" + replay.string() + " --out " + out.string(),
                                    inputs.folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("1 of 5 claims have no ranking"), std::string::npos) << outcome.err;
  const auto lines = lines_of(out);
  ASSERT_EQ(lines.size(), pair_ids.size());
  for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(lines[i]["pair_id"], pair_ids[i]);
  EXPECT_EQ(lines[0]["claim_id"], "q1");
  EXPECT_EQ(lines[0]["claim"], "Aspirin lowers myocardial infarction risk.");
  EXPECT_EQ(lines[0]["doc_id"], "d1");

  // --pairs and --split together, or --split without --data: usage errors, nothing written.
  const auto both = run_claimrag("interrogate --pairs " + inputs.pairs.string() + " --data " + data.string() +
                                     " --split test --run " + run.string() + " --probes " + inputs.probes.string() +
                                     " --responder recorded:" + replay.string() + " --out " +
                                     (inputs.folder.path() / "both.jsonl").string(),
                                 inputs.folder.path());
  EXPECT_EQ(both.exit_code, 2);
  const auto no_data = run_claimrag("interrogate --split test --run " + run.string() + " --probes " +
                                        inputs.probes.string() + " --responder recorded:" + replay.string() +
                                        " --out " + (inputs.folder.path() / "no_data.jsonl").string(),
                                    inputs.folder.path());
  EXPECT_EQ(no_data.exit_code, 2);
  EXPECT_NE(no_data.err.find("--split needs --data"), std::string::npos) << no_data.err;
  EXPECT_FALSE(std::filesystem::exists(inputs.folder.path() / "both.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(inputs.folder.path() / "no_data.jsonl"));
}
