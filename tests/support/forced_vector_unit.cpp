// Linked into every test program. The test command runs the tests whose results depend on the
// vector unit once more with each slower unit forced (CLAIMRAG_VECTOR_UNIT, tests/CMakeLists.txt):
// on a CPU that does not run the forced unit, those runs are skipped whole rather than failing in
// their first product; a name that is no unit fails the run.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/kernels/vector_unit.hpp"

namespace {

using claimrag::kernels::kVectorUnitVariable;

class ForcedVectorUnitEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* forced = std::getenv(kVectorUnitVariable);
    if (forced == nullptr || *forced == '\0') return;
    try {
      const auto unit = claimrag::kernels::parse_vector_unit(forced, kVectorUnitVariable);
      if (!claimrag::kernels::cpu_runs(unit)) GTEST_SKIP() << "this CPU does not run " << forced;
    } catch (const claimrag::Error& error) {
      FAIL() << error.what();
    }
  }
};

[[maybe_unused]] ::testing::Environment* const kForcedVectorUnitEnvironment =
    ::testing::AddGlobalTestEnvironment(new ForcedVectorUnitEnvironment);

}  // namespace
