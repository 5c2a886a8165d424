// Each tiny tokenizer folder under tests/fixtures/pretrained/tokenizers gives exactly the ids,
// segment ids and truncated counts that scripts/fixtures/tokenizer_reference.py (written from the
// Hugging Face definitions) computed for every case in its expected.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/tokenizer/tokenizer.hpp"

namespace fs = std::filesystem;
using claimrag::tokenizer::load_tokenizer;

namespace {

const fs::path kFixtures = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/tokenizers";

nlohmann::json read_expected(const fs::path& folder) {
  std::ifstream in(folder / "expected.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

void check_folder(const std::string& name, const std::string& description_start) {
  const fs::path folder = kFixtures / name;
  const nlohmann::json expected = read_expected(folder);
  const auto tokenizer = load_tokenizer(folder, expected.at("model_type").get<std::string>());
  EXPECT_EQ(tokenizer->description().rfind(description_start, 0), 0u) << tokenizer->description();
  ASSERT_GE(expected.at("cases").size(), 30u);
  for (const nlohmann::json& item : expected.at("cases")) {
    const std::string text = item.at("text").get<std::string>();
    std::optional<std::string> pair;
    if (!item.at("text_pair").is_null()) pair = item.at("text_pair").get<std::string>();
    const auto encoding = tokenizer->encode(text, pair ? std::optional<std::string_view>(*pair) : std::nullopt,
                                            item.at("max_length").get<std::size_t>());
    const std::string label = name + " on \"" + text + "\"" + (pair ? " + \"" + *pair + "\"" : "");
    EXPECT_EQ(encoding.input_ids, item.at("input_ids").get<std::vector<std::int32_t>>()) << label;
    EXPECT_EQ(encoding.token_type_ids, item.at("token_type_ids").get<std::vector<std::int32_t>>()) << label;
    EXPECT_EQ(encoding.truncated_tokens, item.at("truncated_tokens").get<std::size_t>()) << label;
    if (item.at("max_length").get<std::size_t>() > 0) {
      EXPECT_LE(encoding.input_ids.size(), item.at("max_length").get<std::size_t>()) << label;
    }
  }
}

}  // namespace

TEST(TokenizerParity, WordPieceTokenizerJson) { check_folder("bert-tokenizer-json", "tokenizer.json: WordPiece"); }
TEST(TokenizerParity, WordPieceBertProcessingLeftTruncation) {
  check_folder("bert-processing-left-truncation", "tokenizer.json: WordPiece");
}
TEST(TokenizerParity, WordPieceVocabTxtCased) { check_folder("bert-cased-vocab-txt", "vocab.txt: WordPiece"); }
TEST(TokenizerParity, ByteLevelBpeTokenizerJson) { check_folder("roberta-tokenizer-json", "tokenizer.json: BPE"); }
TEST(TokenizerParity, ByteLevelBpeVocabAndMerges) { check_folder("roberta-vocab-merges", "vocab.json + merges.txt: BPE"); }
TEST(TokenizerParity, SentencePieceDebertaV3) { check_folder("deberta-v3-spm", "spm.model: SentencePiece"); }
TEST(TokenizerParity, XlmRobertaTokenizerJsonUnigram) {
  check_folder("xlm-roberta-tokenizer-json", "tokenizer.json: Unigram");
}
TEST(TokenizerParity, XlmRobertaSentencePieceFairseqIds) {
  check_folder("xlm-roberta-sentencepiece", "sentencepiece.bpe.model: SentencePiece with fairseq ids");
}
TEST(TokenizerParity, UnigramByteFallbackTokenizerJson) {
  check_folder("unigram-byte-fallback-json", "tokenizer.json: Unigram");
}
TEST(TokenizerParity, SentencePieceT5) { check_folder("t5-spiece", "spiece.model: SentencePiece (T5)"); }
TEST(TokenizerParity, T5TokenizerJsonWhitespaceSplitThenMetaspace) {
  check_folder("t5-tokenizer-json", "tokenizer.json: Unigram");
}
