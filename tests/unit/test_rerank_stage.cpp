#include <gtest/gtest.h>
#include <omp.h>

#include <filesystem>
#include <fstream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "claimrag/rerank/model_io.hpp"
#include "rerank_fixture.hpp"

using namespace claimrag;
namespace fs = std::filesystem;

namespace {

// A synthetic BEIR folder with its BM25 index and test run, under a fresh temporary folder.
struct StageFixture {
  fs::path root;
  fs::path beir;
  fs::path index;
  fs::path bm25_run;
  experiment::ExperimentConfig config;

  explicit StageFixture(const std::string& name, std::uint64_t seed = 42)
      : root(fs::temp_directory_path() / ("claimrag_test_" + name)), beir(root / "beir"), index(root / "index"),
        bm25_run(root / "bm25.trec") {
    fs::remove_all(root);
    test::write_synthetic_beir(beir, 150, seed);
    config.rerank.train_depth = 30;
    experiment::index_bm25(beir, index, config);
    const auto queries = experiment::select_queries(beir, {"test", {}});
    run::write_trec_run(experiment::retrieve_bm25(beir, index, queries, config.bm25, 100), bm25_run);
  }
  ~StageFixture() { fs::remove_all(root); }

  experiment::RerankRequest request(const std::string& out, const std::string& model, bool train) const {
    return {beir, index, bm25_run, root / out, root / model, train};
  }
};

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST(RerankStage, SameInputsGiveByteIdenticalOutputsWhateverTheThreadCount) {
  const StageFixture fixture("rerank_stage_determinism");
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  experiment::run_rerank_stage(fixture.request("one.trec", "one.safetensors", true), fixture.config);
  omp_set_num_threads(2);
  experiment::run_rerank_stage(fixture.request("two.trec", "two.safetensors", true), fixture.config);
  experiment::run_rerank_stage(fixture.request("again.trec", "again.safetensors", true), fixture.config);
  omp_set_num_threads(threads);
  const std::string one = io::read_file(fixture.root / "one.trec");
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, io::read_file(fixture.root / "two.trec"));
  EXPECT_EQ(one, io::read_file(fixture.root / "again.trec"));
  EXPECT_EQ(io::read_file(fixture.root / "one.safetensors"), io::read_file(fixture.root / "two.safetensors"));
  EXPECT_EQ(io::read_file(fixture.root / "one.safetensors"), io::read_file(fixture.root / "again.safetensors"));
}

TEST(RerankStage, ASavedModelRerunsToTheSameRunAndKeepsRecall) {
  const StageFixture fixture("rerank_stage_reuse");
  experiment::run_rerank_stage(fixture.request("trained.trec", "m.safetensors", true), fixture.config);
  experiment::run_rerank_stage(fixture.request("reused.trec", "m.safetensors", false), fixture.config);
  EXPECT_EQ(io::read_file(fixture.root / "trained.trec"), io::read_file(fixture.root / "reused.trec"));

  const auto input = run::read_trec_run(fixture.bm25_run);
  const auto output = run::read_trec_run(fixture.root / "reused.trec");
  const auto qrels = dataset::load_split(fixture.beir, "test");
  const auto specs = metrics::parse_metric_list("recall@50,100");
  EXPECT_EQ(metrics::evaluate_run(output, qrels, specs).mean, metrics::evaluate_run(input, qrels, specs).mean);
}

TEST(RerankStage, ModelFlagsAreChecked) {
  const StageFixture fixture("rerank_stage_flags");
  auto no_model = fixture.request("x.trec", "m.safetensors", false);
  EXPECT_NE(message_of([&] { experiment::run_rerank_stage(no_model, fixture.config); }).find("add --train"),
            std::string::npos);
  no_model.model_file.clear();
  EXPECT_THROW(experiment::run_rerank_stage(no_model, fixture.config), UsageError);
}

TEST(RerankStage, AModelOfAnotherCorpusOrAnotherK1IsRefused) {
  const StageFixture first("rerank_stage_corpus_a", 42);
  const StageFixture second("rerank_stage_corpus_b", 7);
  experiment::run_rerank_stage(first.request("a.trec", "a.safetensors", true), first.config);
  auto foreign = second.request("b.trec", "unused", false);
  foreign.model_file = first.root / "a.safetensors";
  const std::string corpus_message = message_of([&] { experiment::run_rerank_stage(foreign, second.config); });
  EXPECT_NE(corpus_message.find("a.safetensors: the model was trained on another corpus"), std::string::npos)
      << corpus_message;
  EXPECT_FALSE(fs::exists(second.root / "b.trec"));

  auto other_k1 = first.config;
  other_k1.bm25.parameters.k1 = 0.9;
  const std::string k1_message =
      message_of([&] { experiment::run_rerank_stage(first.request("c.trec", "a.safetensors", false), other_k1); });
  EXPECT_NE(k1_message.find("k1=1.2, b=0.75 but the configuration says k1=0.9"), std::string::npos) << k1_message;
}

TEST(RerankStage, ARunNamingAnAbsentDocumentIsADataErrorNamingTheFile) {
  const StageFixture fixture("rerank_stage_bad_run");
  std::ofstream(fixture.bm25_run) << "q28 Q0 doc1 1 3.5 bm25\nq28 Q0 doc999 2 2.5 bm25\n";
  const std::string message =
      message_of([&] { experiment::run_rerank_stage(fixture.request("x.trec", "m.safetensors", true), fixture.config); });
  EXPECT_NE(message.find(fixture.bm25_run.string() + ": query q28, rank 2: document doc999 is not in the corpus"),
            std::string::npos)
      << message;
}

TEST(RerankStage, AnIndexOfAnotherCorpusIsRefused) {
  const StageFixture first("rerank_stage_index_a", 42);
  const StageFixture second("rerank_stage_index_b", 7);
  auto mixed = first.request("x.trec", "m.safetensors", true);
  mixed.index_folder = second.index;
  EXPECT_NE(message_of([&] { experiment::run_rerank_stage(mixed, first.config); }).find("was built from another corpus"),
            std::string::npos);
}
