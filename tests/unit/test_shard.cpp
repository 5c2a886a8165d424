// The shard rule (contiguous blocks of the input order, sizes differing by at most one, the first
// T mod N one larger), the parsing of --shard K/N and of a Slurm array's environment with its
// refusals, keeping a shard's records, and the manifest read back as written.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/shard/merge.hpp"
#include "claimrag/shard/shard_manifest.hpp"
#include "claimrag/shard/shard_selection.hpp"
#include "claimrag/shard/shard_spec.hpp"
#include "support/temp_folder.hpp"

namespace {

using claimrag::shard::Block;
using claimrag::shard::ShardSpec;

/// An environment holding exactly `variables`.
claimrag::shard::Environment slurm_environment(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

/// The UsageError message of parse_shard(text, environment), or "" when it parses.
std::string shard_refusal(const std::string& text, const claimrag::shard::Environment& environment = slurm_environment({})) {
  try {
    (void)claimrag::shard::parse_shard(text, environment);
    return "";
  } catch (const claimrag::UsageError& error) {
    return error.what();
  }
}

}  // namespace

TEST(ShardRule, BlocksAreContiguousInInputOrderAndDifferByAtMostOne) {
  for (std::size_t total = 0; total <= 40; ++total) {
    for (std::size_t count = 1; count <= 45; ++count) {
      std::size_t next = 0;
      for (std::size_t k = 0; k < count; ++k) {
        const Block block = claimrag::shard::shard_block(total, {k, count});
        EXPECT_EQ(block.begin, next) << total << " records, shard " << k << " of " << count;
        // The first total mod count blocks hold one more record.
        EXPECT_EQ(block.size(), total / count + (k < total % count ? 1 : 0)) << total << " records, shard " << k << " of " << count;
        next = block.end;
      }
      EXPECT_EQ(next, total) << total << " records, " << count << " shards";
    }
  }
}

TEST(ShardRule, TenRecordsInFourShardsByHand) {
  // 10 = 3 + 3 + 2 + 2.
  const std::vector<std::pair<std::size_t, std::size_t>> expected{{0, 3}, {3, 6}, {6, 8}, {8, 10}};
  for (std::size_t k = 0; k < 4; ++k) {
    const Block block = claimrag::shard::shard_block(10, {k, 4});
    EXPECT_EQ(block.begin, expected[k].first);
    EXPECT_EQ(block.end, expected[k].second);
  }
  // More shards than records: the last ones are empty.
  EXPECT_EQ(claimrag::shard::shard_block(2, {1, 5}).size(), 1u);
  EXPECT_EQ(claimrag::shard::shard_block(2, {4, 5}).size(), 0u);
  EXPECT_EQ(claimrag::shard::shard_block(2, {4, 5}).begin, 2u);
}

TEST(ShardRule, KeepShardKeepsTheBlockAndRecordsIt) {
  const std::vector<int> records{10, 11, 12, 13, 14, 15, 16};
  claimrag::shard::ShardSelection selection;
  selection.spec = {1, 3};
  EXPECT_EQ(claimrag::shard::keep_shard(records, &selection), (std::vector<int>{13, 14}));
  EXPECT_TRUE(selection.applied);
  EXPECT_EQ(selection.total, 7u);
  EXPECT_EQ(selection.block.begin, 3u);
  EXPECT_EQ(claimrag::shard::keep_shard(records, nullptr), records);
}

TEST(ShardParsing, ReadsKOfN) {
  const ShardSpec spec = claimrag::shard::parse_shard("3/4", slurm_environment({}));
  EXPECT_EQ(spec.index, 3u);
  EXPECT_EQ(spec.count, 4u);
  EXPECT_EQ(claimrag::shard::parse_shard("0/1", slurm_environment({})).count, 1u);
}

TEST(ShardParsing, RefusesWhatIsNoShard) {
  EXPECT_NE(shard_refusal("4/4").find("shard 4 of 4 does not exist: K counts from 0 to 3"), std::string::npos);
  EXPECT_NE(shard_refusal("0/0").find("the number of shards must be at least 1"), std::string::npos);
  for (const std::string text : {"x", "", "1/", "/3", "-1/3", "1/-3", " 1/3", "1/3 ", "1/3/5", "1.0/3", "+1/3", "1234567890/9999999999", "SLURM"}) {
    EXPECT_NE(shard_refusal(text).find("--shard: must be K/N"), std::string::npos) << "'" << text << "': " << shard_refusal(text);
  }
  EXPECT_EQ(claimrag::shard::shard_text_problem("2/3"), "");
  EXPECT_EQ(claimrag::shard::shard_text_problem("slurm"), "");
}

TEST(ShardParsing, SlurmTakesKAndNFromTheArray) {
  const ShardSpec spec = claimrag::shard::parse_shard(
      "slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_MIN", "4"}, {"SLURM_ARRAY_TASK_COUNT", "5"},
                                  {"SLURM_ARRAY_TASK_MAX", "99"}}));
  EXPECT_EQ(spec.index, 3u);
  EXPECT_EQ(spec.count, 5u);  // COUNT, when set, wins over MAX - MIN + 1
  const ShardSpec by_max = claimrag::shard::parse_shard(
      "slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "15"}}));
  EXPECT_EQ(by_max.index, 0u);
  EXPECT_EQ(by_max.count, 16u);
}

TEST(ShardParsing, SlurmRefusesOutsideAnArrayOrOutsideItsRange) {
  EXPECT_NE(shard_refusal("slurm").find("--shard slurm: SLURM_ARRAY_TASK_ID is not set"), std::string::npos);
  EXPECT_NE(shard_refusal("slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "2"}})).find("SLURM_ARRAY_TASK_MIN is not set"),
            std::string::npos);
  EXPECT_NE(shard_refusal("slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "two"}, {"SLURM_ARRAY_TASK_MIN", "0"}}))
                .find("SLURM_ARRAY_TASK_ID is not a number: 'two'"),
            std::string::npos);
  // An array with gaps, --array=0,2,9: task 9 is past MIN + COUNT.
  EXPECT_NE(shard_refusal("slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "9"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                                                       {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MAX", "9"}}))
                .find("task 9 is outside its array"),
            std::string::npos);
  EXPECT_NE(shard_refusal("slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "3"},
                                                       {"SLURM_ARRAY_TASK_MAX", "5"}}))
                .find("task 1 is outside its array"),
            std::string::npos);
  EXPECT_NE(shard_refusal("slurm", slurm_environment({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "3"},
                                                       {"SLURM_ARRAY_TASK_MAX", "2"}}))
                .find("SLURM_ARRAY_TASK_MAX is below SLURM_ARRAY_TASK_MIN"),
            std::string::npos);
}

TEST(ShardManifestFile, ReadsBackWhatItWrites) {
  claimrag::testing::TempFolder folder;
  claimrag::shard::ShardManifest manifest;
  manifest.version = "9.9";
  manifest.command = "predict";
  manifest.spec = {2, 5};
  manifest.total = 11;
  manifest.block = claimrag::shard::shard_block(11, manifest.spec);
  manifest.inputs = claimrag::shard::input_identities({folder.write("in.jsonl", "{}\n"), {}});
  manifest.configuration = claimrag::shard::configuration_identity("abc", {"--max-length 8"});
  const auto out = folder.write("out.jsonl", "line\n");
  manifest.files.push_back(claimrag::shard::describe_file(out, "output", "out.jsonl", claimrag::shard::kConcatenate));
  const auto path = folder.write("out.jsonl.shard.json", claimrag::shard::manifest_text(manifest));
  EXPECT_EQ(claimrag::shard::manifest_path(out), path);
  const auto read = claimrag::shard::read_manifest(path);
  EXPECT_EQ(claimrag::shard::manifest_text(read), claimrag::shard::manifest_text(manifest));
  EXPECT_EQ(read.block.begin, 5u);  // 11 = 3 + 2 + 2 + 2 + 2
  EXPECT_EQ(read.files.front().bytes, 5u);
  EXPECT_EQ(manifest.inputs.size(), 1u);  // the empty path is skipped

  folder.write("bad.shard.json", "{\"format\": \"claimrag-shard\", \"format_version\": 1}");
  try {
    (void)claimrag::shard::read_manifest(folder.path() / "bad.shard.json");
    ADD_FAILURE() << "a manifest without its fields was read";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("bad.shard.json: is not a valid shard manifest"), std::string::npos) << error.what();
  }
}

TEST(ShardManifestFile, AFolderIsIdentifiedByItsFilesNotItsListingOrder) {
  claimrag::testing::TempFolder one;
  claimrag::testing::TempFolder two;
  one.write("m/a.txt", "a");
  one.write("m/sub/b.txt", "b");
  two.write("m/sub/b.txt", "b");
  two.write("m/a.txt", "a");
  two.write("m/.a.txt.tmp.1.0", "a temporary");  // names starting with a dot are left out
  const auto first = claimrag::shard::input_identities({one.path() / "m"});
  const auto second = claimrag::shard::input_identities({two.path() / "m"});
  EXPECT_EQ(first[0]["xxh64"], second[0]["xxh64"]);
  EXPECT_EQ(first[0]["files"], 2);
  two.write("m/sub/b.txt", "B");
  EXPECT_NE(claimrag::shard::input_identities({two.path() / "m"})[0]["xxh64"], first[0]["xxh64"]);
}

namespace {

/// Writes shard `k` of `count` of the lines "r0\n".."r{total-1}\n" as a command would, with its
/// manifest, into `folder`; returns the shard output's path.
std::filesystem::path write_test_shard(const claimrag::testing::TempFolder& folder, std::size_t k, std::size_t count, std::size_t total,
                                       const std::string& version = "1", const std::string& rule = claimrag::shard::kBlockRule) {
  claimrag::shard::ShardManifest manifest;
  manifest.version = version;
  manifest.rule = rule;
  manifest.command = "predict";
  manifest.spec = {k, count};
  manifest.total = total;
  manifest.block = claimrag::shard::shard_block(total, manifest.spec);
  std::string lines;
  for (std::size_t r = manifest.block.begin; r < manifest.block.end; ++r) lines += "r" + std::to_string(r) + "\n";
  const std::string name = "part-" + std::to_string(k) + ".jsonl";
  const auto output = folder.write(name, lines);
  manifest.files.push_back(claimrag::shard::describe_file(output, "output", name, claimrag::shard::kConcatenate));
  const auto sidecar = folder.write("part-" + std::to_string(k) + ".meta.json", "{}\n");
  manifest.files.push_back(claimrag::shard::describe_file(sidecar, "verifier record", sidecar.filename().string(),
                                                          claimrag::shard::kIdentical, ".meta.json"));
  folder.write(name + ".shard.json", claimrag::shard::manifest_text(manifest));
  return output;
}

}  // namespace

TEST(ShardMerge, ConcatenatesInShardOrderAndWritesIdenticalSidecarsOnce) {
  claimrag::testing::TempFolder folder;
  std::vector<std::filesystem::path> outputs;
  for (const std::size_t k : {3u, 0u, 4u, 2u, 1u}) outputs.push_back(write_test_shard(folder, k, 5, 7));
  const auto out = folder.path() / "merged.jsonl";
  const auto plan = claimrag::shard::plan_merge(out, outputs);
  EXPECT_EQ(plan.shards, 5u);
  EXPECT_EQ(plan.records, 7u);
  ASSERT_EQ(plan.files.size(), 2u);
  EXPECT_EQ(plan.files[1].target, folder.path() / "merged.meta.json");
  EXPECT_EQ(plan.files[1].sources.size(), 1u);
  claimrag::shard::write_merge(plan);
  std::ifstream merged(out);
  std::string text((std::istreambuf_iterator<char>(merged)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "r0\nr1\nr2\nr3\nr4\nr5\nr6\n");
}

TEST(ShardMerge, RefusesAMissingShardAndAChangedFile) {
  claimrag::testing::TempFolder folder;
  const std::vector<std::filesystem::path> outputs{write_test_shard(folder, 0, 3, 4), write_test_shard(folder, 2, 3, 4)};
  try {
    (void)claimrag::shard::plan_merge(folder.path() / "m.jsonl", outputs);
    ADD_FAILURE() << "merged without shard 1";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("merge: shard 1 of 3 is missing"), std::string::npos) << error.what();
  }
  const auto middle = write_test_shard(folder, 1, 3, 4);
  folder.write("part-1.meta.json", "{\"other\": 1}\n");  // a sidecar other than its manifest says
  try {
    (void)claimrag::shard::plan_merge(folder.path() / "m.jsonl", std::vector<std::filesystem::path>{outputs[0], middle, outputs[1]});
    ADD_FAILURE() << "merged a changed sidecar";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("part-1.meta.json: is damaged or partial"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "m.jsonl"));
}

TEST(ShardMerge, SumsTheCountsOfARecordAndRefusesOtherFields) {
  claimrag::testing::TempFolder folder;
  std::vector<std::filesystem::path> outputs;
  for (std::size_t k = 0; k < 2; ++k) {
    claimrag::shard::ShardManifest manifest;
    manifest.version = "1";
    manifest.command = "extract-evidence";
    manifest.spec = {k, 2};
    manifest.total = 3;
    manifest.block = claimrag::shard::shard_block(3, manifest.spec);
    const std::string name = "e-" + std::to_string(k) + ".jsonl";
    outputs.push_back(folder.write(name, std::string(manifest.block.size(), '\n')));
    const auto meta = folder.write("e-" + std::to_string(k) + ".meta.json",
                                   "{\n  \"claims\": " + std::to_string(manifest.block.size()) + ",\n  \"seed\": 42\n}\n");
    manifest.files.push_back(claimrag::shard::describe_file(outputs.back(), "output", name, claimrag::shard::kConcatenate));
    manifest.files.push_back(claimrag::shard::describe_file(meta, "evidence record", meta.filename().string(), claimrag::shard::kSumCounts,
                                                            ".meta.json", {"claims"}));
    folder.write(name + ".shard.json", claimrag::shard::manifest_text(manifest));
  }
  const auto out = folder.path() / "all.jsonl";
  claimrag::shard::write_merge(claimrag::shard::plan_merge(out, outputs));
  std::ifstream merged(folder.path() / "all.meta.json");
  const std::string text((std::istreambuf_iterator<char>(merged)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "{\n  \"claims\": 3,\n  \"seed\": 42\n}\n");

  // A shard whose record differs in a field that is no count is of another run.
  const auto changed = folder.path() / "e-1.meta.json";
  const std::string other = "{\n  \"claims\": 1,\n  \"seed\": 43\n}\n";
  folder.write("e-1.meta.json", other);
  auto manifest = claimrag::shard::read_manifest(folder.path() / "e-1.jsonl.shard.json");
  manifest.files[1] = claimrag::shard::describe_file(changed, "evidence record", "e-1.meta.json", claimrag::shard::kSumCounts, ".meta.json",
                                                     {"claims"});
  folder.write("e-1.jsonl.shard.json", claimrag::shard::manifest_text(manifest));
  try {
    (void)claimrag::shard::plan_merge(folder.path() / "again.jsonl", outputs);
    ADD_FAILURE() << "merged records that differ but for their counts";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("e-1.meta.json: differs from"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("but for its counts"), std::string::npos) << error.what();
  }
}

TEST(ShardMerge, RefusesShardsOfAnotherVersionOrRule) {
  claimrag::testing::TempFolder folder;
  const auto first = write_test_shard(folder, 0, 2, 4);
  const auto other_version = write_test_shard(folder, 1, 2, 4, "2");
  try {
    (void)claimrag::shard::plan_merge(folder.path() / "m.jsonl", std::vector<std::filesystem::path>{first, other_version});
    ADD_FAILURE() << "merged shards of two versions";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("part-1.jsonl: is a shard of another run than"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("it was written by claimrag 2, not 1"), std::string::npos) << error.what();
  }
  const auto other_rule = write_test_shard(folder, 1, 2, 4, "1", "round-robin");
  try {
    (void)claimrag::shard::plan_merge(folder.path() / "m.jsonl", std::vector<std::filesystem::path>{first, other_rule});
    ADD_FAILURE() << "merged shards of two rules";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("its shard rule is round-robin, not contiguous-blocks"), std::string::npos) << error.what();
  }
}
