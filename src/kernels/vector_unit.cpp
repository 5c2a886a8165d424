#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::kernels {
namespace {

VectorUnit detect_best_unit() {
  if (cpu_runs_avx512()) return VectorUnit::avx512;
  if (cpu_runs_avx2()) return VectorUnit::avx2;
  return VectorUnit::scalar;
}

}  // namespace

std::string vector_unit_name(VectorUnit unit) {
  switch (unit) {
    case VectorUnit::scalar: return "scalar";
    case VectorUnit::avx2: return "avx2";
    case VectorUnit::avx512: return "avx512";
  }
  return "unknown";
}

bool cpu_runs_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

bool cpu_runs_avx512() { return __builtin_cpu_supports("avx512f"); }

std::vector<VectorUnit> available_vector_units() {
  std::vector<VectorUnit> units{VectorUnit::scalar};
  if (cpu_runs_avx2()) units.push_back(VectorUnit::avx2);
  if (cpu_runs_avx512()) units.push_back(VectorUnit::avx512);
  return units;
}

VectorUnit best_vector_unit() {
  static const VectorUnit best = detect_best_unit();
  return best;
}

}  // namespace claimrag::kernels
