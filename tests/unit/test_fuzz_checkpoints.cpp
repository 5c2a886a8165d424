// Fuzzing the readers of a Hugging Face model folder (config.json, the safetensors header and
// data, a shard index, modules.json and the pooling configuration, tokenizer.json, vocab.txt,
// vocab.json, merges.txt, tokenizer_config.json): seeded mutations, deep nesting among them, and
// one rule: a damaged folder is a DataError naming a file of the folder (or the folder), never a
// crash, a hang or another exception. The model is then run on a few texts, as claimrag would.
// About 2,000 mutations in all, a few seconds.

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "fuzz_mutations.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::TempFolder;

namespace {

constexpr int kCheckpointRounds = 150;
const fs::path kFixtures = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained";

using claimrag::testing::no_reseal;

void run_model(const fs::path& folder) {
  const pretrained::TextModel model(folder);
  const std::array<pretrained::TextInput, 3> inputs{
      pretrained::TextInput{"the drug reduces risk", std::string_view("the drug lowers the risk of cancer")},
      pretrained::TextInput{"", std::nullopt}, pretrained::TextInput{"é ü ## [SEP] <s> zzzzzzzzzzzzzzzzzzzzzzzzzz", std::nullopt}};
  (void)model.run(inputs, 0, 2, folder.string());
}

void run_tokenizer(const fs::path& folder, const char* model_type) {
  const auto tokenizer = tokenizer::load_tokenizer(folder, model_type);
  (void)tokenizer->encode("The drug reduces risk, doesn't it?", std::string_view("é ü <mask> [SEP] zzzzzzzzzzzz"), 0);
  (void)tokenizer->encode(std::string(3000, 'a'), std::nullopt, 16);
}

// Mutates each of `files` of a copy of the fixture folder `name` in turn, running `read` on the folder.
void fuzz_folder(const std::string& name, const std::vector<std::string>& files,
                 const std::function<void(const fs::path&)>& read, std::uint64_t seed) {
  TempFolder scratch;
  const fs::path folder = scratch.path() / name;
  fs::create_directories(folder.parent_path());
  fs::copy(kFixtures / name, folder, fs::copy_options::recursive);
  read(folder);  // the intact folder loads
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const std::string original = io::read_file(folder / file);
    claimrag::testing::fuzz_reader(original, folder / file, [&](const fs::path&) { read(folder); }, no_reseal, seed++, kCheckpointRounds,
                                   folder.string());
    io::write_file_atomically(folder / file, original, true);
  }
}

}  // namespace

TEST(FuzzCheckpoints, ClassifierConfigWeightsAndWordPieceFiles) {
  fuzz_folder("models/bert-classifier", {"config.json", "model.safetensors", "tokenizer_config.json", "vocab.txt"}, run_model, 11);
}

TEST(FuzzCheckpoints, ShardIndexModulesAndPooling) {
  fuzz_folder("models/bert-embedding-sharded", {"model.safetensors.index.json", "modules.json", "1_Pooling/config.json"},
              run_model, 21);
}

TEST(FuzzCheckpoints, ByteLevelBpeFiles) {
  const auto read = [](const fs::path& folder) { run_tokenizer(folder, "roberta"); };
  fuzz_folder("tokenizers/roberta-vocab-merges", {"vocab.json", "merges.txt", "tokenizer_config.json"}, read, 31);
  fuzz_folder("tokenizers/roberta-tokenizer-json", {"tokenizer.json"}, read, 41);
}

TEST(FuzzCheckpoints, WordPieceTokenizerJson) {
  fuzz_folder("tokenizers/bert-tokenizer-json", {"tokenizer.json"}, [](const fs::path& folder) { run_tokenizer(folder, "bert"); }, 51);
}
