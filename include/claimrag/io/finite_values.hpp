#pragma once
// Refusing NaN and infinite numbers at the borders: a model weight read from disk, a score
// about to be written. A NaN compares false with everything, so once inside it silently
// reorders rankings instead of failing.

#include <cstddef>
#include <string>
#include <string_view>

namespace claimrag::io {

/// The index of the first value of `values[0, count)` that is NaN or infinite, or `count`.
std::size_t first_non_finite(const float* values, std::size_t count);
std::size_t first_non_finite(const double* values, std::size_t count);

/// Throws DataError "file: tensor 'name' holds <value> at index i" for a NaN or infinity.
void require_finite_weights(const float* values, std::size_t count, const std::string& file, const std::string& name);
void require_finite_weights(const double* values, std::size_t count, const std::string& file, const std::string& name);

/// Reads `text` (all of it) as a finite double into `value`. Returns "" when it is one, else why
/// not: "is out of range" for a number too large or too small in magnitude for a double (1e400,
/// 1e-400), "is not a finite number" for anything else (text, "nan", "inf", "").
[[nodiscard]] std::string number_problem(std::string_view text, double& value);

/// Throws InternalError naming `what` when `value` is NaN or infinite: a score about to be
/// written that no computation should have produced.
void require_finite_output(double value, const std::string& what);

}  // namespace claimrag::io
