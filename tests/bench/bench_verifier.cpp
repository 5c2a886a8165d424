// The verifier at SciFact's scale on synthetic pairs of the real shape: claims of 6–20 tokens
// (mean 13, as the test claims), sentences of 8–40 (mean 24, as the corpus's sentences), a
// Zipf-distributed vocabulary of 8,000 words.
//   train: ~1,800 pairs (450 positives, 3 negatives each), 5 epochs, default sizes;
//   score: 9,000 pairs (300 claims × 30 candidate sentences).
// FLOPs as verifier_flops.hpp counts them.

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "claimrag/verifier/training.hpp"
#include "verifier_flops.hpp"

namespace {

using namespace claimrag::verifier;
using claimrag::bench::forward_flops;
using claimrag::bench::training_flops;

constexpr std::size_t kWords = 8000;

std::vector<std::int32_t> random_text(std::size_t min_len, std::size_t max_len, std::mt19937_64& rng) {
  static const std::vector<double> zipf = [] {
    std::vector<double> weights(kWords);
    for (std::size_t i = 0; i < kWords; ++i) weights[i] = 1.0 / static_cast<double>(i + 1);
    return weights;
  }();
  std::discrete_distribution<std::int32_t> word(zipf.begin(), zipf.end());
  std::uniform_int_distribution<std::size_t> length(min_len, max_len);
  std::vector<std::int32_t> ids(length(rng));
  for (auto& id : ids) id = Vocabulary::reserved_count + word(rng);
  return ids;
}

TrainingSet synthetic_training_set(std::mt19937_64& rng) {
  TrainingSet data;
  for (int claim = 0; claim < 450; ++claim) {
    const auto claim_ids = random_text(6, 20, rng);
    for (int k = 0; k < 4; ++k) {
      data.pairs.push_back(encode_pair(claim_ids, random_text(8, 40, rng), VerifierOptions{}.max_length));
      data.labels.push_back(k == 0 ? 1 : 0);
    }
  }
  return data;
}

void BM_TrainVerifier(benchmark::State& state) {
  spdlog::set_level(spdlog::level::warn);
  std::mt19937_64 data_rng(7);
  const TrainingSet data = synthetic_training_set(data_rng);
  const VerifierOptions options;
  TrainingOptions training;
  training.log_progress = false;
  double flops = 0;
  for (auto _ : state) {
    std::mt19937_64 rng(42);
    VerifierModel<float> model(Vocabulary::reserved_count + kWords, options, rng);
    flops = training_flops(data, options, training, rng);
    const auto losses = train_verifier(model, data, training, rng);
    benchmark::DoNotOptimize(losses.data());
  }
  state.counters["pairs"] = static_cast<double>(data.pairs.size());
  state.counters["GFLOP"] = flops * 1e-9;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9 * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainVerifier)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_ScoreVerifier(benchmark::State& state) {
  std::mt19937_64 data_rng(11);
  const VerifierOptions options;
  std::vector<EncodedPair> pairs;
  for (int claim = 0; claim < 300; ++claim) {
    const auto claim_ids = random_text(6, 20, data_rng);
    for (int k = 0; k < 30; ++k) pairs.push_back(encode_pair(claim_ids, random_text(8, 40, data_rng), options.max_length));
  }
  std::mt19937_64 rng(42);
  const VerifierModel<float> model(Vocabulary::reserved_count + kWords, options, rng);
  const auto batch_size = static_cast<std::size_t>(state.range(0));
  std::vector<std::size_t> order(pairs.size());  // the batches predict_probabilities forms
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pairs[a].ids.size() < pairs[b].ids.size(); });
  double flops = 0;
  for (std::size_t start = 0; start < pairs.size(); start += batch_size) {
    const std::vector<std::size_t> members(order.begin() + static_cast<std::ptrdiff_t>(start),
                                           order.begin() + static_cast<std::ptrdiff_t>(std::min(pairs.size(), start + batch_size)));
    flops += forward_flops(make_batch(pairs, members), options);
  }
  for (auto _ : state) {
    const auto probabilities = predict_probabilities(model, pairs, batch_size);
    benchmark::DoNotOptimize(probabilities.data());
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["GFLOP"] = flops * 1e-9;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9 * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ScoreVerifier)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
