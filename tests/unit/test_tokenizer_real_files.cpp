// The real tokenizer files of checkpoints users run (../shared/data/hf-tokenizers beside the
// repository), each folder laid out as tests/fixtures/pretrained/tokenizers/real-files.json says
// (links to the real files, plus the tokenizer_config.json written over some), give exactly the
// ids that scripts/fixtures/tokenizer_real_files.py computed with the reference tokenizer written
// from the Hugging Face definitions (and python3-sentencepiece for spm.model).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/tokenizer/tokenizer.hpp"

namespace fs = std::filesystem;
using claimrag::tokenizer::length_to_encode;
using claimrag::tokenizer::load_tokenizer;

namespace {

const fs::path kSource = fs::path(CLAIMRAG_SOURCE_DIR);

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

const nlohmann::json& fixture() {
  static const nlohmann::json parsed = read_json(kSource / "tests/fixtures/pretrained/tokenizers/real-files.json");
  return parsed;
}

std::vector<std::int32_t> expand_runs(const nlohmann::json& runs) {
  std::vector<std::int32_t> ids;
  for (const nlohmann::json& run : runs) ids.insert(ids.end(), run.at(1).get<std::size_t>(), run.at(0).get<std::int32_t>());
  return ids;
}

// A folder holding links to the entry's real files and the files it writes.
class EntryFolder {
 public:
  explicit EntryFolder(const nlohmann::json& entry, std::size_t index)
      : path_(fs::temp_directory_path() / ("claimrag-real-tokenizer-" + std::to_string(::getpid()) + "-" + std::to_string(index))) {
    const fs::path shared = kSource / fixture().at("shared_folder").get<std::string>();
    fs::remove_all(path_);
    fs::create_directories(path_);
    for (const auto& [name, source] : entry.at("files").items()) {
      const fs::path real = shared / source.get<std::string>();
      if (!fs::exists(real)) throw std::runtime_error("missing real tokenizer file " + real.string());
      fs::create_symlink(fs::absolute(real), path_ / name);
    }
    for (const auto& [name, content] : entry.at("write").items()) std::ofstream(path_ / name) << content.dump();
  }
  ~EntryFolder() { fs::remove_all(path_); }
  EntryFolder(const EntryFolder&) = delete;
  EntryFolder& operator=(const EntryFolder&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void check_entry(std::size_t index) {
  const nlohmann::json& entry = fixture().at("entries").at(index);
  const std::string name = entry.at("name").get<std::string>();
  const EntryFolder folder(entry, index);
  const auto tokenizer = load_tokenizer(folder.path(), entry.at("model_type").get<std::string>());
  EXPECT_EQ(tokenizer->description().rfind(entry.at("description_start").get<std::string>(), 0), 0u)
      << name << ": " << tokenizer->description();
  const nlohmann::json& limit = entry.at("model_max_length");
  EXPECT_EQ(tokenizer->model_max_length(), limit.is_null() ? std::nullopt : std::optional<std::size_t>(limit.get<std::size_t>()))
      << name;
  const nlohmann::json& results = entry.at("results");
  ASSERT_GE(results.size(), 14u) << name;
  const auto model_limit = fixture().at("model_limit").get<std::size_t>();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const nlohmann::json& item = fixture().at("cases").at(i);
    const std::string text = item.at("text").get<std::string>();
    std::optional<std::string> pair;
    if (!item.at("text_pair").is_null()) pair = item.at("text_pair").get<std::string>();
    const std::size_t requested = item.at("max_length").is_null() ? 0 : item.at("max_length").get<std::size_t>();
    const auto encoding = tokenizer->encode(text, pair ? std::optional<std::string_view>(*pair) : std::nullopt,
                                            length_to_encode(*tokenizer, requested, model_limit));
    const std::string label = name + ", case " + std::to_string(i) + " \"" + text.substr(0, 40) + "\"";
    EXPECT_EQ(encoding.input_ids, expand_runs(results[i].at("input_ids"))) << label;
    EXPECT_EQ(encoding.token_type_ids, expand_runs(results[i].at("token_type_ids"))) << label;
    EXPECT_EQ(encoding.truncated_tokens, results[i].at("truncated_tokens").get<std::size_t>()) << label;
  }
}

}  // namespace

TEST(TokenizerRealFiles, EveryFolderGivesTheReferenceIds) {
  const std::size_t entries = fixture().at("entries").size();
  ASSERT_GE(entries, 14u);
  for (std::size_t i = 0; i < entries; ++i) check_entry(i);
}

// The rules, stated on the real files without fixture ids: every id below comes from the
// tokenizer under test.
nlohmann::json entry_named(const std::string& start) {
  for (const nlohmann::json& entry : fixture().at("entries"))
    if (entry.at("name").get<std::string>().rfind(start, 0) == 0) return entry;
  throw std::runtime_error("no fixture entry " + start);
}

TEST(TokenizerRealFiles, EmptySecondTextIsAnEmptySegment) {
  for (const std::string start : {"bert-base-uncased tokenizer.json", "bert-base-uncased vocab.txt",
                                  "roberta-large-mnli tokenizer.json", "roberta-large-mnli vocab.json"}) {
    const nlohmann::json entry = entry_named(start);
    const EntryFolder folder(entry, 100);
    const auto tokenizer = load_tokenizer(folder.path(), entry.at("model_type").get<std::string>());
    const auto single = tokenizer->encode("A claim.", std::nullopt, 0).input_ids;
    const auto pair = tokenizer->encode("A claim.", "", 0).input_ids;
    const auto two_empty = tokenizer->encode("", "", 0).input_ids;
    const auto empty_single = tokenizer->encode("", std::nullopt, 0).input_ids;
    ASSERT_EQ(empty_single.size(), 2u) << start;  // [CLS] [SEP] / <s> </s>
    const std::int32_t sep = empty_single.back();
    // BERT: [CLS] A [SEP] [SEP]; RoBERTa: <s> A </s></s></s>.
    const std::size_t added = start.rfind("roberta", 0) == 0 ? 2 : 1;
    std::vector<std::int32_t> expected = single;
    expected.insert(expected.end(), added, sep);
    EXPECT_EQ(pair, expected) << start;
    std::vector<std::int32_t> expected_empty = empty_single;
    expected_empty.insert(expected_empty.end(), added, sep);
    EXPECT_EQ(two_empty, expected_empty) << start;
  }
}

TEST(TokenizerRealFiles, PairSplitOfFastAndSlowTokenizers) {
  std::string first;
  std::string second;
  for (int i = 0; i < 300; ++i) first += "the ";
  for (int i = 0; i < 400; ++i) second += "the ";
  // 300 + 400 tokens, 509 left for the texts: fast (254, 255), slow (255, 254).
  for (const auto& [start, kept_first] : {std::pair<std::string, std::size_t>{"bert-base-uncased tokenizer.json", 254},
                                          {"bert-base-uncased vocab.txt", 255},
                                          {"deberta-v2 folder with spm.model and tokenizer.json", 254},
                                          {"DeBERTa-v3 spm.model", 255}}) {
    const nlohmann::json entry = entry_named(start);
    const EntryFolder folder(entry, 101);
    const auto tokenizer = load_tokenizer(folder.path(), entry.at("model_type").get<std::string>());
    const auto encoding = tokenizer->encode(first, second, 512);
    const std::int32_t sep = tokenizer->encode("", std::nullopt, 0).input_ids.back();
    const auto first_sep = std::find(encoding.input_ids.begin(), encoding.input_ids.end(), sep);
    EXPECT_EQ(encoding.input_ids.size(), 512u) << start;
    EXPECT_EQ(static_cast<std::size_t>(first_sep - encoding.input_ids.begin()) - 1, kept_first) << start;
    EXPECT_EQ(encoding.truncated_tokens, 191u) << start;
  }
}
