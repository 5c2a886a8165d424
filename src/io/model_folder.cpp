#include "claimrag/io/model_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/file_output.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/output_plan.hpp"

namespace claimrag::io {
namespace {

namespace fs = std::filesystem;

struct KnownFile {
  const char* name;
  ModelFileKind kind;
};

// Every file name a model folder is read by (configuration, tokenizers of every kind the
// reference picks from, sentence-transformers), whichever of them a given model uses.
constexpr KnownFile kKnownFiles[] = {
    {"config.json", ModelFileKind::settings},
    {"tokenizer_config.json", ModelFileKind::settings},
    {"special_tokens_map.json", ModelFileKind::settings},
    {"added_tokens.json", ModelFileKind::settings},
    {"modules.json", ModelFileKind::settings},
    {"sentence_bert_config.json", ModelFileKind::settings},
    {"config_sentence_transformers.json", ModelFileKind::settings},
    {"model.safetensors.index.json", ModelFileKind::settings},
    {"pytorch_model.bin.index.json", ModelFileKind::settings},
    {"tokenizer.json", ModelFileKind::vocabulary},
    {"vocab.txt", ModelFileKind::vocabulary},
    {"vocab.json", ModelFileKind::vocabulary},
    {"merges.txt", ModelFileKind::vocabulary},
    {"spm.model", ModelFileKind::vocabulary},
    {"sentencepiece.bpe.model", ModelFileKind::vocabulary},
    {"spiece.model", ModelFileKind::vocabulary},
    {"tokenizer.model", ModelFileKind::vocabulary},
    {"model.safetensors", ModelFileKind::weights},
    {"pytorch_model.bin", ModelFileKind::weights},
};

// Whether a directory entry of that name is there (a broken or looping link included).
bool entry_exists(const fs::path& path) {
  std::error_code error;
  return fs::exists(fs::symlink_status(path, error));
}

// The contents of a small regular file, or nothing when it is not one: the listing never blocks
// on a FIFO (opened without waiting for a writer) nor reads a device.
std::optional<std::string> small_regular_contents(const fs::path& path) {
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) return std::nullopt;
  struct stat status {};
  std::optional<std::string> contents;
  if (::fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) &&
      static_cast<std::uint64_t>(status.st_size) <= kMaxSettingsFileBytes) {
    std::string text(static_cast<std::size_t>(status.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t got = ::read(descriptor, text.data() + done, text.size() - done);
      if (got <= 0) break;
      done += static_cast<std::size_t>(got);
    }
    if (done == text.size()) contents = std::move(text);
  }
  ::close(descriptor);
  return contents;
}

// A settings file parsed, or null when it cannot be (the loader reports why).
nlohmann::json lenient_json(const fs::path& path) {
  const auto text = small_regular_contents(path);
  if (!text || json_nesting_depth(*text) > kMaxJsonDepth) return nullptr;
  return nlohmann::json::parse(*text, nullptr, false);
}

// A name an index or modules.json gives that stays inside the folder.
bool inside_folder(const std::string& name) {
  if (name.empty() || fs::path(name).is_absolute()) return false;
  for (const auto& part : fs::path(name)) {
    if (part == "..") return false;
  }
  return true;
}

// The shards a weight index lists.
void add_shards(const fs::path& folder, const char* index_name, std::set<fs::path>& names,
                std::vector<ModelFolderFile>& files) {
  const nlohmann::json index = lenient_json(folder / index_name);
  if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object()) return;
  for (const auto& [tensor, shard] : index["weight_map"].items()) {
    if (!shard.is_string() || !inside_folder(shard.get<std::string>())) continue;
    const fs::path path = folder / shard.get<std::string>();
    if (entry_exists(path) && names.insert(path).second) files.push_back({path, ModelFileKind::weights});
  }
}

// Each sentence-transformers module's own configuration (1_Pooling/config.json, ...).
void add_module_configs(const fs::path& folder, std::set<fs::path>& names, std::vector<ModelFolderFile>& files) {
  const nlohmann::json modules = lenient_json(folder / "modules.json");
  if (!modules.is_array()) return;
  for (const auto& module : modules) {
    if (!module.is_object() || !module.contains("path") || !module["path"].is_string()) continue;
    const std::string path = module["path"].get<std::string>();
    if (!inside_folder(path)) continue;
    const fs::path config = folder / path / "config.json";
    if (entry_exists(config) && names.insert(config).second) files.push_back({config, ModelFileKind::settings});
  }
}

std::uint64_t size_limit(ModelFileKind kind) {
  switch (kind) {
    case ModelFileKind::settings: return kMaxSettingsFileBytes;
    case ModelFileKind::vocabulary: return kMaxVocabularyFileBytes;
    case ModelFileKind::weights: break;
  }
  return UINT64_MAX;
}

std::string kind_name(ModelFileKind kind) {
  return kind == ModelFileKind::settings ? "a settings file" : "a vocabulary file";
}

void check_file(const ModelFolderFile& file) {
  const std::string shown = file.path.string();
  struct stat status {};
  if (::stat(file.path.c_str(), &status) != 0) {
    if (errno == ENOENT) return;  // a broken link: read as absent, as the reference reads it
    if (errno == ELOOP) throw DataError(shown, "a loop of symbolic links (too many levels of symbolic links)");
    throw DataError(shown, "cannot read: " + system_reason(errno));
  }
  const mode_t type = status.st_mode & S_IFMT;
  if (type == S_IFDIR) throw DataError(shown, "is a folder, not a file");
  if (type == S_IFIFO) throw DataError(shown, "is a FIFO (named pipe), not a regular file: a model file must be a regular file");
  if (type == S_IFCHR || type == S_IFBLK) {
    throw DataError(shown, "is a device, not a regular file: a model file must be a regular file");
  }
  if (type != S_IFREG) throw DataError(shown, "is a socket, not a regular file: a model file must be a regular file");
  const std::uint64_t limit = size_limit(file.kind);
  if (static_cast<std::uint64_t>(status.st_size) > limit) {
    throw DataError(shown, "is " + std::to_string(status.st_size) + " bytes, more than the " + std::to_string(limit >> 20) +
                               " MiB " + kind_name(file.kind) + " of a model folder may hold");
  }
  if (const OutputPlan* plan = OutputPlan::active(); plan != nullptr && plan->declares(file.path)) {
    throw UsageError(shown + ": this model file is also an output of the command: refusing to overwrite an input");
  }
}

}  // namespace

std::vector<ModelFolderFile> model_folder_files(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return {};
  // Other folders a command reads (a BEIR folder, an index) may hold outputs of earlier runs.
  if (!entry_exists(folder / "config.json") && !entry_exists(folder / "modules.json")) return {};
  std::vector<ModelFolderFile> files;
  std::set<fs::path> names;
  for (const KnownFile& known : kKnownFiles) {
    const fs::path path = folder / known.name;
    if (entry_exists(path) && names.insert(path).second) files.push_back({path, known.kind});
  }
  add_shards(folder, "model.safetensors.index.json", names, files);
  add_shards(folder, "pytorch_model.bin.index.json", names, files);
  add_module_configs(folder, names, files);
  // Every safetensors file is read: the checkpoint's record holds a checksum of each.
  std::vector<fs::path> tensor_files;
  for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error)) {
    if (entry->path().extension() == ".safetensors") tensor_files.push_back(entry->path());
  }
  std::sort(tensor_files.begin(), tensor_files.end());
  for (const auto& path : tensor_files) {
    if (names.insert(path).second) files.push_back({path, ModelFileKind::weights});
  }
  return files;
}

std::vector<ModelFolderFile> check_model_folder(const fs::path& folder) {
  auto files = model_folder_files(folder);
  for (const auto& file : files) check_file(file);
  return files;
}

}  // namespace claimrag::io
