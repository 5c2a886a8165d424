#pragma once
// The manifest a shard writes beside its output, OUT.shard.json, in the same file set: what the
// shard is (K, N, the rule, its block of records), what it was computed from (every input file's
// XXH64, the effective configuration, the verifier's identity record, the program version) and
// what it wrote (each file's size and XXH64), so that `claimrag merge` can refuse shards of
// different runs and damaged or partial ones before it writes anything.
//
//   {"format": "claimrag-shard", "format_version": 1, "program": "claimrag", "version": "...",
//    "command": "verify --pairs", "shard": {"index": 1, "count": 4, "rule": "contiguous-blocks"},
//    "records": {"total": 500, "first": 125, "count": 125},
//    "inputs": [{"path": "pairs.jsonl", "xxh64": "..."}, {"path": "model/", "files": 5, "xxh64": "..."}],
//    "configuration": {"xxh64": "...", "config": "...", "arguments": ["--verifier checkpoint:m"]},
//    "verifier": {"spec": "builtin"},
//    "files": [{"role": "output", "name": "v-1.jsonl", "merge": "concatenate", "bytes": 9000, "xxh64": "..."},
//              {"role": "verifier record", "name": "v-1.meta.json", "extension": ".meta.json",
//               "merge": "identical", "bytes": 400, "xxh64": "..."}]}
// A sidecar of kSumCounts lists its "summed" fields.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/shard/shard_spec.hpp"

namespace claimrag::shard {

/// How merge builds one file from the shards' copies of it.
inline constexpr const char* kConcatenate = "concatenate";  ///< the shards' bytes in shard order
inline constexpr const char* kIdentical = "identical";      ///< every shard wrote the same bytes; written once
/// A JSON record of the whole run whose `summed` counts are the sums of the shards' and whose
/// other fields every shard wrote alike: rebuilt from them and written as the command writes it
/// (two-space indentation, a final newline, the fields in the shards' order).
inline constexpr const char* kSumCounts = "sum-counts";

/// One file a shard wrote.
struct ShardFile {
  std::string role;       ///< "output" (the command's --out), else what the sidecar is ("verifier record")
  std::string name;       ///< the file's name, in the folder of the shard's output
  std::string extension;  ///< a sidecar's: its name is the output's with the extension replaced by this
  std::string merge;      ///< kConcatenate, kIdentical or kSumCounts
  std::vector<std::string> summed = {};  ///< kSumCounts: the top-level fields that are counts over the records
  std::uint64_t bytes = 0;
  std::string xxh64;
};

struct ShardManifest {
  std::string version;  ///< the program's version
  std::string command;  ///< the command and its mode: "verify --pairs", "predict", "ground"
  ShardSpec spec;
  std::string rule = kBlockRule;
  std::size_t total = 0;  ///< records in the whole input
  Block block;            ///< the records this shard processed
  nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
  nlohmann::ordered_json configuration = nlohmann::ordered_json::object();
  nlohmann::ordered_json verifier;  ///< null when the command verifies nothing
  std::vector<ShardFile> files;     ///< the output first, then its sidecars
};

/// Where the manifest of the shard output `output` is: OUT.shard.json.
std::filesystem::path manifest_path(const std::filesystem::path& output);

/// The manifest as written (two-space indentation, a final newline).
std::string manifest_text(const ShardManifest& manifest);

/// Reads a manifest. DataError naming the file when it is missing, is no shard manifest (its
/// format or version is another), or a field is missing or of the wrong type.
ShardManifest read_manifest(const std::filesystem::path& path);

/// The identity of the inputs a shard read, in the order given, empty paths skipped: a file's
/// XXH64, a folder's (the XXH64 of each regular file under it, by path, names starting with a dot
/// left out) with the count of its files. DataError for an input that cannot be read.
nlohmann::ordered_json input_identities(const std::vector<std::filesystem::path>& inputs);

/// The effective configuration: the configuration file's checksum and the command's arguments
/// (those that change the outputs), with the XXH64 of both.
nlohmann::ordered_json configuration_identity(const std::string& config_checksum, const std::vector<std::string>& arguments);

/// The description of the file `written` (its bytes) that lands at `name`.
ShardFile describe_file(const std::filesystem::path& written, const std::string& role, const std::string& name,
                        const std::string& merge, const std::string& extension = {}, std::vector<std::string> summed = {});

}  // namespace claimrag::shard
