#pragma once
// The files claimrag reads from a Hugging Face model folder, as inputs like any other.
//
// Two uses, so that no command can replace a file of the model it runs and no file of a model
// folder can hang or exhaust the process:
// - io::OutputPlan counts the files model_folder_files() lists for every folder a command reads
//   as inputs of the command: an output that is one of them is refused before any work (exit 2).
// - The model loader calls check_model_folder() before it opens any file: each listed file must
//   be a regular file (links followed) of at most its kind's size; a FIFO, a device (config.json
//   linked to /dev/zero), a socket, a folder or a loop of symbolic links is refused by name
//   (DataError, exit 3), and so is a file the running command declared as an output
//   (UsageError, exit 2) should a command have left its model folder out of its inputs.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace claimrag::io {

/// What a model folder's file holds, which sets its size limit.
enum class ModelFileKind {
  settings,    ///< a small JSON file: config.json, tokenizer_config.json, modules.json, an index, ...
  vocabulary,  ///< a tokenizer's vocabulary: tokenizer.json, vocab.txt, vocab.json, merges.txt, spm.model, ...
  weights,     ///< tensors (model.safetensors, its shards, pytorch_model.bin): mapped, not read whole; no limit
};

/// The largest settings file read: 16 MiB (real ones are a few kilobytes; an id2label of tens of
/// thousands of labels is well under a megabyte).
inline constexpr std::uint64_t kMaxSettingsFileBytes = std::uint64_t{16} << 20;
/// The largest vocabulary file read: 256 MiB (the largest real tokenizer.json files, of
/// multilingual models, are tens of megabytes).
inline constexpr std::uint64_t kMaxVocabularyFileBytes = std::uint64_t{256} << 20;

/// One file of a model folder.
struct ModelFolderFile {
  std::filesystem::path path;
  ModelFileKind kind = ModelFileKind::settings;
};

/// Every file of `folder` that loading the model in it may read and that is there (a directory
/// entry of that name, even a broken link): the configuration, the weights (model.safetensors,
/// pytorch_model.bin, the shards their index files list), the tokenizer's files and the
/// sentence-transformers files (modules.json, sentence_bert_config.json, each module's
/// config.json). Empty when `folder` is not a folder holding config.json or modules.json (not a
/// model folder: a BEIR folder, an index). Never throws for a damaged file: an index
/// or modules.json that cannot be read lists nothing more, and the loader reports it.
std::vector<ModelFolderFile> model_folder_files(const std::filesystem::path& folder);

/// Checks every file model_folder_files(folder) lists as described above and returns the list.
std::vector<ModelFolderFile> check_model_folder(const std::filesystem::path& folder);

}  // namespace claimrag::io
