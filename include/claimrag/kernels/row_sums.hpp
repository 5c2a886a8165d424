#pragma once
// Sums of table rows picked by id, the embedding bag's forward and backward, on the widest vector
// unit. Each element is summed in the order of the ids, with the same additions and the same
// division as the portable code, so every unit gives the same bytes.

#include <cstddef>
#include <cstdint>
#include <span>

#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::kernels {

/// out[c] = (0 + table[ids[0]][c] + table[ids[1]][c] + ...) / ids.size() for c < width; the table's
/// rows are `stride` floats apart. ids must be non-empty and inside the table.
void mean_of_rows(const float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                  float* out);
/// The same on a chosen unit (one of available_vector_units()).
void mean_of_rows(const float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                  float* out, VectorUnit unit);

/// table[ids[t]][c] += share[c] for each t in order and c < width (a row may repeat).
void add_to_rows(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                 const float* share);
/// The same on a chosen unit (one of available_vector_units()).
void add_to_rows(float* table, std::ptrdiff_t stride, std::span<const std::int32_t> ids, std::ptrdiff_t width,
                 const float* share, VectorUnit unit);

}  // namespace claimrag::kernels
