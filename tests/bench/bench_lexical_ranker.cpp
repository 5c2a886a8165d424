// The lexical ranker on SciFact (retrieval/lexical_ranker.hpp, the configuration's recipe): its
// views of the corpus, its training on the 809 train claims (candidates and features, the fold
// and nested priors, the family-grouped cross-validation, the final fit), and ranking the 300 test
// claims on one and two threads. The budgets: training every retrieval model ≤ 60 s,
// retrieving the test claims with every system ≤ 1 s, on 2 cores.

#include <benchmark/benchmark.h>
#include <omp.h>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/retrieval/lexical_ranker.hpp"
#include "scifact_location.hpp"

using namespace claimrag;

namespace {

struct SciFact {
  std::filesystem::path beir = bench::find_scifact_beir();
  dataset::Corpus corpus = dataset::load_corpus(beir / "corpus.jsonl");
  std::vector<dataset::Query> all = dataset::load_queries(beir / "queries.jsonl");
  dataset::Qrels train_qrels = dataset::load_split(beir, "train");
  std::vector<dataset::Query> train = dataset::queries_of_split(all, train_qrels, "train");
  std::vector<dataset::Query> test = dataset::queries_of_split(all, dataset::load_split(beir, "test"), "test");
  retrieval::AbstractIndexes indexes = retrieval::build_abstract_indexes(corpus);
  retrieval::LexicalRankerOptions options;
  retrieval::ClaimFeaturizer featurizer{indexes, options.features};
};

const SciFact* scifact(benchmark::State& state) {
  if (bench::find_scifact_beir().empty()) {
    state.SkipWithError("data/scifact is missing: run scripts/get-data.sh");
    return nullptr;
  }
  static const SciFact data;
  return &data;
}

void BM_Views(benchmark::State& state) {
  const auto* data = scifact(state);
  if (data == nullptr) return;
  for (auto _ : state) {
    auto indexes = retrieval::build_abstract_indexes(data->corpus);
    benchmark::DoNotOptimize(indexes.document_count());
  }
}
BENCHMARK(BM_Views)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_Train809Claims(benchmark::State& state) {
  const auto* data = scifact(state);
  if (data == nullptr) return;
  for (auto _ : state) {
    auto trained = retrieval::train_lexical_ranker(data->featurizer, data->train, data->train_qrels, data->options);
    benchmark::DoNotOptimize(trained.ranker.weights.data());
  }
}
BENCHMARK(BM_Train809Claims)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_Rank300TestClaims(benchmark::State& state) {
  const auto* data = scifact(state);
  if (data == nullptr) return;
  static const auto trained = retrieval::train_lexical_ranker(data->featurizer, data->train, data->train_qrels, data->options);
  omp_set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto run = retrieval::lexical_ranker_run(data->featurizer, trained, data->test, 200, "lexical_ranker");
    benchmark::DoNotOptimize(run.rankings.data());
  }
  state.counters["claims/s"] =
      benchmark::Counter(static_cast<double>(data->test.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Rank300TestClaims)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
