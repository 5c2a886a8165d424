// The dense encoder's hot paths on synthetic data of SciFact's shape: 5,183 documents of ~225
// tokens, 919 training pairs over 809 queries of ~13 tokens, a 30k-token vocabulary with
// Zipf-distributed token frequencies (exponent 1.15: the ~570 documents cited by the training
// pairs then hold ~12k distinct tokens, as SciFact's 565 do, so Adam touches as many rows).
// Targets on the project's 2-core machine: training < 1 s, encoding < 50 ms, search < 20 ms.

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "claimrag/dense/search.hpp"
#include "claimrag/dense/train.hpp"

namespace {

using claimrag::dense::DenseOptions;
using claimrag::dense::TrainingPair;
using Texts = std::vector<std::vector<std::int32_t>>;

constexpr std::int32_t kVocabulary = 30000;
constexpr int kDocuments = 5183;
constexpr int kQueries = 809;
constexpr int kPairs = 919;

struct SyntheticData {
  Texts documents;
  Texts queries;
  Texts test_queries;
  std::vector<TrainingPair> pairs;
};

Texts draw_texts(int count, int mean_length, std::discrete_distribution<std::int32_t>& zipf, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> length(mean_length / 2, mean_length * 3 / 2);
  Texts texts(static_cast<std::size_t>(count));
  for (auto& text : texts) {
    text.resize(static_cast<std::size_t>(length(rng)));
    for (auto& id : text) id = zipf(rng);
  }
  return texts;
}

const SyntheticData& data() {
  static const SyntheticData synthetic = [] {
    std::mt19937_64 rng(7);
    std::vector<double> weights(kVocabulary);
    for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = std::pow(static_cast<double>(i + 1), -1.15);
    std::discrete_distribution<std::int32_t> zipf(weights.begin(), weights.end());
    SyntheticData d;
    d.documents = draw_texts(kDocuments, 225, zipf, rng);
    d.queries = draw_texts(kQueries, 13, zipf, rng);
    d.test_queries = draw_texts(300, 13, zipf, rng);
    // Every query gets one document, 110 of them a second; SciFact's 919 pairs cite ~570 documents.
    std::uniform_int_distribution<std::int32_t> document(0, 569);
    for (int p = 0; p < kPairs; ++p) d.pairs.push_back({p % kQueries, document(rng)});
    return d;
  }();
  return synthetic;
}

DenseOptions quiet_options() {
  DenseOptions options;
  options.quiet = true;
  return options;
}

void BM_Train40Epochs(benchmark::State& state) {
  const auto& d = data();
  for (auto _ : state) {
    auto trained = claimrag::dense::fit(kVocabulary, d.queries, d.documents, d.pairs, quiet_options());
    benchmark::DoNotOptimize(trained.model.parameters()[0].value.data());
  }
}
BENCHMARK(BM_Train40Epochs)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_EncodeDocuments(benchmark::State& state) {
  const auto& d = data();
  claimrag::dense::DualEncoder<float> model(kVocabulary, quiet_options());
  std::mt19937_64 rng(42);
  model.initialise(rng);
  for (auto _ : state) {
    auto matrix = model.encode(d.documents, claimrag::dense::Tower::document);
    benchmark::DoNotOptimize(matrix.data());
  }
}
BENCHMARK(BM_EncodeDocuments)->Unit(benchmark::kMillisecond);

void BM_Search300Top200(benchmark::State& state) {
  const auto& d = data();
  claimrag::dense::DualEncoder<float> model(kVocabulary, quiet_options());
  std::mt19937_64 rng(42);
  model.initialise(rng);
  const auto documents = model.encode(d.documents, claimrag::dense::Tower::document);
  const auto queries = model.encode(d.test_queries, claimrag::dense::Tower::query);
  for (auto _ : state) {
    auto hits = claimrag::dense::search_top_k(queries, documents, 200);
    benchmark::DoNotOptimize(hits.data());
  }
}
BENCHMARK(BM_Search300Top200)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
