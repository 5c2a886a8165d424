#pragma once
// Which part of a command's records one shard of a sharded run processes.
//
// `--shard K/N` (0 <= K < N) splits the records a command reads, in input order, into N contiguous
// blocks whose sizes differ by at most one: with T records, the first T mod N blocks hold
// floor(T/N) + 1 records, the others floor(T/N). Shard K processes block K, so the blocks of
// shards 0..N-1 laid end to end are the input in order, and `claimrag merge` rebuilds the
// unsharded output by concatenating the shards' outputs. More shards than records leaves the last
// blocks empty; an empty shard is a valid shard.
//
// `--shard slurm` reads K and N from a Slurm job array's environment: K is
// SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, N is SLURM_ARRAY_TASK_COUNT (else
// SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1).

#include <cstddef>
#include <functional>
#include <string>

namespace claimrag::shard {

/// The name of the rule above, recorded in every shard's manifest and compared by merge.
inline constexpr const char* kBlockRule = "contiguous-blocks";

/// Shard `index` of `count` (index < count).
struct ShardSpec {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// The records [begin, end) of one shard, indices into the input order.
struct Block {
  std::size_t begin = 0;
  std::size_t end = 0;
  [[nodiscard]] std::size_t size() const { return end - begin; }
};

/// Reads an environment variable: nullptr when unset. std::getenv by default; tests pass their own.
using Environment = std::function<const char*(const char*)>;

/// Why `text` is no shard (an empty string when it reads as K/N or slurm): the check of --shard
/// when it is parsed, before any work.
std::string shard_text_problem(const std::string& text);

/// The shard `text` names: "K/N", or "slurm" read from `environment`. UsageError (exit 2) for
/// anything else, K >= N, N = 0, and for slurm outside a job array (SLURM_ARRAY_TASK_ID unset) or
/// with a task id outside its array's range.
ShardSpec parse_shard(const std::string& text, const Environment& environment = nullptr);

/// The block of shard `spec` among `total` records (the rule above).
Block shard_block(std::size_t total, ShardSpec spec);

}  // namespace claimrag::shard
