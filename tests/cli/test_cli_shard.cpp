// --shard K/N and `claimrag merge` end to end: the merged output of N shards (given in any order,
// each computed on any thread count) is byte-identical to the unsharded run, sidecars included,
// for N = 1, 2, 3, 7 and more shards than records; a bad --shard is a usage error and writes
// nothing; merge refuses every kind of mismatched, missing, repeated or damaged shard with exit 3,
// naming the file, and writes nothing. Runs on the committed tiny checkpoint, so it needs no data.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/scoped_variable.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

const std::string kShardCheckpoint = claimrag::testing::kModels + "bert-classifier";

/// `count` (claim, evidence) lines for verify --pairs, or (text, text_pair) lines for predict,
/// made deterministically from their index.
std::string shard_inputs(std::size_t count, bool for_predict, const std::string& salt = "") {
  const std::vector<std::string> words{"aspirin", "lowers", "risk", "of", "infarction", "vitamin", "raises", "bone", "density", "no", "effect"};
  std::string lines;
  for (std::size_t i = 0; i < count; ++i) {
    std::string claim, evidence;
    for (std::size_t w = 0; w < 4 + i % 5; ++w) claim += (w ? " " : "") + words[(i * 7 + w * 3) % words.size()];
    for (std::size_t w = 0; w < 12 + i % 9; ++w) evidence += (w ? (w % 6 == 0 ? ". " : " ") : "") + words[(i * 5 + w) % words.size()];
    nlohmann::json line{{"id", "p" + std::to_string(i)}};
    line[for_predict ? "text" : "claim"] = claim + salt + ".";
    line[for_predict ? "text_pair" : "evidence"] = evidence + ".";
    lines += line.dump() + "\n";
  }
  return lines;
}

/// `count` sufficiency examples, each the claim of shard_inputs with its evidence cut into passages.
std::string shard_examples(std::size_t count) {
  std::string lines;
  std::istringstream pairs(shard_inputs(count, false));
  for (std::string line; std::getline(pairs, line);) {
    const auto pair = nlohmann::json::parse(line);
    nlohmann::json passages = nlohmann::json::array();
    std::istringstream evidence(pair["evidence"].get<std::string>());
    for (std::string passage; std::getline(evidence, passage, '.');) {
      if (passage.find_first_not_of(' ') != std::string::npos) passages.push_back(passage + ".");
    }
    lines += nlohmann::json{{"id", pair["id"]}, {"claim", pair["claim"]}, {"evidence", passages}}.dump() + "\n";
  }
  return lines;
}

/// Runs `claimrag --quiet ARGUMENTS` and expects success.
void shard_run(const std::string& arguments, const TempFolder& folder) {
  const auto outcome = run_claimrag("--quiet " + arguments, folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << arguments << "\n" << outcome.err;
}

/// The shard outputs of `command` as `count` shards into folder/NAME-K.jsonl, their threads
/// alternating between 1 and 2; returned in reverse shard order (merge takes any order).
std::string run_shards(const std::string& command, const TempFolder& folder, const std::string& name, std::size_t count) {
  std::string outputs;
  for (std::size_t k = 0; k < count; ++k) {
    const auto out = folder.path() / (name + "-" + std::to_string(k) + ".jsonl");
    shard_run(command + " --out " + out.string() + " --shard " + std::to_string(k) + "/" + std::to_string(count) +
                  " --threads " + std::to_string(1 + k % 2),
              folder);
    outputs = out.string() + " " + outputs;
  }
  return outputs;
}

/// The whole run of `command` against merges of 1, 2, 3, 7 and `many` shards: the same bytes, and
/// the same `.meta.json` sidecar when `sidecar`. Every file goes to the folder's subfolder `sub`.
void expect_merges_match(const std::string& command, const TempFolder& folder, std::size_t many, bool sidecar,
                         const std::string& sub = ".") {
  const auto base = folder.path() / sub;
  fs::create_directories(base);
  const auto whole = base / "whole.jsonl";
  shard_run(command + " --out " + whole.string() + " --threads 2", folder);
  for (const std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, many}) {
    const std::string name = "n" + std::to_string(count);
    const auto merged = base / (name + ".jsonl");
    shard_run("merge --out " + merged.string() + " " + run_shards(command, folder, sub + "/" + name, count), folder);
    EXPECT_EQ(slurp(merged), slurp(whole)) << count << " shards";
    EXPECT_EQ(fs::exists(base / (name + ".meta.json")), sidecar);
    if (sidecar) {
      EXPECT_EQ(slurp(base / (name + ".meta.json")), slurp(base / "whole.meta.json")) << count;
    }
  }
}

/// Expects `claimrag merge --out OUT SHARDS` to refuse with exit 3, `message` in its error, and
/// OUT unwritten.
void expect_merge_refused(const std::string& shards, const std::string& message, const TempFolder& folder) {
  const auto out = folder.path() / "refused.jsonl";
  const auto outcome = run_claimrag("merge --out " + out.string() + " " + shards, folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << shards << "\n" << outcome.err;
  EXPECT_NE(outcome.err.find(message), std::string::npos) << "expected: " << message << "\n" << outcome.err;
  EXPECT_FALSE(fs::exists(out));
}

/// Expects `claimrag ARGUMENTS --out folder/refused.jsonl --shard 0/2` to be a usage error (exit 2)
/// with `message`, writing nothing.
void expect_shard_refused(const std::string& arguments, const std::string& message, const TempFolder& folder) {
  const auto out = folder.path() / "refused.jsonl";
  const auto outcome = run_claimrag(arguments + " --out " + out.string() + " --shard 0/2", folder.path());
  EXPECT_EQ(outcome.exit_code, 2) << arguments << "\n" << outcome.err;
  EXPECT_NE(outcome.err.find(message), std::string::npos) << "expected: " << message << "\n" << outcome.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".shard.json"));
}

nlohmann::json shard_manifest_of(const fs::path& output) { return nlohmann::json::parse(slurp(output.string() + ".shard.json")); }

}  // namespace

TEST(CliShard, VerifyPairsMergesToTheUnshardedBytesForAnyShardCountAndThreads) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", shard_inputs(23, false));
  expect_merges_match("verify --pairs " + pairs.string() + " --verifier checkpoint:" + kShardCheckpoint, folder, 30, true);
  const auto manifest = shard_manifest_of(folder.path() / "n7-2.jsonl");
  EXPECT_EQ(manifest["shard"], (nlohmann::json{{"index", 2}, {"count", 7}, {"rule", "contiguous-blocks"}}));
  EXPECT_EQ(manifest["records"], (nlohmann::json{{"total", 23}, {"first", 8}, {"count", 3}}));  // 23 = 4+4+3+3+3+3+3
  EXPECT_EQ(manifest["command"], "verify --pairs");
  EXPECT_EQ(manifest["verifier"]["spec"], "checkpoint:" + kShardCheckpoint);
  EXPECT_EQ(manifest["files"][1]["name"], "n7-2.meta.json");
  EXPECT_EQ(slurp(folder.path() / "n30-29.jsonl"), "");  // more shards than pairs: the last ones are empty
}

TEST(CliShard, PredictMergesToTheUnshardedBytesWhateverTheBatches) {
  TempFolder folder;
  const auto inputs = folder.write("inputs.jsonl", shard_inputs(17, true));
  // The shards' batches of 3 start at other inputs than the whole run's batches of 32.
  expect_merges_match("predict --checkpoint " + kShardCheckpoint + " --pairs " + inputs.string() + " --batch-size 3", folder, 20, false);
}

TEST(CliShard, VerifyOverARunMergesToTheUnshardedBytes) {
  TempFolder folder;
  const std::string index = (folder.path() / "bm25").string();
  const std::string run = (folder.path() / "bm25.trec").string();
  shard_run("index --data " + claimrag::testing::kTiny + " --method bm25 --out " + index, folder);
  shard_run("retrieve --data " + claimrag::testing::kTiny + " --index " + index + " --method bm25 --split test --k 3 --out " + run, folder);
  expect_merges_match("verify --data " + claimrag::testing::kTiny + " --split test --run " + run + " --verifier checkpoint:" + kShardCheckpoint,
                      folder, 8, true);
  EXPECT_EQ(shard_manifest_of(folder.path() / "n2-0.jsonl")["command"], "verify --run");
}

TEST(CliShard, Bm25RetrievalMergesToTheUnshardedRun) {
  TempFolder folder;
  const std::string index = (folder.path() / "bm25").string();
  shard_run("index --data " + claimrag::testing::kTiny + " --method bm25 --out " + index, folder);
  expect_merges_match("retrieve --data " + claimrag::testing::kTiny + " --index " + index + " --method bm25 --split test --k 3", folder, 9,
                      false);
  expect_shard_refused("retrieve --data " + claimrag::testing::kTiny + " --index " + index + " --method dense --split test",
                       "--shard applies to retrieve --method bm25", folder);
}

TEST(CliShard, RerankingMergesToTheUnshardedRun) {
  TempFolder folder;
  const std::string tiny = claimrag::testing::kTiny;
  const std::string index = (folder.path() / "bm25").string();
  const std::string run = (folder.path() / "bm25.trec").string();
  const std::string model = (folder.path() / "reranker.safetensors").string();
  shard_run("index --data " + tiny + " --method bm25 --out " + index, folder);
  shard_run("retrieve --data " + tiny + " --index " + index + " --method bm25 --split test --k 4 --out " + run, folder);
  const std::string rerank = "rerank --data " + tiny + " --index " + index + " --run " + run;
  shard_run(rerank + " --train --model " + model + " --out " + (folder.path() / "trained.trec").string(), folder);
  expect_merges_match(rerank + " --model " + model, folder, 8, false, "logistic");
  expect_merges_match("rerank --data " + tiny + " --run " + run + " --cross-encoder " + claimrag::testing::kModels +
                          "bert-reranker-f16 --rerank-depth 3",
                      folder, 8, false, "cross-encoder");
  expect_shard_refused(rerank + " --train --model " + (folder.path() / "other.safetensors").string(), "--shard does not apply with --train",
                       folder);
}

TEST(CliShard, EvidenceMergesToTheUnshardedBytesItsMetaCountsSummed) {
  TempFolder folder;
  const std::string tiny = claimrag::testing::kTiny;
  const std::string index = (folder.path() / "bm25").string();
  const std::string run = (folder.path() / "bm25.trec").string();
  shard_run("index --data " + tiny + " --method bm25 --out " + index, folder);
  shard_run("retrieve --data " + tiny + " --index " + index + " --method bm25 --split test --k 3 --out " + run, folder);
  // The meta file beside the evidence counts the claims: each shard's are its own, the merged ones the whole run's.
  const std::string evidence = "extract-evidence --data " + tiny + " --run " + run + " --rationales pseudo";
  expect_merges_match(evidence, folder, 8, true);
  EXPECT_EQ(nlohmann::json::parse(slurp(folder.path() / "n3-0.meta.json"))["claims"], 2);
  EXPECT_EQ(nlohmann::json::parse(slurp(folder.path() / "n3.meta.json"))["claims"], 5);
  expect_shard_refused(evidence + " --save-model " + (folder.path() / "m.safetensors").string(), "--shard does not apply with --save-model",
                       folder);
}

TEST(CliShard, InterrogationMergesToTheUnshardedBytes) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", shard_inputs(15, false));
  const std::string interrogate =
      "interrogate --pairs " + pairs.string() + " --responder builtin --samples 3 --verifier checkpoint:" + kShardCheckpoint;
  expect_merges_match(interrogate, folder, 16, true);
  // The claim-level verdicts gather the pairs of one claim, which other shards may hold.
  expect_shard_refused(interrogate + " --claims-out " + (folder.path() / "c.jsonl").string(), "--shard writes --out alone", folder);
}

TEST(CliShard, SufficiencyDecisionsMergeToTheUnshardedBytes) {
  TempFolder folder;
  const auto examples = folder.write("examples.jsonl", shard_examples(13));
  const std::string sufficiency = "sufficiency --examples " + examples.string() +
                                  " --aggregator data/fixtures/sufficiency/aggregator.json --verifier checkpoint:" + kShardCheckpoint;
  expect_merges_match(sufficiency, folder, 14, true);
  // The evaluation's numbers are over every example: no shard writes them.
  expect_shard_refused(sufficiency + " --evaluation " + (folder.path() / "e.json").string(), "--shard does not apply with --evaluation",
                       folder);
}

TEST(CliShard, GroundMergesToTheUnshardedBytes) {
  TempFolder folder;
  expect_merges_match("ground --data " + claimrag::testing::kTiny + " --answers data/fixtures/grounding/answers.jsonl --verifier checkpoint:" +
                          kShardCheckpoint,
                      folder, 9, true);
}

TEST(CliShard, ABadShardIsAUsageErrorAndWritesNothing) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", shard_inputs(5, false));
  ::unsetenv("SLURM_ARRAY_TASK_ID");
  const auto out = folder.path() / "out.jsonl";
  const std::string command = "verify --pairs " + pairs.string() + " --verifier checkpoint:" + kShardCheckpoint + " --out " + out.string();
  const std::vector<std::pair<std::string, std::string>> cases{
      {"4/4", "shard 4 of 4 does not exist"},
      {"0/0", "the number of shards must be at least 1"},
      {"x", "must be K/N"},
      {"slurm", "--shard slurm: SLURM_ARRAY_TASK_ID is not set"}};
  for (const auto& [shard, message] : cases) {
    const auto outcome = run_claimrag(command + " --shard " + shard, folder.path());
    EXPECT_EQ(outcome.exit_code, 2) << shard << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(message), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << shard;
    EXPECT_FALSE(fs::exists(out.string() + ".shard.json")) << shard;
  }
  // Where a shard has no meaning: one claim, a model every shard would save, a served verifier.
  expect_shard_refused("verify --data " + claimrag::testing::kTiny + " --claim 'aspirin works'", "--shard does not apply with --claim",
                       folder);
  expect_shard_refused("verify --pairs " + pairs.string() + " --save-model m.safetensors", "--shard does not apply with --save-model",
                       folder);
  expect_shard_refused("verify --pairs " + pairs.string() + " --verifier llm:http://127.0.0.1:9 --llm-model m",
                       "--shard does not apply with a served --verifier", folder);
}

TEST(CliShard, SlurmTakesTheShardFromTheJobArray) {
  TempFolder folder;
  const auto inputs = folder.write("inputs.jsonl", shard_inputs(10, true));
  // Task 5 of an array 4..6: shard 1 of 3.
  const claimrag::testing::ScopedVariable id("SLURM_ARRAY_TASK_ID", "5");
  const claimrag::testing::ScopedVariable min("SLURM_ARRAY_TASK_MIN", "4");
  const claimrag::testing::ScopedVariable count("SLURM_ARRAY_TASK_COUNT", "3");
  const auto out = folder.path() / "task.jsonl";
  shard_run("predict --checkpoint " + kShardCheckpoint + " --pairs " + inputs.string() + " --out " + out.string() + " --shard slurm", folder);
  const auto manifest = shard_manifest_of(out);
  EXPECT_EQ(manifest["shard"]["index"], 1);
  EXPECT_EQ(manifest["shard"]["count"], 3);
  EXPECT_EQ(manifest["records"], (nlohmann::json{{"total", 10}, {"first", 4}, {"count", 3}}));
}

TEST(CliShard, MergeRefusesShardsThatAreNotOneWholeRunAndWritesNothing) {
  TempFolder folder;
  const auto inputs = folder.write("inputs.jsonl", shard_inputs(9, true));
  const std::string predict = "predict --checkpoint " + kShardCheckpoint + " --pairs " + inputs.string();
  (void)run_shards(predict, folder, "s", 3);
  const std::string s0 = (folder.path() / "s-0.jsonl").string();
  const std::string s1 = (folder.path() / "s-1.jsonl").string();
  const std::string s2 = (folder.path() / "s-2.jsonl").string();

  expect_merge_refused(s0 + " " + s2, "merge: shard 1 of 3 is missing", folder);
  expect_merge_refused(s0 + " " + s1 + " " + s2 + " " + s1, s1 + ": is shard 1 of 3, as is " + s1 + ": a shard given twice", folder);
  expect_merge_refused(s0 + " " + (folder.path() / "absent.jsonl").string() + " " + s2, "absent.jsonl: is missing: no such shard output", folder);

  // Shards of another input, another configuration, another shard count.
  const auto other_inputs = folder.write("other.jsonl", shard_inputs(9, true, " indeed"));
  (void)run_shards("predict --checkpoint " + kShardCheckpoint + " --pairs " + other_inputs.string(), folder, "input", 3);
  expect_merge_refused(s0 + " " + (folder.path() / "input-1.jsonl").string() + " " + s2, "input-1.jsonl: is a shard of another run than " + s0 + ": its inputs differ", folder);
  (void)run_shards(predict + " --max-length 16", folder, "config", 3);
  expect_merge_refused(s0 + " " + (folder.path() / "config-1.jsonl").string() + " " + s2, "config-1.jsonl: is a shard of another run than " + s0 + ": its configuration differs", folder);
  (void)run_shards(predict, folder, "two", 2);
  expect_merge_refused(s0 + " " + (folder.path() / "two-1.jsonl").string() + " " + s2, "two-1.jsonl: is a shard of another run than " + s0 + ": it is one of 2 shards, not 3", folder);

  // A damaged shard, a partial one (cut short), one without its manifest.
  const std::string whole_s1 = slurp(s1);
  std::ofstream(s1, std::ios::app) << "x";
  expect_merge_refused(s0 + " " + s1 + " " + s2, s1 + ": is damaged or partial", folder);
  std::ofstream(s1, std::ios::binary | std::ios::trunc) << whole_s1.substr(0, whole_s1.size() / 2);
  expect_merge_refused(s0 + " " + s1 + " " + s2, s1 + ": is damaged or partial", folder);
  std::ofstream(s1, std::ios::binary | std::ios::trunc) << whole_s1;
  shard_run("merge --out " + (folder.path() / "restored.jsonl").string() + " " + s2 + " " + s0 + " " + s1, folder);
  fs::remove(s1 + ".shard.json");
  expect_merge_refused(s0 + " " + s1 + " " + s2, s1 + ".shard.json: is missing", folder);
}
