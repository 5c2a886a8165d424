#include "claimrag/pretrained/relative_position.hpp"

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

std::vector<std::int64_t> relative_positions(std::int64_t length, std::int64_t bucket_size, std::int64_t max_position) {
  std::vector<std::int64_t> positions;
  positions.reserve(static_cast<std::size_t>(2 * length - 1));
  const bool bucketed = bucket_size > 0 && max_position > 0;
  for (std::int64_t distance = -(length - 1); distance <= length - 1; ++distance) {
    positions.push_back(bucketed ? log_bucket_position(distance, bucket_size, max_position) : distance);
  }
  return positions;
}

}  // namespace claimrag::pretrained
