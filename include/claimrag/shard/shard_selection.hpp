#pragma once
// The one step a command takes to run as a shard: once it has read and checked all its records, it
// keeps its shard's block (shard_spec.hpp) and processes only those. Every shard reads the whole
// input, so a malformed line anywhere fails every shard alike, with its own file and line.

#include <cstddef>
#include <iterator>
#include <vector>

#include "claimrag/shard/shard_spec.hpp"

namespace claimrag::shard {

/// A shard's choice, filled in by keep_shard: the records there were and the block kept. The
/// command line reads it back to write the shard's manifest.
struct ShardSelection {
  ShardSpec spec;
  std::size_t total = 0;  ///< records in the whole input
  Block block;            ///< the records kept
  bool applied = false;   ///< keep_shard ran (a command that never did has not honoured --shard)
};

/// `records` itself when `selection` is nullptr (not sharded), else its shard's block, recorded in
/// `*selection`.
template <class Record>
std::vector<Record> keep_shard(std::vector<Record> records, ShardSelection* selection) {
  if (selection == nullptr) return records;
  selection->total = records.size();
  selection->block = shard_block(records.size(), selection->spec);
  selection->applied = true;
  const auto first = records.begin() + static_cast<std::ptrdiff_t>(selection->block.begin);
  return std::vector<Record>(std::make_move_iterator(first),
                             std::make_move_iterator(first + static_cast<std::ptrdiff_t>(selection->block.size())));
}

}  // namespace claimrag::shard
