#include "claimrag/io/finite_values.hpp"

#include "claimrag/error.hpp"

namespace claimrag::io {
namespace {

template <typename T>
void require_finite(const T* values, std::size_t count, const std::string& file, const std::string& name) {
  const std::size_t bad = first_non_finite(values, count);
  if (bad == count) return;
  throw DataError(file, "tensor '" + name + "' holds " + std::to_string(values[bad]) + " at index " + std::to_string(bad) +
                            ": NaN and infinite weights are refused");
}

}  // namespace

void require_finite_weights(const float* values, std::size_t count, const std::string& file, const std::string& name) {
  require_finite(values, count, file, name);
}

void require_finite_weights(const double* values, std::size_t count, const std::string& file, const std::string& name) {
  require_finite(values, count, file, name);
}

void require_finite_output(double value, const std::string& what) {
  if (!std::isfinite(value)) throw InternalError(what + " is " + std::to_string(value) + ": a NaN or infinite score is never written");
}

}  // namespace claimrag::io
