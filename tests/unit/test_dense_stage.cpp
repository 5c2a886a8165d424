#include <gtest/gtest.h>

#include <filesystem>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "rerank_fixture.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

experiment::ExperimentConfig small_dense_config() {
  experiment::ExperimentConfig config;
  config.dense.dimension = 16;
  config.dense.epochs = 3;
  config.dense.batch_size = 8;
  config.dense.quiet = true;
  return config;
}

}  // namespace

// The reproduction retrieves with the index the dense stage trained, without reading it back;
// `retrieve` reads it from disk. Both must give the same run, score for score.
TEST(DenseStage, TheTrainedIndexRetrievesExactlyAsTheSavedOne) {
  TempFolder folder;
  const auto beir = folder.path() / "beir";
  test::write_synthetic_beir(beir, 120, 5);
  const auto config = small_dense_config();
  const auto trained = experiment::index_dense(beir, folder.path() / "dense", config);
  const auto loaded = experiment::load_dense_index(beir, folder.path() / "dense", config);
  EXPECT_EQ(trained.vocabulary.tokens(), loaded.vocabulary.tokens());
  EXPECT_EQ(trained.document_ids, loaded.document_ids);
  ASSERT_EQ(trained.documents.rows(), 120);
  EXPECT_TRUE(trained.documents == loaded.documents);

  const auto queries = experiment::select_queries(beir, {"test", {}});
  const auto from_memory = experiment::retrieve_dense(trained, queries, 25);
  const auto from_disk = experiment::retrieve_dense(loaded, queries, 25);
  ASSERT_EQ(from_memory.rankings.size(), queries.size());
  ASSERT_EQ(from_disk.rankings.size(), queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const auto& a = from_memory.rankings[q].documents;
    const auto& b = from_disk.rankings[q].documents;
    ASSERT_EQ(a.size(), 25u);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].doc_id, b[i].doc_id);
      EXPECT_EQ(a[i].score, b[i].score);
    }
  }
}

TEST(DenseStage, AnIndexOfAnotherCorpusIsRefusedNamingTheModel) {
  TempFolder folder;
  test::write_synthetic_beir(folder.path() / "a", 120, 5);
  test::write_synthetic_beir(folder.path() / "b", 120, 6);
  const auto config = small_dense_config();
  (void)experiment::index_dense(folder.path() / "a", folder.path() / "dense", config);
  expect_error<DataError>([&] { (void)experiment::load_dense_index(folder.path() / "b", folder.path() / "dense", config); },
                          "dense.safetensors: was trained on another corpus");
}
