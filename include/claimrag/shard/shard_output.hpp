#pragma once
// Writing a shard's manifest (shard_manifest.hpp) into the output set of the command that ran as
// the shard, from the files the set holds before they are committed: the manifest and the
// outputs it describes are replaced together, so a killed or requeued shard leaves the old set or
// the new one, never an output without its manifest or a manifest of other bytes.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/io/output_plan.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::shard {

/// A file a command writes beside its output, named after it.
struct Sidecar {
  std::filesystem::path path;  ///< empty: none
  std::string role;            ///< what it is, as the manifest names it ("verifier record")
  /// Empty: every shard writes it alike (merged as kIdentical). Else a JSON record whose fields of
  /// these names are counts over the shard's records, summed by merge (kSumCounts).
  std::vector<std::string> summed = {};
};

/// What a shard's manifest records beyond the records it kept.
struct ShardRun {
  std::string command;                       ///< the command and its mode ("verify --pairs")
  std::vector<std::filesystem::path> inputs;  ///< every file or folder it read
  nlohmann::ordered_json configuration;       ///< configuration_identity()
  nlohmann::ordered_json verifier;            ///< the verifier's identity record; null for none
  std::filesystem::path out;                  ///< the output: concatenated by merge
  std::vector<Sidecar> sidecars;              ///< written alike by every shard (but for their summed counts)
};

/// Writes manifest_path(run.out) through `plan` (which must declare it), describing the files the
/// plan holds for run.out and the sidecars (a sidecar not written is not listed).
/// InternalError when `selection` was never applied or the output was not written.
void write_shard_manifest(const io::OutputPlan& plan, const ShardRun& run, const ShardSelection& selection);

}  // namespace claimrag::shard
