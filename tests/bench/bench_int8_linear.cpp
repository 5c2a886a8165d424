// The int8 linear product (`--precision int8`) on the encoders' shapes (BERT/DeBERTa-base:
// 768 → 2304, 768 → 768, 768 → 3072, 3072 → 768; the large ones: 1024 → 3072, 1024 → 4096,
// 4096 → 1024) for 32, 128 and 512 stacked rows, on each int8 kernel this CPU runs, beside the
// float32 packed product on the same unit. Counters: GOP/s (2 × multiply-adds, as GFLOP/s counts
// them), so the int8 and float32 rows compare directly; BM_QuantizeRows times the rows'
// quantization alone, which every int8 product does first.
//
//   build-bench/tests/bench/bench_int8_linear --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include <algorithm>

#include "claimrag/pretrained/int8_linear.hpp"
#include "claimrag/pretrained/int8_rows.hpp"
#include "claimrag/pretrained/packed_linear.hpp"
#include "../unit/random_matrices.hpp"

namespace {

using claimrag::kernels::VectorUnit;
using claimrag::nn::Matrix;
using claimrag::pretrained::Int8Kernel;
using claimrag::pretrained::Int8Linear;
using claimrag::pretrained::LinearWeights;
using claimrag::pretrained::PackedLinear;
using claimrag::testing::random_matrix;

LinearWeights random_layer(Eigen::Index out, Eigen::Index in) { return LinearWeights{random_matrix(out, in, 7), random_matrix(1, out, 8)}; }

void set_rate(benchmark::State& state, Eigen::Index rows, Eigen::Index in, Eigen::Index out) {
  state.counters["GOP/s"] = benchmark::Counter(2.0 * static_cast<double>(rows * in * out) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

// Times apply(x, y) of a layer of the benchmark's shape on its rows.
template <typename Apply>
void time_product(benchmark::State& state, Apply apply) {
  const Eigen::Index rows = state.range(0);
  const Matrix<float> x = random_matrix(rows, state.range(1), 9);
  Matrix<float> y;
  for (auto _ : state) {
    apply(x, y);
    benchmark::DoNotOptimize(y.data());
  }
  set_rate(state, rows, state.range(1), state.range(2));
}

void run_int8(benchmark::State& state, Int8Kernel kernel) {
  const auto kernels = Int8Linear::available_kernels();
  if (std::find(kernels.begin(), kernels.end(), kernel) == kernels.end()) {
    state.SkipWithError("this CPU does not run the kernel");
    return;
  }
  const Int8Linear layer(random_layer(state.range(2), state.range(1)), kernel);
  time_product(state, [&](const Matrix<float>& x, Matrix<float>& y) { layer.apply(x, y); });
}

void run_f32(benchmark::State& state, VectorUnit unit) {
  if (!claimrag::kernels::cpu_runs(unit)) {
    state.SkipWithError("this CPU does not run the unit");
    return;
  }
  const PackedLinear layer(random_layer(state.range(2), state.range(1)));
  time_product(state, [&](const Matrix<float>& x, Matrix<float>& y) { layer.apply(x, y, unit); });
}

void run_quantize(benchmark::State& state, Int8Kernel kernel) {
  const Eigen::Index rows = state.range(0);
  const Eigen::Index in = state.range(1);
  const Matrix<float> x = random_matrix(rows, in, 9);
  claimrag::pretrained::int8::QuantizedRows quantized;
  for (auto _ : state) {
    claimrag::pretrained::int8::quantize_rows(x, kernel, quantized);
    benchmark::DoNotOptimize(quantized.shifted8.data());
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Int8Avx512Vnni(benchmark::State& state) { run_int8(state, Int8Kernel::avx512_vnni); }
void BM_Int8AvxVnni(benchmark::State& state) { run_int8(state, Int8Kernel::avx_vnni); }
void BM_Int8Avx2(benchmark::State& state) { run_int8(state, Int8Kernel::avx2); }
void BM_F32Avx512(benchmark::State& state) { run_f32(state, VectorUnit::avx512); }
void BM_F32Avx2(benchmark::State& state) { run_f32(state, VectorUnit::avx2); }
void BM_QuantizeRows(benchmark::State& state) { run_quantize(state, Int8Kernel::avx512_vnni); }

void shapes(benchmark::internal::Benchmark* b) {
  for (const int rows : {32, 128, 512}) {
    for (const auto& [in, out] : std::initializer_list<std::pair<int, int>>{
             {768, 2304}, {768, 768}, {768, 3072}, {3072, 768}, {1024, 3072}, {1024, 4096}, {4096, 1024}}) {
      b->Args({rows, in, out});
    }
  }
  b->ArgNames({"rows", "in", "out"})->Unit(benchmark::kMicrosecond);
}

void row_shapes(benchmark::internal::Benchmark* b) {
  for (const int rows : {32, 128, 512}) {
    for (const int in : {768, 1024, 3072, 4096}) b->Args({rows, in});
  }
  b->ArgNames({"rows", "in"})->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(BM_Int8Avx512Vnni)->Apply(shapes);
BENCHMARK(BM_Int8AvxVnni)->Apply(shapes);
BENCHMARK(BM_Int8Avx2)->Apply(shapes);
BENCHMARK(BM_F32Avx512)->Apply(shapes);
BENCHMARK(BM_F32Avx2)->Apply(shapes);
BENCHMARK(BM_QuantizeRows)->Apply(row_shapes);
BENCHMARK_MAIN();
