#include "claimrag/io/finite_values.hpp"

#include <charconv>
#include <cmath>

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

std::string number_problem(std::string_view text, double& value) {
  const char* const last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (error == std::errc::result_out_of_range && end == last) return "is out of range";
  if (text.empty() || error != std::errc() || end != last || !std::isfinite(value)) return "is not a finite number";
  return "";
}

}  // namespace claimrag::io
