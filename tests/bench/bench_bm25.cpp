// BM25 hot paths on SciFact: index build from the JSONL, the 300 test claims top-200 (one thread
// and all threads). Larger corpora: bench_bm25_scale.cpp.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <filesystem>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/beir.hpp"

using namespace claimrag;

namespace {

const std::filesystem::path kBeir = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";

bool have_scifact(benchmark::State& state) {
  if (std::filesystem::exists(kBeir / "corpus.jsonl")) return true;
  state.SkipWithError("data/scifact is missing: run scripts/get-data.sh");
  return false;
}

struct SciFact {
  dataset::Corpus corpus = dataset::load_corpus(kBeir / "corpus.jsonl");
  bm25::InvertedIndex index = bm25::build_index(corpus, corpus.checksum);
  std::vector<dataset::Query> queries = dataset::queries_of_split(
      dataset::load_queries(kBeir / "queries.jsonl"), dataset::load_split(kBeir, "test"), "test");
  std::vector<std::string_view> texts() const {
    std::vector<std::string_view> views;
    for (const auto& query : queries) views.emplace_back(query.text);
    return views;
  }
};

const SciFact& scifact() {
  static const SciFact data;
  return data;
}

void BM_IndexBuildFromJsonl(benchmark::State& state) {
  if (!have_scifact(state)) return;
  for (auto _ : state) {
    const auto corpus = dataset::load_corpus(kBeir / "corpus.jsonl");
    auto index = bm25::build_index(corpus, corpus.checksum);
    benchmark::DoNotOptimize(index.posting_count());
  }
}
BENCHMARK(BM_IndexBuildFromJsonl)->Unit(benchmark::kMillisecond);

void BM_Search300TestClaimsTop200(benchmark::State& state) {
  if (!have_scifact(state)) return;
  const auto& data = scifact();
  const bm25::Searcher searcher(data.index, {1.2, 0.75});
  const auto texts = data.texts();
  const int threads = static_cast<int>(state.range(0));
  omp_set_num_threads(threads);
  for (auto _ : state) {
    auto hits = searcher.search_many(texts, 200);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["queries/s"] = benchmark::Counter(static_cast<double>(texts.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Search300TestClaimsTop200)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();


}  // namespace

BENCHMARK_MAIN();
