// The reranker on the real SciFact data (skipped when data/scifact is absent): trained on the
// 809 train claims, applied to BM25's test run. Only the top 50 is reordered, so Recall@100 must
// equal BM25's exactly; the whole output must not depend on the thread count.

#include <gtest/gtest.h>
#include <omp.h>

#include <filesystem>

#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
namespace fs = std::filesystem;

TEST(RerankSciFact, Recall100IsUnchangedAndOutputIsDeterministic) {
  const fs::path beir = fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";
  if (!fs::exists(beir / "corpus.jsonl")) GTEST_SKIP() << "no SciFact data under " << beir;
  const fs::path root = claimrag::testing::unique_temp_path("claimrag_test_rerank_scifact");
  fs::remove_all(root);
  experiment::ExperimentConfig config;
  experiment::index_bm25(beir, root / "index", config);
  const auto queries = experiment::select_queries(beir, {"test", {}});
  run::write_trec_run(experiment::retrieve_bm25(beir, root / "index", queries, config.bm25, 200), root / "bm25.trec");

  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  experiment::run_rerank_stage({beir, root / "index", root / "bm25.trec", root / "one.trec", root / "m1.safetensors", true},
                               config);
  omp_set_num_threads(2);
  experiment::run_rerank_stage({beir, root / "index", root / "bm25.trec", root / "two.trec", root / "m2.safetensors", true},
                               config);
  omp_set_num_threads(threads);
  EXPECT_EQ(io::read_file(root / "one.trec"), io::read_file(root / "two.trec"));
  EXPECT_EQ(io::read_file(root / "m1.safetensors"), io::read_file(root / "m2.safetensors"));

  const auto qrels = dataset::load_split(beir, "test");
  const auto specs = metrics::parse_metric_list("recall@50,100,200");
  const auto bm25 = metrics::evaluate_run(run::read_trec_run(root / "bm25.trec"), qrels, specs);
  const auto reranked = metrics::evaluate_run(run::read_trec_run(root / "one.trec"), qrels, specs);
  EXPECT_EQ(bm25.mean, reranked.mean);
  EXPECT_NEAR(reranked.mean[1], 0.882556, 5e-7);  // the paper's BM25 Recall@100, to six decimals
  fs::remove_all(root);
}
