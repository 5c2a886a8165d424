#include "claimrag/shard/shard_manifest.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::shard {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "claimrag-shard";
constexpr int kFormatVersion = 1;

Json file_json(const ShardFile& file) {
  Json json{{"role", file.role}, {"name", file.name}};
  if (!file.extension.empty()) json["extension"] = file.extension;
  json["merge"] = file.merge;
  if (!file.summed.empty()) json["summed"] = file.summed;
  json["bytes"] = file.bytes;
  json["xxh64"] = file.xxh64;
  return json;
}

ShardFile file_from(const Json& json) {
  ShardFile file;
  file.role = json.at("role").get<std::string>();
  file.name = json.at("name").get<std::string>();
  if (json.contains("extension")) file.extension = json.at("extension").get<std::string>();
  file.merge = json.at("merge").get<std::string>();
  if (json.contains("summed")) file.summed = json.at("summed").get<std::vector<std::string>>();
  file.bytes = json.at("bytes").get<std::uint64_t>();
  file.xxh64 = json.at("xxh64").get<std::string>();
  if (file.merge != kConcatenate && file.merge != kIdentical && file.merge != kSumCounts) {
    throw std::runtime_error("unknown merge rule '" + file.merge + "'");
  }
  if ((file.merge == kSumCounts) == file.summed.empty()) throw std::runtime_error("\"summed\" goes with the rule " + std::string(kSumCounts) + " only");
  // A name is a file beside the manifest, never a path elsewhere.
  if (file.name.empty() || file.name.find('/') != std::string::npos || file.name == "." || file.name == "..") {
    throw std::runtime_error("a file's name must be a plain file name, got '" + file.name + "'");
  }
  return file;
}

/// A folder's identity: one XXH64 over every regular file's relative path and checksum, sorted by
/// path, so that neither the listing order nor the folder's own path enters it.
Json folder_identity(const fs::path& folder) {
  std::vector<std::pair<std::string, std::string>> files;
  for (auto entry = fs::recursive_directory_iterator(folder); entry != fs::recursive_directory_iterator(); ++entry) {
    const std::string name = entry->path().filename().string();
    if (!name.empty() && name.front() == '.') {
      if (entry->is_directory()) entry.disable_recursion_pending();
      continue;
    }
    if (entry->is_regular_file()) files.emplace_back(fs::relative(entry->path(), folder).generic_string(), io::file_checksum(entry->path()));
  }
  std::sort(files.begin(), files.end());
  std::string listing;
  for (const auto& [name, checksum] : files) listing += name + '\0' + checksum + '\n';
  return Json{{"path", folder.string()}, {"files", files.size()}, {"xxh64", io::checksum_hex(listing)}};
}

}  // namespace

fs::path manifest_path(const fs::path& output) { return fs::path(output.string() + ".shard.json"); }

std::string manifest_text(const ShardManifest& manifest) {
  Json files = Json::array();
  for (const auto& file : manifest.files) files.push_back(file_json(file));
  const Json json{{"format", kFormat},
                  {"format_version", kFormatVersion},
                  {"program", "claimrag"},
                  {"version", manifest.version},
                  {"command", manifest.command},
                  {"shard", {{"index", manifest.spec.index}, {"count", manifest.spec.count}, {"rule", manifest.rule}}},
                  {"records", {{"total", manifest.total}, {"first", manifest.block.begin}, {"count", manifest.block.size()}}},
                  {"inputs", manifest.inputs},
                  {"configuration", manifest.configuration},
                  {"verifier", manifest.verifier},
                  {"files", files}};
  return io::json_text(json, "a shard manifest", 2) + "\n";
}

ShardManifest read_manifest(const fs::path& path) {
  if (!fs::exists(path)) {
    throw DataError(path.string(), "is missing: this is no shard output of `--shard`, or its shard has not finished");
  }
  const std::string text = io::read_file(path, io::kSettingsInput);
  try {
    const Json json = Json::parse(text);
    if (json.at("format").get<std::string>() != kFormat || json.at("format_version").get<int>() != kFormatVersion) {
      throw std::runtime_error("not a claimrag shard manifest of format version " + std::to_string(kFormatVersion));
    }
    ShardManifest manifest;
    manifest.version = json.at("version").get<std::string>();
    manifest.command = json.at("command").get<std::string>();
    const auto& shard = json.at("shard");
    manifest.spec = {shard.at("index").get<std::size_t>(), shard.at("count").get<std::size_t>()};
    manifest.rule = shard.at("rule").get<std::string>();
    const auto& records = json.at("records");
    manifest.total = records.at("total").get<std::size_t>();
    manifest.block.begin = records.at("first").get<std::size_t>();
    manifest.block.end = manifest.block.begin + records.at("count").get<std::size_t>();
    manifest.inputs = json.at("inputs");
    manifest.configuration = json.at("configuration");
    manifest.verifier = json.at("verifier");
    if (!manifest.inputs.is_array()) throw std::runtime_error("its inputs are not a list");
    if (!manifest.configuration.is_object()) throw std::runtime_error("its configuration is not an object");
    for (const auto& file : json.at("files")) manifest.files.push_back(file_from(file));
    if (manifest.files.empty() || manifest.files.front().role != "output") throw std::runtime_error("the output is not listed first");
    return manifest;
  } catch (const std::exception& error) {  // nlohmann's parse and type errors, and the checks above
    throw DataError(path.string(), std::string("is not a valid shard manifest: ") + error.what());
  }
}

Json input_identities(const std::vector<fs::path>& inputs) {
  Json identities = Json::array();
  for (const auto& input : inputs) {
    if (input.empty()) continue;
    if (fs::is_directory(input)) {
      identities.push_back(folder_identity(input));
    } else {
      identities.push_back(Json{{"path", input.string()}, {"xxh64", io::file_checksum(input)}});
    }
  }
  return identities;
}

Json configuration_identity(const std::string& config_checksum, const std::vector<std::string>& arguments) {
  Json identity{{"config", config_checksum}, {"arguments", arguments}};
  std::string key = config_checksum + '\n';
  for (const auto& argument : arguments) key += argument + '\n';
  identity["xxh64"] = io::checksum_hex(key);
  return identity;
}

ShardFile describe_file(const fs::path& written, const std::string& role, const std::string& name, const std::string& merge,
                        const std::string& extension, std::vector<std::string> summed) {
  return {role, name, extension, merge, std::move(summed), static_cast<std::uint64_t>(fs::file_size(written)), io::file_checksum(written)};
}

}  // namespace claimrag::shard
