#pragma once
// A run's share of a sharded command (shard/shard_selection.hpp): its queries are the records, in
// the order of the run file.

#include <utility>

#include "claimrag/run/run.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::run {

/// `input` itself when `selection` is nullptr, else with only the shard's block of its rankings.
inline Run keep_shard(Run input, shard::ShardSelection* selection) {
  if (selection == nullptr) return input;
  input.rankings = shard::keep_shard(std::move(input.rankings), selection);
  input.reindex();
  return input;
}

}  // namespace claimrag::run
