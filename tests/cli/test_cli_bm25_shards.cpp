// The document-sharded BM25 index end to end: `bm25-statistics`, `index --method bm25 --shard K/N`
// (statistics given or computed: the same bytes) and `retrieve` over every shard's folder write the
// TREC run of one index over the whole corpus, byte for byte, for N = 1, 2, 3, 4, 7 shards given in
// any order and on any thread count, on SciFact (skipped without data/scifact) and on a small
// corpus of deliberate ties; and every kind of mismatched set is refused with exit 3, naming the
// file, writing nothing.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

const fs::path kSciFact = fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";

/// A BEIR folder whose documents repeat each other, so that scores tie within and across shards,
/// and whose queries hit those ties at every depth.
fs::path write_tie_folder(const fs::path& folder) {
  fs::create_directories(folder);
  const std::vector<std::string> texts{"aspirin lowers risk", "aspirin lowers risk", "vitamin raises bone density",
                                       "aspirin lowers risk", "no effect of aspirin", "vitamin raises bone density",
                                       "aspirin lowers risk", "bone", "aspirin", "aspirin lowers risk",
                                       "no effect of aspirin", "vitamin raises bone density", "aspirin lowers risk"};
  std::ofstream corpus(folder / "corpus.jsonl");
  for (std::size_t d = 0; d < texts.size(); ++d) {
    corpus << nlohmann::json{{"_id", "t" + std::to_string(d)}, {"title", ""}, {"text", texts[d]}}.dump() << "\n";
  }
  std::ofstream queries(folder / "queries.jsonl");
  const std::vector<std::string> asked{"aspirin", "aspirin lowers risk", "bone density vitamin", "no effect", "risk of bone"};
  for (std::size_t q = 0; q < asked.size(); ++q) {
    queries << nlohmann::json{{"_id", "q" + std::to_string(q)}, {"text", asked[q]}}.dump() << "\n";
  }
  return folder;
}

class Bm25ShardsCli : public ::testing::Test {
 protected:
  /// Runs claimrag, expecting `exit_code`.
  void run(const std::string& arguments, int exit_code = 0) {
    last_ = run_claimrag(arguments, scratch_.path());
    ASSERT_EQ(last_.exit_code, exit_code) << arguments << "\n" << last_.err;
  }
  /// Builds shards 0..count-1 of `data` into `<root>/<count>/<k>`, the statistics given or not; returns the folders.
  std::vector<std::string> build_shards(const fs::path& data, const fs::path& root, std::size_t count,
                                        const std::string& statistics) {
    std::vector<std::string> folders;
    for (std::size_t k = 0; k < count; ++k) {
      folders.push_back((root / std::to_string(count) / std::to_string(k)).string());
      run("index --data " + data.string() + " --method bm25 --shard " + std::to_string(k) + "/" + std::to_string(count) +
          (statistics.empty() ? "" : " --statistics " + statistics) + " --out " + folders.back());
    }
    return folders;
  }
  static std::string index_flags(const std::vector<std::string>& folders) {
    std::string flags;
    for (const auto& folder : folders) flags += " --index " + folder;
    return flags;
  }
  /// Expects the sharded runs of `data` for every shard count to be the bytes of the unsharded run.
  void expect_sharded_runs_like_one_index(const fs::path& data, const std::string& queries, const std::string& k) {
    const fs::path root = scratch_.path();
    run("index --data " + data.string() + " --method bm25 --out " + (root / "whole").string());
    const std::string retrieve = "retrieve --data " + data.string() + " --method bm25 " + queries + " --k " + k;
    run(retrieve + " --index " + (root / "whole").string() + " --out " + (root / "whole.trec").string());
    const std::string expected = slurp(root / "whole.trec");
    ASSERT_FALSE(expected.empty());
    const auto statistics = (root / "statistics.tsv").string();
    run("bm25-statistics --data " + data.string() + " --out " + statistics);
    for (const std::size_t count : {1, 2, 3, 4, 7}) {
      // Odd counts compute the statistics themselves: the shards must not differ.
      auto folders = build_shards(data, root, count, count % 2 == 0 ? statistics : "");
      std::reverse(folders.begin(), folders.end());  // any order
      const auto out = root / ("sharded" + std::to_string(count) + ".trec");
      run(retrieve + index_flags(folders) + " --threads " + (count % 2 == 0 ? "1" : "2") + " --out " + out.string());
      EXPECT_EQ(slurp(out), expected) << count << " shards";
    }
  }

  TempFolder scratch_;
  claimrag::testing::Outcome last_;
};

}  // namespace

TEST_F(Bm25ShardsCli, SciFactRunIsTheOneIndexRun) {
  if (!fs::exists(kSciFact / "corpus.jsonl")) GTEST_SKIP() << "data/scifact is missing (scripts/get-data.sh)";
  expect_sharded_runs_like_one_index(kSciFact, "--split test", "200");
}

TEST_F(Bm25ShardsCli, TiedRunIsTheOneIndexRun) {
  const auto data = write_tie_folder(scratch_.path() / "ties");
  for (const std::string k : {"1", "2", "3", "5", "100"}) {
    expect_sharded_runs_like_one_index(data, "--queries " + (data / "queries.jsonl").string(), k);
  }
}

TEST_F(Bm25ShardsCli, StatisticsGivenOrComputedGiveTheSameShard) {
  const auto data = write_tie_folder(scratch_.path() / "ties");
  const auto statistics = (scratch_.path() / "statistics.tsv").string();
  run("bm25-statistics --data " + data.string() + " --out " + statistics);
  const auto given = build_shards(data, scratch_.path() / "given", 3, statistics);
  const auto computed = build_shards(data, scratch_.path() / "computed", 3, "");
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(slurp(fs::path(given[k]) / "bm25.index"), slurp(fs::path(computed[k]) / "bm25.index")) << "shard " << k;
  }
}

TEST_F(Bm25ShardsCli, RefusesMismatchedShardSetsWritingNothing) {
  const auto data = write_tie_folder(scratch_.path() / "ties");
  const auto other = scratch_.path() / "other";
  fs::create_directories(other);
  fs::copy_file(data / "queries.jsonl", other / "queries.jsonl");
  std::ofstream(other / "corpus.jsonl") << R"({"_id":"o1","title":"","text":"aspirin again"})" << "\n"
                                        << R"({"_id":"o2","title":"","text":"bone again"})" << "\n";
  const auto shards = build_shards(data, scratch_.path(), 3, "");
  const auto other_shards = build_shards(other, scratch_.path() / "o", 3, "");
  run("index --data " + data.string() + " --method bm25 --out " + (scratch_.path() / "whole").string());
  const auto out = scratch_.path() / "refused.trec";
  const std::string retrieve = "retrieve --data " + data.string() + " --method bm25 --queries " +
                               (data / "queries.jsonl").string() + " --k 5 --out " + out.string();
  const auto expect_refused = [&](const std::vector<std::string>& folders, const std::string& file, const std::string& what) {
    run(retrieve + index_flags(folders), 3);
    EXPECT_NE(last_.err.find(file + "/bm25.index: " + what), std::string::npos) << last_.err;
    EXPECT_FALSE(fs::exists(out));
  };
  expect_refused({shards[0], shards[2]}, shards[0], "shard 1 of 3 of its set is missing");
  expect_refused({shards[0], shards[1], shards[2], shards[1]}, shards[1], "repeats shard 1 of 3");
  expect_refused({shards[0], shards[1], other_shards[2]}, other_shards[2], "was built from other statistics or another corpus");
  expect_refused({shards[0], shards[1], shards[2], (scratch_.path() / "whole").string()}, (scratch_.path() / "whole").string(),
                 "is an unsharded index");
  expect_refused({(scratch_.path() / "whole").string(), shards[0]}, (scratch_.path() / "whole").string(), "is an unsharded index");
  expect_refused({shards[1]}, shards[1], "shard 0 of 3 of its set is missing");
  expect_refused({other_shards[0], other_shards[1], other_shards[2]}, other_shards[0], "was built from another corpus than");

  // A shard read as a whole index, and statistics of another corpus, are refused too.
  const auto whole_run = (scratch_.path() / "whole.trec").string();
  run("retrieve --data " + data.string() + " --index " + (scratch_.path() / "whole").string() + " --method bm25 --queries " +
      (data / "queries.jsonl").string() + " --k 5 --out " + whole_run);
  const auto model = scratch_.path() / "reranker.safetensors";
  run("rerank --data " + data.string() + " --index " + shards[0] + " --run " + whole_run + " --train --model " + model.string() +
          " --out " + out.string(),
      3);
  EXPECT_NE(last_.err.find(shards[0] + "/bm25.index: is shard 0 of 3 of a document-sharded index"), std::string::npos) << last_.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(model));
  const auto statistics = (scratch_.path() / "other.tsv").string();
  run("bm25-statistics --data " + other.string() + " --out " + statistics);
  const auto refused_shard = scratch_.path() / "refused-shard";
  run("index --data " + data.string() + " --method bm25 --shard 0/2 --statistics " + statistics + " --out " + refused_shard.string(), 3);
  EXPECT_NE(last_.err.find(statistics + ": was computed from another corpus than"), std::string::npos) << last_.err;
  EXPECT_FALSE(fs::exists(refused_shard / "bm25.index"));
}

TEST_F(Bm25ShardsCli, RefusesBadShardFlags) {
  const auto data = write_tie_folder(scratch_.path() / "ties");
  const auto out = (scratch_.path() / "index").string();
  run("index --data " + data.string() + " --method bm25 --shard 2/2 --out " + out, 2);
  run("index --data " + data.string() + " --method bm25 --statistics s.tsv --out " + out, 2);
  run("index --data " + data.string() + " --method dense --shard 0/2 --out " + out, 2);
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(Bm25ShardsCli, ClaimShardsOverDocumentShardsMergeToTheOneIndexRun) {
  const auto data = write_tie_folder(scratch_.path() / "ties");
  const auto root = scratch_.path();
  const std::string retrieve = "retrieve --data " + data.string() + " --method bm25 --queries " +
                               (data / "queries.jsonl").string() + " --k 3";
  run("index --data " + data.string() + " --method bm25 --out " + (root / "whole").string());
  run(retrieve + " --index " + (root / "whole").string() + " --out " + (root / "whole.trec").string());
  const auto folders = build_shards(data, root, 3, "");
  for (const std::string k : {"0", "1"}) {
    run(retrieve + index_flags(folders) + " --shard " + k + "/2 --out " + (root / ("claims-" + k + ".trec")).string());
  }
  run("merge --out " + (root / "merged.trec").string() + " " + (root / "claims-1.trec").string() + " " +
      (root / "claims-0.trec").string());
  EXPECT_EQ(slurp(root / "merged.trec"), slurp(root / "whole.trec"));
}
