// A run written by another engine, consumed here: data/fixtures/external-run/anserini-bm25.test.trec
// is what Anserini / Pyserini write (tag "Anserini", six-decimal scores, Lucene's BM25 with k1 0.9,
// b 0.4 and English stop words; make_run.py beside it made it from data/fixtures/tiny-beir). A
// corpus too large for one machine is searched by such an engine and fused, reranked and evaluated
// here. Expectations derived by hand from the fixture.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "claimrag/run/run.hpp"
#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {
using claimrag::testing::kTiny;
const std::string kExternal = "data/fixtures/external-run/anserini-bm25.test.trec";
}  // namespace

TEST(CliExternalRun, EvaluatesFusesAndReranksAnAnseriniRun) {
  TempFolder folder;
  const std::string out = folder.path().string();
  const auto evaluated = run_claimrag("evaluate --data " + kTiny + " --split test --run " + kExternal +
                                          " --metrics ndcg@10,recall@10 --out " + out + "/external",
                                      folder.path());
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  const auto json = nlohmann::json::parse(slurp(folder.path() / "external.json"));
  // q1..q4 find every relevant abstract first; q5 finds d2 at rank 1 and misses d6.
  EXPECT_NEAR(json["metrics"]["ndcg@10"].get<double>(), (4.0 + 1.0 / (1.0 + 1.0 / std::log2(3.0))) / 5.0, 1e-12);
  EXPECT_DOUBLE_EQ(json["metrics"]["recall@10"].get<double>(), (1 + 1 + 1 + 1 + 0.5) / 5.0);

  // Fused with claimrag's own BM25 run, which ranks the same abstracts in the same order: every
  // document scores 2 / (60 + rank).
  ASSERT_EQ(run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path()).exit_code, 0);
  ASSERT_EQ(run_claimrag("retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split test --k 10 --out " +
                             out + "/bm25.trec",
                         folder.path())
                .exit_code,
            0);
  const auto fused = run_claimrag("fuse --runs " + kExternal + " " + out + "/bm25.trec --out " + out + "/hybrid.trec", folder.path());
  ASSERT_EQ(fused.exit_code, 0) << fused.err;
  const auto hybrid = claimrag::run::read_trec_run(folder.path() / "hybrid.trec");
  const auto* q3 = hybrid.find("q3");
  ASSERT_NE(q3, nullptr);
  ASSERT_EQ(q3->documents.size(), 2u);
  EXPECT_EQ(q3->documents[0].doc_id, "d5");
  EXPECT_EQ(q3->documents[0].score, 1.0 / 61 + 1.0 / 61);
  EXPECT_EQ(q3->documents[1].doc_id, "d1");
  EXPECT_EQ(q3->documents[1].score, 1.0 / 62 + 1.0 / 62);

  // Reranked directly: a reranker trained on the train split reorders each claim's head only, so
  // the abstracts of each claim, and so recall, stay the external run's.
  const auto reranked = run_claimrag("rerank --data " + kTiny + " --index " + out + "/index --run " + kExternal + " --out " +
                                         out + "/reranked.trec --model " + out + "/reranker.safetensors --train",
                                     folder.path());
  ASSERT_EQ(reranked.exit_code, 0) << reranked.err;
  const auto run = claimrag::run::read_trec_run(folder.path() / "reranked.trec");
  EXPECT_EQ(run.tag, "Anserini+rerank");
  const auto external = claimrag::run::read_trec_run(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / kExternal);
  ASSERT_EQ(run.rankings.size(), external.rankings.size());
  for (std::size_t q = 0; q < run.rankings.size(); ++q) {
    std::vector<std::string> before, after;
    for (const auto& document : external.rankings[q].documents) before.push_back(document.doc_id);
    for (const auto& document : run.rankings[q].documents) after.push_back(document.doc_id);
    std::sort(before.begin(), before.end());
    std::sort(after.begin(), after.end());
    EXPECT_EQ(after, before) << run.rankings[q].query_id;
  }
  const auto evaluated_reranked = run_claimrag("evaluate --data " + kTiny + " --split test --run " + out +
                                                   "/reranked.trec --metrics recall@10 --out " + out + "/reranked",
                                               folder.path());
  ASSERT_EQ(evaluated_reranked.exit_code, 0) << evaluated_reranked.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(slurp(folder.path() / "reranked.json"))["metrics"]["recall@10"].get<double>(), 0.9);
}
