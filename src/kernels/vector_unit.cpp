#include "claimrag/kernels/vector_unit.hpp"

#include <cstdlib>

namespace claimrag::kernels {
namespace {

constexpr VectorUnit kEveryUnit[] = {VectorUnit::scalar, VectorUnit::avx2, VectorUnit::avx512};

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
  std::vector<VectorUnit> units;
  for (const VectorUnit unit : kEveryUnit) {
    if (cpu_runs(unit)) units.push_back(unit);
  }
  return units;
}

VectorUnit parse_vector_unit(const std::string& name, const std::string& source) {
  for (const VectorUnit unit : kEveryUnit) {
    if (name == vector_unit_name(unit)) return unit;
  }
  throw UsageError(source + ": unknown vector unit '" + abbreviated(name, 40) + "' (expected scalar, avx2 or avx512)");
}

namespace {

// The rule best_vector_unit() applies once: the unit CLAIMRAG_VECTOR_UNIT names, else the fastest.
VectorUnit chosen_vector_unit() {
  const VectorUnit fastest = available_vector_units().back();
  const char* forced = std::getenv(kVectorUnitVariable);
  if (forced == nullptr || *forced == '\0') return fastest;
  const std::string source = std::string(kVectorUnitVariable) + "=" + abbreviated(forced, 40);
  const VectorUnit unit = parse_vector_unit(forced, source);
  if (!cpu_runs(unit)) {
    throw UsageError(source + ": this CPU does not run " + vector_unit_name(unit) + " (it runs up to " +
                     vector_unit_name(fastest) + ")");
  }
  return unit;
}

}  // namespace

VectorUnit best_vector_unit() {
  static const VectorUnit best = chosen_vector_unit();
  return best;
}

}  // namespace claimrag::kernels
