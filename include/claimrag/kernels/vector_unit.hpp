#pragma once
// The instruction sets claimrag's own products run on, detected at run time. The program itself
// targets baseline x86-64; the vector kernels are compiled for their instruction sets function by
// function and called only when the CPU reports them. Every kernel computes each output as the
// same chain of fused multiply-adds, so all units give the same bytes.

#include <string>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::kernels {

/// The instruction sets the products run on. All give the same bytes.
enum class VectorUnit {
  scalar,  ///< portable code, one std::fma per multiply-add
  avx2,    ///< AVX2 with FMA3
  avx512,  ///< AVX-512F
};

/// "scalar", "avx2" or "avx512".
std::string vector_unit_name(VectorUnit unit);

/// Whether this CPU (and its operating system) runs the AVX2 + FMA3, or the AVX-512F, kernels.
bool cpu_runs_avx2();
bool cpu_runs_avx512();

/// Whether this CPU runs `unit` (scalar always).
bool cpu_runs(VectorUnit unit);

/// The units this CPU runs, scalar first.
std::vector<VectorUnit> available_vector_units();

/// The unit named by `name` ("scalar", "avx2" or "avx512"); a UsageError naming `source` (where
/// the name came from) for any other name.
VectorUnit parse_vector_unit(const std::string& name, const std::string& source);

/// The environment variable that forces the unit of every product that takes the default unit.
inline constexpr const char* kVectorUnitVariable = "CLAIMRAG_VECTOR_UNIT";

/// The unit the products run on unless told otherwise, chosen once at the first call: the one
/// CLAIMRAG_VECTOR_UNIT names when it is set and not empty (a UsageError when the name is unknown or
/// this CPU does not run that unit), else the fastest this CPU runs. Forcing a slower unit changes
/// no byte of any result, only the speed: benchmarks and tests use it to time and check each unit
/// on one machine.
VectorUnit best_vector_unit();

/// The version of a kernel for `unit`, one of the three given; an InternalError naming `kernel`
/// when this CPU does not run the unit.
template <typename Function>
Function for_unit(VectorUnit unit, Function scalar, Function avx2, Function avx512, const char* kernel) {
  if (!cpu_runs(unit)) throw InternalError(std::string("this CPU does not run the ") + vector_unit_name(unit) + " " + kernel);
  switch (unit) {
    case VectorUnit::scalar: return scalar;
    case VectorUnit::avx2: return avx2;
    case VectorUnit::avx512: return avx512;
  }
  return scalar;
}

}  // namespace claimrag::kernels
