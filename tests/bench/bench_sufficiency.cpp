// Sufficiency speed: features and aggregation for 10,000 examples × 10 passages after pair scoring
// (target ≤ 1 s), and the pair-scoring throughput of the oracle claim verifier on the SciFact
// sufficiency benchmark's test examples (pairs per second; skipped when data/scifact is missing;
// the verifier is trained once, outside the timed loop).

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <random>

#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "scifact_location.hpp"

namespace {

using namespace claimrag;
using namespace claimrag::sufficiency;
namespace fs = std::filesystem;

std::vector<std::vector<PairScore>> random_pairs(std::size_t examples, std::size_t passages, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::gamma_distribution<double> gamma(1.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::vector<PairScore>> out(examples);
  for (auto& pairs : out) {
    for (std::size_t j = 0; j < passages; ++j) {
      const double a = gamma(rng), b = gamma(rng), c = gamma(rng), sum = a + b + c;
      pairs.push_back({a / sum, b / sum, c / sum, uniform(rng), uniform(rng)});
    }
  }
  return out;
}

void BM_FeaturesAndAggregation(benchmark::State& state) {
  const auto pairs = random_pairs(10000, 10, 42);
  // An aggregator fitted on random labels: its arithmetic, not its accuracy, is measured.
  std::vector<SetFeatures> fit_rows;
  std::vector<int> labels;
  for (std::size_t i = 0; i < 300; ++i) fit_rows.push_back(set_features(pairs[i])), labels.push_back(static_cast<int>(i % 3));
  const SureModel model = fit_sure(fit_rows, labels, fit_rows, labels, columns_without({}), {});
  for (auto _ : state) {
    std::vector<SetFeatures> features;
    features.reserve(pairs.size());
    for (const auto& example : pairs) features.push_back(set_features(example));
    auto predictions = predict_sure(model, features);
    benchmark::DoNotOptimize(predictions.data());
  }
  state.counters["examples_per_second"] = benchmark::Counter(static_cast<double>(state.iterations() * pairs.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FeaturesAndAggregation)->Unit(benchmark::kMillisecond);

struct SciFactFixture {
  std::unique_ptr<verification::ClaimVerifier> verifier;
  std::vector<Example> test;
  std::size_t pairs = 0;
};

SciFactFixture& scifact() {
  static SciFactFixture loaded = [] {
    SciFactFixture f;
    const fs::path original = bench::find_scifact_beir().parent_path() / "original";
    const auto abstracts = dataset::load_abstracts(original / "corpus.jsonl");
    const auto train = dataset::load_claims(original / "claims_train.jsonl", &abstracts);
    const auto dev = dataset::load_claims(original / "claims_dev.jsonl", &abstracts);
    const auto index = verification::index_abstracts(abstracts);
    f.verifier = verification::train_claim_verifier(
        {verification::oracle_inputs(train, index), verification::corpus_texts(abstracts)}, {});
    for (auto& example : build_benchmark(abstracts, train, dev, {}).examples) {
      if (example.split != "test") continue;
      f.pairs += example.evidence.size();
      f.test.push_back(std::move(example));
    }
    return f;
  }();
  return loaded;
}

void BM_PairScoringSciFactTest(benchmark::State& state) {
  if (!bench::have_scifact_layouts(state)) return;
  auto& f = scifact();
  for (auto _ : state) {
    auto scored = score_examples(*f.verifier, f.test);
    benchmark::DoNotOptimize(scored.data());
  }
  state.counters["pairs"] = static_cast<double>(f.pairs);
  state.counters["pairs_per_second"] = benchmark::Counter(static_cast<double>(state.iterations() * f.pairs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PairScoringSciFactTest)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
