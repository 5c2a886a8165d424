// The gate's sweep: 1,000 thresholds over 300 claims (target under 10 ms), and risk-coverage.

#include <benchmark/benchmark.h>

#include <random>

#include "claimrag/gate/risk_coverage.hpp"
#include "claimrag/gate/sweep.hpp"
#include "claimrag/gate/thresholds.hpp"

using namespace claimrag;

namespace {

std::vector<gate::ClaimOutcome> claims_like_scifact() {
  std::mt19937_64 rng(42);
  std::gamma_distribution<double> score(4.0, 6.0);
  std::bernoulli_distribution hallucinated(0.2);
  std::vector<gate::ClaimOutcome> claims;
  for (int i = 0; i < 300; ++i) claims.push_back({std::to_string(i), score(rng), hallucinated(rng), 0.2});
  return claims;
}

void BM_Sweep1000Thresholds300Claims(benchmark::State& state) {
  const auto claims = claims_like_scifact();
  const auto thresholds = gate::parse_thresholds("0:99.9:0.1").values;
  for (auto _ : state) {
    auto rows = gate::sweep(claims, thresholds);
    benchmark::DoNotOptimize(rows.data());
  }
  state.counters["thresholds"] = static_cast<double>(thresholds.size());
}
BENCHMARK(BM_Sweep1000Thresholds300Claims)->Unit(benchmark::kMicrosecond);

void BM_RiskCoverage300Claims(benchmark::State& state) {
  const auto claims = claims_like_scifact();
  for (auto _ : state) {
    auto curve = gate::risk_coverage(claims);
    benchmark::DoNotOptimize(curve.aurc);
  }
}
BENCHMARK(BM_RiskCoverage300Claims)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
