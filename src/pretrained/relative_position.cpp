#include "claimrag/pretrained/relative_position.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace claimrag::pretrained {

std::int64_t log_bucket_position(std::int64_t distance, std::int64_t bucket_size, std::int64_t max_position) {
  const std::int64_t mid = bucket_size / 2;
  const std::int64_t magnitude = (distance < mid && distance > -mid) ? mid - 1 : std::llabs(distance);
  if (magnitude <= mid) return distance;
  const float ratio = static_cast<float>(magnitude) / static_cast<float>(mid);
  const auto span = static_cast<float>(static_cast<double>(max_position - 1) / static_cast<double>(mid));
  const float scaled = std::log(ratio) / std::log(span) * static_cast<float>(mid - 1);
  const auto bucket = static_cast<std::int64_t>(std::ceil(scaled)) + mid;
  return distance < 0 ? -bucket : bucket;
}

std::int64_t t5_relative_bucket(std::int64_t relative_position, bool bidirectional, std::int64_t num_buckets,
                                std::int64_t max_distance) {
  std::int64_t bucket = 0;
  std::int64_t buckets = num_buckets;
  std::int64_t distance = 0;
  if (bidirectional) {
    buckets /= 2;
    if (relative_position > 0) bucket += buckets;
    distance = std::llabs(relative_position);
  } else {
    distance = relative_position < 0 ? -relative_position : 0;
  }
  const std::int64_t max_exact = buckets / 2;
  if (distance < max_exact) return bucket + distance;
  // The reference's order of float32 operations: the ratio, its log, divided by the log of the
  // span (a double rounded to float), times the log-spaced buckets, truncated.
  const float ratio = static_cast<float>(distance) / static_cast<float>(max_exact);
  const auto span = static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact)));
  const float scaled = std::log(ratio) / span * static_cast<float>(buckets - max_exact);
  const std::int64_t large = max_exact + static_cast<std::int64_t>(scaled);
  return bucket + std::min(large, buckets - 1);
}

std::vector<std::int64_t> relative_positions(std::int64_t length, std::int64_t bucket_size, std::int64_t max_position) {
  std::vector<std::int64_t> positions;
  positions.reserve(static_cast<std::size_t>(2 * length - 1));
  const bool bucketed = bucket_size > 0 && max_position > 0;
  for (std::int64_t distance = -(length - 1); distance <= length - 1; ++distance) {
    positions.push_back(bucketed ? log_bucket_position(distance, bucket_size, max_position) : distance);
  }
  return positions;
}

RelativeRows relative_rows(const std::vector<std::int64_t>& positions, std::int64_t centre, std::int64_t length,
                           std::int64_t span, bool negated) {
  RelativeRows rows;
  rows.offset.resize(static_cast<std::size_t>(2 * length - 1));
  for (std::int64_t d = -(length - 1); d <= length - 1; ++d) {
    const std::int64_t position = positions[static_cast<std::size_t>(centre + d)];
    rows.offset[static_cast<std::size_t>(d + length - 1)] = std::clamp<std::int64_t>((negated ? -position : position) + span, 0, 2 * span - 1);
  }
  const auto [lowest, highest] = std::minmax_element(rows.offset.begin(), rows.offset.end());
  rows.first = *lowest;
  rows.count = *highest - *lowest + 1;
  for (auto& row : rows.offset) row -= rows.first;
  return rows;
}

}  // namespace claimrag::pretrained
