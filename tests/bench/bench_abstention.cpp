// Abstention comparison speed: the whole comparison of the reproduction's shape (300 test claims,
// 809 training claims, six strategies plus the stacked one and the oracle, 1,000 bootstrap
// resamples) from tables in memory (target: the whole comparison from cached stage outputs ≤ 3 s),
// and the same with the tables read from and the outputs written to disk, as the command does.
// Synthetic tables: the arithmetic, not the numbers, is measured.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>

#include "claimrag/abstention/comparison.hpp"

namespace {

using namespace claimrag;
namespace fs = std::filesystem;

abstention::ClaimsTable synthetic_table(std::size_t claims, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  abstention::ClaimsTable table;
  table.strategies = {"bm25_top1", "combined", "verifier", "grounding", "ciber", "sure"};
  table.confidence.resize(table.strategies.size());
  for (std::size_t c = 0; c < claims; ++c) {
    const bool unsafe = uniform(rng) < 0.75;
    table.claim_ids.push_back(std::to_string(c));
    table.answered.push_back(true);
    table.unsafe.push_back(unsafe);
    // Each strategy sees the outcome through its own amount of noise.
    for (std::size_t s = 0; s < table.strategies.size(); ++s) {
      table.confidence[s].push_back((unsafe ? 0.0 : 0.3) + uniform(rng) * (1.0 + static_cast<double>(s)));
    }
  }
  return table;
}

void BM_CompareInMemory(benchmark::State& state) {
  const auto test = synthetic_table(300, 1);
  const std::optional<abstention::ClaimsTable> train = synthetic_table(809, 2);
  const abstention::ComparisonSettings settings;
  for (auto _ : state) benchmark::DoNotOptimize(abstention::compare_abstention(test, train, settings));
}
BENCHMARK(BM_CompareInMemory)->Unit(benchmark::kMillisecond);

void BM_CompareFromFiles(benchmark::State& state) {
  const fs::path folder = fs::temp_directory_path() / "claimrag_bench_abstention";
  fs::create_directories(folder);
  abstention::write_claims_table(synthetic_table(300, 1), folder / "test.tsv");
  abstention::write_claims_table(synthetic_table(809, 2), folder / "train.tsv");
  const abstention::ComparisonSettings settings;
  for (auto _ : state) {
    benchmark::DoNotOptimize(abstention::run_compare_abstention(folder / "test.tsv", folder / "train.tsv", settings, folder / "out"));
  }
  fs::remove_all(folder);
}
BENCHMARK(BM_CompareFromFiles)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
