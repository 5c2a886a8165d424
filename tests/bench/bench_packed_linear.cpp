// The encoder's linear layers on BERT-base's shapes (768 → 2304 for the stacked query-key-value
// projection, 768 → 3072 and 3072 → 768 for the feed-forward pair), for 32 to 1,024 stacked rows:
// the packed product on each vector unit this CPU runs, beside OpenBLAS's single-precision GEMM
// on one thread (which packs the weight again on every call). Counters: GFLOP/s.
//
//   build/tests/bench/bench_packed_linear --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/packed_linear.hpp"

namespace {

using claimrag::nn::Matrix;
using claimrag::pretrained::LinearWeights;
using claimrag::pretrained::PackedLinear;
using claimrag::kernels::VectorUnit;

Matrix<float> random_matrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0F, 0.02F);
  Matrix<float> m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

LinearWeights random_layer(Eigen::Index out, Eigen::Index in) {
  return LinearWeights{random_matrix(out, in, 7), random_matrix(1, out, 8)};
}

void set_flops(benchmark::State& state, Eigen::Index rows, Eigen::Index in, Eigen::Index out) {
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(rows * in * out) * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void run_packed(benchmark::State& state, VectorUnit unit) {
  const Eigen::Index rows = state.range(0);
  const Eigen::Index in = state.range(1);
  const Eigen::Index out = state.range(2);
  const auto units = claimrag::kernels::available_vector_units();
  if (std::find(units.begin(), units.end(), unit) == units.end()) {
    state.SkipWithError("this CPU does not run the unit");
    return;
  }
  const PackedLinear layer(random_layer(out, in));
  const Matrix<float> x = random_matrix(rows, in, 9);
  Matrix<float> y;
  for (auto _ : state) {
    layer.apply(x, y, unit);
    benchmark::DoNotOptimize(y.data());
  }
  set_flops(state, rows, in, out);
}

void BM_PackedAvx512(benchmark::State& state) { run_packed(state, VectorUnit::avx512); }
void BM_PackedAvx2(benchmark::State& state) { run_packed(state, VectorUnit::avx2); }

void BM_OpenBlas(benchmark::State& state) {
  const Eigen::Index rows = state.range(0);
  const Eigen::Index in = state.range(1);
  const Eigen::Index out = state.range(2);
  const LinearWeights layer = random_layer(out, in);
  const Matrix<float> x = random_matrix(rows, in, 9);
  Matrix<float> y;
  for (auto _ : state) {
    claimrag::pretrained::linear_forward(x, layer, y);
    benchmark::DoNotOptimize(y.data());
  }
  set_flops(state, rows, in, out);
}

void shapes(benchmark::internal::Benchmark* b) {
  for (const int rows : {32, 128, 512, 1024}) {
    b->Args({rows, 768, 2304});
    b->Args({rows, 768, 3072});
    b->Args({rows, 3072, 768});
  }
  b->ArgNames({"rows", "in", "out"})->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_PackedAvx512)->Apply(shapes);
BENCHMARK(BM_PackedAvx2)->Apply(shapes);
BENCHMARK(BM_OpenBlas)->Apply(shapes);
BENCHMARK_MAIN();
