#include "claimrag/kernels/row_sums.hpp"

// Plain loops, compiled once for each unit: additions and a division only, which the compiler
// vectorises without reordering any element's sum (and never contracts: -ffp-contract=off).

namespace claimrag::kernels {
namespace {

// Rows are scattered over a table larger than the caches; asking for the row a few ids ahead
// overlaps its fetch with the current row's additions.
constexpr std::size_t kPrefetchDistance = 4;

[[gnu::always_inline]] inline void prefetch_row(const float* table, std::ptrdiff_t stride, std::int32_t id,
                                                std::ptrdiff_t width) {
  const char* begin = reinterpret_cast<const char*>(table + static_cast<std::ptrdiff_t>(id) * stride);
  const auto bytes = static_cast<std::size_t>(width) * sizeof(float);
  for (std::size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(begin + offset);
}

[[gnu::always_inline]] inline void mean_portable(const float* table, std::ptrdiff_t stride,
                                                 std::span<const std::int32_t> ids, std::ptrdiff_t width,
                                                 float* __restrict out) {
  for (std::ptrdiff_t c = 0; c < width; ++c) out[c] = 0.0F;
  for (std::size_t t = 0; t < ids.size(); ++t) {
    if (t + kPrefetchDistance < ids.size()) prefetch_row(table, stride, ids[t + kPrefetchDistance], width);
    const float* __restrict row = table + static_cast<std::ptrdiff_t>(ids[t]) * stride;
    for (std::ptrdiff_t c = 0; c < width; ++c) out[c] += row[c];
  }
  const auto count = static_cast<float>(ids.size());
  for (std::ptrdiff_t c = 0; c < width; ++c) out[c] /= count;
}

[[gnu::always_inline]] inline void add_portable(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids,
                                                std::ptrdiff_t width, const float* __restrict share) {
  for (const std::int32_t id : ids) {
    float* __restrict row = table + static_cast<std::ptrdiff_t>(id) * stride;
    for (std::ptrdiff_t c = 0; c < width; ++c) row[c] += share[c];
  }
}

void mean_scalar(const float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                 float* out) {
  mean_portable(table, stride, ids, width, out);
}
__attribute__((target("avx2"))) void mean_avx2(const float* table, std::ptrdiff_t stride,
                                                std::span<const std::int32_t> ids, std::ptrdiff_t width, float* out) {
  mean_portable(table, stride, ids, width, out);
}
__attribute__((target("avx512f"))) void mean_avx512(const float* table, std::ptrdiff_t stride,
                                                     std::span<const std::int32_t> ids, std::ptrdiff_t width,
                                                     float* out) {
  mean_portable(table, stride, ids, width, out);
}

void add_scalar(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                const float* share) {
  add_portable(table, stride, ids, width, share);
}
__attribute__((target("avx2"))) void add_avx2(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids,
                                               std::ptrdiff_t width, const float* share) {
  add_portable(table, stride, ids, width, share);
}
__attribute__((target("avx512f"))) void add_avx512(float* table, std::ptrdiff_t stride,
                                                    std::span<const std::int32_t> ids, std::ptrdiff_t width,
                                                    const float* share) {
  add_portable(table, stride, ids, width, share);
}

}  // namespace

void mean_of_rows(const float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                  float* out, VectorUnit unit) {
  for_unit(unit, &mean_scalar, &mean_avx2, &mean_avx512, "row sums")(table, stride, ids, width, out);
}

void mean_of_rows(const float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                  float* out) {
  mean_of_rows(table, stride, ids, width, out, best_vector_unit());
}

void add_to_rows(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                 const float* share, VectorUnit unit) {
  for_unit(unit, &add_scalar, &add_avx2, &add_avx512, "row sums")(table, stride, ids, width, share);
}

void add_to_rows(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                 const float* share) {
  add_to_rows(table, stride, ids, width, share, best_vector_unit());
}

}  // namespace claimrag::kernels
