#include "claimrag/kernels/vector_unit.hpp"

#include <cstdlib>

namespace claimrag::kernels {
namespace {

VectorUnit fastest_unit() {
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

bool cpu_runs(VectorUnit unit) {
  switch (unit) {
    case VectorUnit::scalar: return true;
    case VectorUnit::avx2: return cpu_runs_avx2();
    case VectorUnit::avx512: return cpu_runs_avx512();
  }
  return false;
}

std::vector<VectorUnit> available_vector_units() {
  std::vector<VectorUnit> units{VectorUnit::scalar};
  if (cpu_runs_avx2()) units.push_back(VectorUnit::avx2);
  if (cpu_runs_avx512()) units.push_back(VectorUnit::avx512);
  return units;
}

VectorUnit parse_vector_unit(const std::string& name, const std::string& source) {
  for (const VectorUnit unit : {VectorUnit::scalar, VectorUnit::avx2, VectorUnit::avx512}) {
    if (name == vector_unit_name(unit)) return unit;
  }
  throw UsageError(source + ": unknown vector unit '" + abbreviated(name, 40) + "' (expected scalar, avx2 or avx512)");
}

VectorUnit chosen_vector_unit() {
  const char* forced = std::getenv(kVectorUnitVariable);
  if (forced == nullptr || *forced == '\0') return fastest_unit();
  const std::string source = std::string(kVectorUnitVariable) + "=" + abbreviated(forced, 40);
  const VectorUnit unit = parse_vector_unit(forced, source);
  if (!cpu_runs(unit)) {
    throw UsageError(source + ": this CPU does not run " + vector_unit_name(unit) + " (it runs up to " +
                     vector_unit_name(fastest_unit()) + ")");
  }
  return unit;
}

VectorUnit best_vector_unit() {
  static const VectorUnit best = chosen_vector_unit();
  return best;
}

}  // namespace claimrag::kernels
