// The encoder's linear layers on the base and large shapes (768 → 768 and 1024 → 1024 for the
// attention output, 768 → 2304 for BERT-base's stacked query-key-value projection, 768 → 3072,
// 3072 → 768, 1024 → 4096 and 4096 → 1024 for the feed-forward pairs), for 32 to 512 stacked rows:
// the packed product on each vector unit this CPU runs, beside OpenBLAS's single-precision GEMM
// on one thread (which packs the weight again on every call), and each unit's peak: a loop of
// independent fused multiply-adds only, so a product's share of the peak is measured at the clock
// the core ran at. Counters: GFLOP/s.
//
//   scripts/bench/packed_products.sh (pinned, best of repeated runs, as a table)

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <utility>

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

// Each unit's peak: independent accumulators (more than the multiply-add pipes' latency times
// their count), nothing in the loop but the multiply-adds and its branch. Written in assembly so
// that no compiler can spill an accumulator to memory (GCC keeps an array of them on the stack).
#define CLAIMRAG_FMA256(n) "vfmadd231ps %%ymm12, %%ymm13, %%ymm" #n "\n\t"
#define CLAIMRAG_FMA512(n) "vfmadd231ps %%zmm30, %%zmm31, %%zmm" #n "\n\t"

constexpr long kPeakSteps = 1L << 16;

// 12 accumulators of 8 lanes a step.
__attribute__((target("avx2,fma"))) void avx2_fma_steps(long steps) {
  __asm__ volatile("vxorps %%ymm12, %%ymm12, %%ymm12\n\tvxorps %%ymm13, %%ymm13, %%ymm13\n\t"
                   "1:\n\t" CLAIMRAG_FMA256(0) CLAIMRAG_FMA256(1) CLAIMRAG_FMA256(2) CLAIMRAG_FMA256(3)
                   CLAIMRAG_FMA256(4) CLAIMRAG_FMA256(5) CLAIMRAG_FMA256(6) CLAIMRAG_FMA256(7) CLAIMRAG_FMA256(8)
                   CLAIMRAG_FMA256(9) CLAIMRAG_FMA256(10) CLAIMRAG_FMA256(11)
                   "dec %0\n\tjnz 1b\n\tvzeroupper"
                   : "+r"(steps)
                   :
                   : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                     "xmm11", "xmm12", "xmm13", "cc");
}

// 24 accumulators of 16 lanes a step.
__attribute__((target("avx512f"))) void avx512_fma_steps(long steps) {
  __asm__ volatile("vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31\n\t"
                   "1:\n\t" CLAIMRAG_FMA512(0) CLAIMRAG_FMA512(1) CLAIMRAG_FMA512(2) CLAIMRAG_FMA512(3)
                   CLAIMRAG_FMA512(4) CLAIMRAG_FMA512(5) CLAIMRAG_FMA512(6) CLAIMRAG_FMA512(7) CLAIMRAG_FMA512(8)
                   CLAIMRAG_FMA512(9) CLAIMRAG_FMA512(10) CLAIMRAG_FMA512(11) CLAIMRAG_FMA512(12) CLAIMRAG_FMA512(13)
                   CLAIMRAG_FMA512(14) CLAIMRAG_FMA512(15) CLAIMRAG_FMA512(16) CLAIMRAG_FMA512(17) CLAIMRAG_FMA512(18)
                   CLAIMRAG_FMA512(19) CLAIMRAG_FMA512(20) CLAIMRAG_FMA512(21) CLAIMRAG_FMA512(22) CLAIMRAG_FMA512(23)
                   "dec %0\n\tjnz 1b\n\tvzeroupper"
                   : "+r"(steps)
                   :
                   : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                     "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20",
                     "xmm21", "xmm22", "xmm23", "xmm30", "xmm31", "cc");
}

void run_peak(benchmark::State& state, VectorUnit unit, void (*steps)(long), double flops_per_step) {
  const auto units = claimrag::kernels::available_vector_units();
  if (std::find(units.begin(), units.end(), unit) == units.end()) {
    state.SkipWithError("this CPU does not run the unit");
    return;
  }
  for (auto _ : state) steps(kPeakSteps);
  state.counters["GFLOP/s"] = benchmark::Counter(flops_per_step * kPeakSteps * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void BM_PeakAvx2(benchmark::State& state) { run_peak(state, VectorUnit::avx2, &avx2_fma_steps, 12 * 8 * 2); }
void BM_PeakAvx512(benchmark::State& state) { run_peak(state, VectorUnit::avx512, &avx512_fma_steps, 24 * 16 * 2); }

void shapes(benchmark::internal::Benchmark* b) {
  for (const int rows : {32, 128, 512}) {
    for (const auto& [in, out] : {std::pair{768, 768}, {768, 2304}, {768, 3072}, {3072, 768}, {1024, 1024}, {1024, 4096}, {4096, 1024}}) {
      b->Args({rows, in, out});
    }
  }
  b->ArgNames({"rows", "in", "out"})->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_PeakAvx2);
BENCHMARK(BM_PeakAvx512);
BENCHMARK(BM_PackedAvx512)->Apply(shapes);
BENCHMARK(BM_PackedAvx2)->Apply(shapes);
BENCHMARK(BM_OpenBlas)->Apply(shapes);
BENCHMARK_MAIN();
