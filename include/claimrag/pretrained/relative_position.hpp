#pragma once
// DeBERTa's relative positions: the distance i - j from query token i to key token j, mapped to
// log-spaced buckets beyond half the bucket count, and the index into the relative embeddings
// that the content-to-position and position-to-content terms read. T5's buckets, the rows of its
// relative_attention_bias table.

#include <cstdint>
#include <vector>

namespace claimrag::pretrained {

/// make_log_bucket_position of the reference: distances below bucket_size / 2 in magnitude stay
/// as they are; larger ones become sign × (ceil(log(|d| / mid) / log((max_position - 1) / mid) ×
/// (mid - 1)) + mid), computed in float32 as the reference computes it.
std::int64_t log_bucket_position(std::int64_t distance, std::int64_t bucket_size, std::int64_t max_position);

/// The rows of a [2 × span] table of projected relative embeddings that one sequence reads.
struct RelativeRows {
  std::int64_t first = 0;            ///< the first row read
  std::int64_t count = 0;            ///< how many consecutive rows from `first` are read
  std::vector<std::int64_t> offset;  ///< at d + length - 1 for distance d = i - j: the row of (i, j) minus `first`
};

/// The rows a sequence of `length` tokens reads, given `positions` from relative_positions() for
/// `centre` + 1 tokens (centre >= length - 1): for the pair of row token a and column token b,
/// row clamp(p + span, 0, 2 span - 1) with p the position of distance a - b, negated when
/// `negated`. Content to position reads it for query a and key b; position to content, negated,
/// for key a and query b. A position grows with its distance, so the rows read are consecutive,
/// and for buckets, which grow no faster than distances, at most 2 × length - 1 of the 2 × span.
RelativeRows relative_rows(const std::vector<std::int64_t>& positions, std::int64_t centre, std::int64_t length,
                           std::int64_t span, bool negated);

/// The relative position of every distance d in [-(length - 1), length - 1], at index
/// d + length - 1: d itself, or its log bucket when bucket_size > 0 and max_position > 0.
std::vector<std::int64_t> relative_positions(std::int64_t length, std::int64_t bucket_size, std::int64_t max_position);

/// T5Attention._relative_position_bucket of the reference for `relative_position` = key position −
/// query position: bidirectional (the encoder), half the buckets for positive distances and the
/// magnitude in the rest; unidirectional (the decoder), only keys before the query count (a later
/// key is distance 0). Within each half, distances below a quarter of num_buckets (half, in the
/// decoder) are their own bucket; larger ones are max_exact + trunc(log(d / max_exact) /
/// log(max_distance / max_exact) × (buckets − max_exact)), capped at the last bucket, in float32
/// as the reference computes them. num_buckets >= 4 and max_distance > num_buckets / 2 (read_model_config checks).
std::int64_t t5_relative_bucket(std::int64_t relative_position, bool bidirectional, std::int64_t num_buckets,
                                std::int64_t max_distance);

}  // namespace claimrag::pretrained
