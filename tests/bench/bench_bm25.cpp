// BM25 hot paths: index build from the JSONL, the 300 SciFact test claims top-200 (one thread and
// all threads), and query time on synthetic corpora 1x, 10x and 100x SciFact's size.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <filesystem>
#include <random>

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
    benchmark::DoNotOptimize(index.posting_documents.data());
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

// A synthetic corpus with SciFact's shape: documents of ~225 Zipf-distributed tokens over a
// vocabulary that grows with the corpus (Heaps' law), claims of 13 tokens.
struct Synthetic {
  bm25::InvertedIndex index;
  std::vector<std::string> queries;
};

Synthetic make_synthetic(std::size_t documents, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t vocabulary = static_cast<std::size_t>(35000.0 * std::pow(static_cast<double>(documents) / 5183.0, 0.6));
  std::vector<double> weights(vocabulary);
  for (std::size_t r = 0; r < vocabulary; ++r) weights[r] = 1.0 / static_cast<double>(r + 1);
  std::discrete_distribution<std::size_t> zipf(weights.begin(), weights.end());
  std::normal_distribution<double> length(225.0, 60.0);
  dataset::Corpus corpus;
  for (std::size_t d = 0; d < documents; ++d) {
    std::string text;
    for (int i = std::max(20, static_cast<int>(length(rng))); i > 0; --i) text += "t" + std::to_string(zipf(rng)) + ' ';
    corpus.documents.push_back({std::to_string(d), "", std::move(text)});
  }
  Synthetic synthetic{bm25::build_index(corpus, ""), {}};
  for (int q = 0; q < 300; ++q) {
    std::string query;
    for (int i = 0; i < 13; ++i) query += "t" + std::to_string(zipf(rng)) + ' ';
    synthetic.queries.push_back(std::move(query));
  }
  return synthetic;
}

void BM_SearchSyntheticScale(benchmark::State& state) {
  const std::size_t scale = static_cast<std::size_t>(state.range(0));
  const auto synthetic = make_synthetic(5183 * scale, 42);
  const bm25::Searcher searcher(synthetic.index, {1.2, 0.75});
  std::vector<std::string_view> texts(synthetic.queries.begin(), synthetic.queries.end());
  omp_set_num_threads(2);
  for (auto _ : state) {
    auto hits = searcher.search_many(texts, 200);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["documents"] = static_cast<double>(synthetic.index.document_count());
  state.counters["postings"] = static_cast<double>(synthetic.index.posting_documents.size());
}
BENCHMARK(BM_SearchSyntheticScale)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
