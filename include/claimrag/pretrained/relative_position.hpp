#pragma once
// DeBERTa's relative positions: the distance i - j from query token i to key token j, mapped to
// log-spaced buckets beyond half the bucket count, and the index into the relative embeddings
// that the content-to-position and position-to-content terms read.

#include <cstdint>
#include <vector>

namespace claimrag::pretrained {

/// make_log_bucket_position of the reference: distances below bucket_size / 2 in magnitude stay
/// as they are; larger ones become sign × (ceil(log(|d| / mid) / log((max_position - 1) / mid) ×
/// (mid - 1)) + mid), computed in float32 as the reference computes it.
std::int64_t log_bucket_position(std::int64_t distance, std::int64_t bucket_size, std::int64_t max_position);

/// The relative position of every distance d in [-(length - 1), length - 1], at index
/// d + length - 1: d itself, or its log bucket when bucket_size > 0 and max_position > 0.
std::vector<std::int64_t> relative_positions(std::int64_t length, std::int64_t bucket_size, std::int64_t max_position);

}  // namespace claimrag::pretrained
