#include "claimrag/shard/merge.hpp"

#include <algorithm>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/shard/shard_manifest.hpp"

namespace claimrag::shard {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct LoadedShard {
  fs::path output;
  ShardManifest manifest;
  [[nodiscard]] fs::path file(const ShardFile& described) const { return output.parent_path() / described.name; }
  [[nodiscard]] std::string shown() const {
    return output.string() + " (shard " + std::to_string(manifest.spec.index) + " of " + std::to_string(manifest.spec.count) + ")";
  }
};

/// A file of a shard as its manifest describes it: present, of its size and checksum.
void check_file(const LoadedShard& shard, const ShardFile& described) {
  const fs::path file = shard.file(described);
  if (!fs::is_regular_file(file)) {
    throw DataError(file.string(), "is missing: the " + described.role + " of shard output " + shard.shown() + " (a partial shard)");
  }
  const auto bytes = static_cast<std::uint64_t>(fs::file_size(file));
  const std::string checksum = io::file_checksum(file);
  if (bytes != described.bytes || checksum != described.xxh64) {
    throw DataError(file.string(), "is damaged or partial: " + std::to_string(bytes) + " bytes with XXH64 " + checksum +
                                       ", its shard manifest records " + std::to_string(described.bytes) + " bytes with XXH64 " +
                                       described.xxh64);
  }
}

LoadedShard load_shard(const fs::path& output) {
  if (!fs::exists(output)) throw DataError(output.string(), "is missing: no such shard output");
  LoadedShard shard{output, read_manifest(manifest_path(output))};
  if (shard.manifest.files.front().name != output.filename().string()) {
    throw DataError(output.string(), "is not the output its manifest " + manifest_path(output).string() + " describes (" +
                                         shard.manifest.files.front().name + "): a renamed shard output");
  }
  for (const auto& described : shard.manifest.files) check_file(shard, described);
  return shard;
}

/// A field of a manifest's JSON shown in a refusal: its text when it is a string, else its JSON
/// ("?" when absent), so that a manifest another program wrote is refused, never a type error.
std::string shown_field(const Json& object, const char* key) {
  if (!object.is_object()) return "?";
  const auto found = object.find(key);
  if (found == object.end()) return "?";
  return found->is_string() ? found->get<std::string>() : found->dump();
}

std::string input_difference(const Json& first, const Json& other) {
  for (std::size_t i = 0; i < std::max(first.size(), other.size()); ++i) {
    const Json a = i < first.size() ? first[i] : Json();
    const Json b = i < other.size() ? other[i] : Json();
    if (a == b) continue;
    const auto shown = [](const Json& input) {
      return input.is_null() ? std::string("none") : shown_field(input, "path") + " XXH64 " + shown_field(input, "xxh64");
    };
    return shown(b) + " where the first has " + shown(a);
  }
  return "";
}

std::string arguments_text(const Json& configuration) {
  std::string text;
  const auto arguments = configuration.find("arguments");
  if (arguments != configuration.end() && arguments->is_array()) {
    for (const auto& argument : *arguments) text += (text.empty() ? "" : " ") + (argument.is_string() ? argument.get<std::string>() : argument.dump());
  }
  return "'" + text + "', configuration XXH64 " + shown_field(configuration, "config");
}

/// The sidecars a shard lists (every file after the output), by role and merge rule.
std::string files_shape(const ShardManifest& manifest) {
  std::string shape;
  for (const auto& file : manifest.files) {
    shape += file.role + "|" + file.extension + "|" + file.merge;
    for (const auto& key : file.summed) shape += "|" + key;
    shape += ";";
  }
  return shape;
}

/// Refuses `other` unless it is a shard of the same run as `first`.
void check_same_run(const LoadedShard& first, const LoadedShard& other) {
  const auto& a = first.manifest;
  const auto& b = other.manifest;
  const auto refuse = [&](const std::string& what) {
    throw DataError(other.output.string(), "is a shard of another run than " + first.output.string() + ": " + what);
  };
  if (a.command != b.command) refuse("its command is '" + b.command + "', not '" + a.command + "'");
  if (a.version != b.version) refuse("it was written by claimrag " + b.version + ", not " + a.version);
  if (a.rule != b.rule) refuse("its shard rule is " + b.rule + ", not " + a.rule);
  if (a.spec.count != b.spec.count) refuse("it is one of " + std::to_string(b.spec.count) + " shards, not " + std::to_string(a.spec.count));
  if (a.inputs != b.inputs) refuse("its inputs differ: " + input_difference(a.inputs, b.inputs));
  if (a.total != b.total) refuse("its input holds " + std::to_string(b.total) + " records, not " + std::to_string(a.total));
  if (a.configuration != b.configuration) {
    refuse("its configuration differs: " + arguments_text(b.configuration) + " where the first has " + arguments_text(a.configuration));
  }
  if (a.verifier != b.verifier) refuse("its verifier differs: " + b.verifier.dump() + " where the first has " + a.verifier.dump());
  if (files_shape(a) != files_shape(b)) refuse("it wrote other sidecars");
}

/// The shards by K, each once, every K of 0..N-1 present.
std::vector<const LoadedShard*> in_shard_order(const std::vector<LoadedShard>& shards) {
  const std::size_t count = shards.front().manifest.spec.count;
  std::vector<const LoadedShard*> ordered(count, nullptr);
  for (const auto& shard : shards) {
    const std::size_t k = shard.manifest.spec.index;
    if (k >= count) throw DataError(shard.output.string(), "names shard " + std::to_string(k) + " of " + std::to_string(count) + ", which does not exist");
    if (ordered[k] != nullptr) throw DataError(shard.output.string(), "is shard " + std::to_string(k) + " of " + std::to_string(count) + ", as is " + ordered[k]->output.string() + ": a shard given twice");
    ordered[k] = &shard;
  }
  std::string missing;
  for (std::size_t k = 0; k < count; ++k) {
    if (ordered[k] == nullptr) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  }
  if (!missing.empty()) {
    throw DataError("merge: shard " + missing + " of " + std::to_string(count) + (missing.find(',') == std::string::npos ? " is" : " are") +
                    " missing (the shard outputs given hold " + std::to_string(shards.size()) + " of the " + std::to_string(count) +
                    " shards of " + shards.front().output.string() + "'s run)");
  }
  return ordered;
}

void check_block(const LoadedShard& shard) {
  const auto& manifest = shard.manifest;
  const Block expected = shard_block(manifest.total, manifest.spec);
  if (manifest.block.begin != expected.begin || manifest.block.end != expected.end) {
    throw DataError(shard.output.string(), "holds records " + std::to_string(manifest.block.begin) + ".." + std::to_string(manifest.block.end) +
                                               " but shard " + std::to_string(manifest.spec.index) + " of " + std::to_string(manifest.spec.count) + " of " +
                                               std::to_string(manifest.total) + " records is " + std::to_string(expected.begin) + ".." +
                                               std::to_string(expected.end));
  }
}

/// A record of summed counts read back: DataError naming the file unless it is a JSON object whose
/// `summed` fields are whole numbers.
Json counted_record(const fs::path& file, const std::vector<std::string>& summed) {
  Json record;
  try {
    record = Json::parse(io::read_file(file, io::kSettingsInput));
  } catch (const Json::exception& error) {
    throw DataError(file.string(), std::string("is not JSON: ") + error.what());
  }
  for (const auto& key : summed) {
    if (!record.is_object() || !record.contains(key) || !record[key].is_number_unsigned()) {
      throw DataError(file.string(), "has no count \"" + key + "\" to sum");
    }
  }
  return record;
}

/// The record without its counts: what every shard must have written alike.
Json without_counts(Json record, const std::vector<std::string>& summed) {
  for (const auto& key : summed) record.erase(key);
  return record;
}

fs::path merged_name(const fs::path& out, const ShardFile& file) {
  if (file.role == "output") return out;
  fs::path sidecar = out;
  sidecar.replace_extension(file.extension);
  return sidecar;
}

}  // namespace

MergePlan plan_merge(const fs::path& out, std::span<const fs::path> shard_outputs) {
  if (shard_outputs.empty()) throw UsageError("merge: give the outputs of the shards to merge");
  std::vector<LoadedShard> shards;
  for (const auto& output : shard_outputs) shards.push_back(load_shard(output));
  for (std::size_t s = 1; s < shards.size(); ++s) check_same_run(shards.front(), shards[s]);
  const auto ordered = in_shard_order(shards);
  MergePlan plan;
  plan.command = shards.front().manifest.command;
  plan.shards = ordered.size();
  plan.records = shards.front().manifest.total;
  for (const auto* shard : ordered) check_block(*shard);
  const auto& files = shards.front().manifest.files;
  for (std::size_t f = 0; f < files.size(); ++f) {
    MergedFile merged{merged_name(out, files[f]), {}, files[f].summed};
    const fs::path first = ordered.front()->file(ordered.front()->manifest.files[f]);
    const Json first_record = merged.summed.empty() ? Json() : without_counts(counted_record(first, merged.summed), merged.summed);
    for (const auto* shard : ordered) {
      const ShardFile& described = shard->manifest.files[f];
      const fs::path file = shard->file(described);
      const bool differs = files[f].merge == kIdentical ? described.xxh64 != ordered.front()->manifest.files[f].xxh64
                           : files[f].merge == kSumCounts ? without_counts(counted_record(file, merged.summed), merged.summed) != first_record
                                                          : false;
      if (differs) {
        throw DataError(file.string(), "differs from " + first.string() + ": every shard of one run writes the same " + described.role +
                                           (merged.summed.empty() ? "" : " but for its counts"));
      }
      if (files[f].merge != kIdentical || merged.sources.empty()) merged.sources.push_back(file);
    }
    plan.files.push_back(std::move(merged));
  }
  for (const auto& shard : shards) {
    for (const auto& described : shard.manifest.files) plan.inputs.push_back(shard.file(described));
    plan.inputs.push_back(manifest_path(shard.output));
  }
  return plan;
}

void write_merge(const MergePlan& plan) {
  for (const auto& merged : plan.files) {
    if (!merged.summed.empty()) {
      // The first shard's record with every count summed over the shards (checked by plan_merge).
      Json record = counted_record(merged.sources.front(), merged.summed);
      for (const auto& key : merged.summed) {
        std::uint64_t sum = 0;
        for (const auto& source : merged.sources) sum += counted_record(source, merged.summed)[key].get<std::uint64_t>();
        record[key] = sum;
      }
      io::write_file_atomically(merged.target, io::json_text(record, merged.target.string(), 2) + "\n");
      continue;
    }
    io::AtomicFile file(merged.target, /*binary=*/true);
    for (const auto& source : merged.sources) {
      io::InputFile in(source, io::kStreamedInput);
      std::vector<char> block(1 << 16);
      for (std::size_t got; (got = in.read(block.data(), block.size())) > 0;) file.stream().write(block.data(), static_cast<std::streamsize>(got));
    }
    file.commit();
  }
}

}  // namespace claimrag::shard
