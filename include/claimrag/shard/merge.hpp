#pragma once
// `claimrag merge`: the outputs of the N shards of one sharded run (`--shard K/N`, given in any
// order) made into exactly the bytes the unsharded command writes, sidecars included.
//
// Every check runs before anything is written, and each refusal is a DataError (exit 3) naming
// the shard output at fault: a shard output or its manifest missing or unreadable; shards of
// another command, program version, rule, shard count, input, configuration or verifier than the
// first one given; a repeated K or a missing one (named by its number); a block of records other
// than the rule gives; a file whose size or XXH64 is not its manifest's (damaged or partial); a
// sidecar that every shard should have written alike and one wrote otherwise (for a record of
// summed counts: in a field other than those counts, or a count that is no whole number).

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace claimrag::shard {

/// One file of the merged output and the shards' files it is made of, in shard order.
struct MergedFile {
  std::filesystem::path target;
  std::vector<std::filesystem::path> sources;  ///< concatenated; one source: copied
  std::vector<std::string> summed = {};        ///< set: a JSON record whose counts are summed (kSumCounts)
};

struct MergePlan {
  std::string command;  ///< the shards' command, as their manifests name it
  std::size_t shards = 0;
  std::size_t records = 0;
  std::vector<MergedFile> files;  ///< the output first, then its sidecars
  std::vector<std::filesystem::path> inputs;  ///< every shard output and manifest read
};

/// Reads and checks the manifests and files of `shard_outputs` (see above) and says what merging
/// them into `out` writes. Nothing is written.
MergePlan plan_merge(const std::filesystem::path& out, std::span<const std::filesystem::path> shard_outputs);

/// Writes the plan's files atomically (each through io::AtomicFile).
void write_merge(const MergePlan& plan);

}  // namespace claimrag::shard
