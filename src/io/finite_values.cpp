#include "claimrag/io/finite_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "claimrag/error.hpp"

namespace claimrag::io {
namespace {

// A value is NaN or infinite when its exponent's bits are all set. Each block is tested without a
// branch per value, which the compiler vectorises: every weight of a checkpoint (hundreds of
// millions) passes here at load, and a test per value cost a tenth of loading DeBERTa-v3-base.
// Only a block that holds a bad value is searched for its first one.
template <typename T, typename Bits>
std::size_t first_non_finite_in_blocks(const T* values, std::size_t count, Bits exponent) {
  static_assert(sizeof(T) == sizeof(Bits));
  constexpr std::size_t kBlock = 1024;
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t end = std::min(count, start + kBlock);
    Bits found = 0;
    for (std::size_t i = start; i < end; ++i) {
      Bits bits = 0;
      std::memcpy(&bits, values + i, sizeof bits);
      found |= static_cast<Bits>((bits & exponent) == exponent);
    }
    if (found == 0) continue;
    for (std::size_t i = start; i < end; ++i) {
      if (!std::isfinite(values[i])) return i;
    }
  }
  return count;
}

template <typename T>
void require_finite(const T* values, std::size_t count, const std::string& file, const std::string& name) {
  const std::size_t bad = first_non_finite(values, count);
  if (bad == count) return;
  throw DataError(file, "tensor '" + name + "' holds " + std::to_string(values[bad]) + " at index " + std::to_string(bad) +
                            ": NaN and infinite weights are refused");
}

}  // namespace

std::size_t first_non_finite(const float* values, std::size_t count) {
  return first_non_finite_in_blocks(values, count, std::uint32_t{0x7f800000U});
}

std::size_t first_non_finite(const double* values, std::size_t count) {
  return first_non_finite_in_blocks(values, count, std::uint64_t{0x7ff0000000000000ULL});
}

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
