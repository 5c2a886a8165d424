// The parts of SentencePiece-based tokenizers on cases whose answers follow from the reference's
// definitions (its own documented examples where it has them): the Unigram model, Metaspace,
// Replace and Strip, SentencePiece's precompiled character map under both libraries' walks, and
// which file of an XLM-RoBERTa folder is read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/tokenizer/precompiled_charsmap.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"
#include "claimrag/tokenizer/sentencepiece_normalizers.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "claimrag/tokenizer/unigram.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag::tokenizer;

namespace {

const fs::path kTokenizers = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/tokenizers";

std::u32string sp_u32(const std::string& text) { return unicode::decode_utf8(text); }
std::string sp_utf8(const std::u32string& text) { return unicode::encode_utf8(text); }

nlohmann::json fixture_tokenizer_json() {
  std::ifstream in(kTokenizers / "xlm-roberta-tokenizer-json/tokenizer.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// The fixture's precompiled map: nmt_nfkc's rules for the characters its cases use.
PrecompiledCharsmap fixture_charsmap() {
  const nlohmann::json normalizer = fixture_tokenizer_json().at("normalizer").at("normalizers").at(0);
  EXPECT_EQ(normalizer.at("type"), "Precompiled");
  return PrecompiledCharsmap(decode_base64(normalizer.at("precompiled_charsmap").get<std::string>(), "fixture"),
                             "fixture");
}

std::vector<std::string> words_of(const std::string& text, MetaspaceOptions options, bool at_text_start = true) {
  std::vector<std::string> out;
  for (const std::u32string& word : metaspace_split(sp_u32(text), options, at_text_start)) out.push_back(sp_utf8(word));
  return out;
}

Unigram documented_unigram() {
  // The reference's own documented example (models/unigram/model.rs).
  return Unigram({{"<unk>", 0.0}, {"a", 0.0}, {"b", 0.0}, {"c", 0.0}, {"d", 0.0}, {"cd", 1.0}, {"ab", 2.0},
                  {"abc", 5.0}, {"abcd", 10.0}},
                 0, false, "test");
}

}  // namespace

TEST(TokenizerUnigram, ViterbiAndFusedUnknownsFollowTheReferenceExample) {
  const Unigram model = documented_unigram();
  EXPECT_EQ(model.segment("abcdacdxx"), (std::vector<std::string>{"abcd", "a", "cd", "xx"}));
  std::vector<std::int32_t> ids;
  model.tokenize(sp_u32("abcdacdxx"), ids);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{8, 1, 5, 0}));
  EXPECT_TRUE(model.segment("").empty());
  EXPECT_EQ(model.size(), 9u);
  EXPECT_EQ(model.name(), "Unigram");
}

TEST(TokenizerUnigram, UnknownCharactersAreWholeCharactersFusedIntoRuns) {
  // "é" is two bytes and no piece: each unknown node spans the whole character, and a run of them
  // is one unknown token.
  const Unigram model({{"<unk>", -1.0}, {"x", -3.0}}, 0, false, "test");
  EXPECT_EQ(model.segment("xéé"), (std::vector<std::string>{"x", "éé"}));
  EXPECT_EQ(model.segment("éxé"), (std::vector<std::string>{"é", "x", "é"}));
  // An unknown node costs the lowest score less 10 (-16.5 here): é + ab (-17.5) loses to éa + b (-11.5).
  const Unigram scored({{"<unk>", 0.0}, {"ab", -1.0}, {"éa", -5.0}, {"b", -6.5}}, 0, false, "test");
  EXPECT_EQ(scored.segment("éab"), (std::vector<std::string>{"éa", "b"}));
}

TEST(TokenizerUnigram, ByteFallbackWritesAnUnknownRunAsItsBytes) {
  const Unigram model({{"<unk>", 0.0}, {"<0xC3>", -5.0}, {"<0xA9>", -5.0}, {"a", -1.0}}, 0, true, "test");
  std::vector<std::int32_t> ids;
  model.tokenize(sp_u32("aéé"), ids);
  EXPECT_EQ(ids, (std::vector<std::int32_t>{3, 1, 2, 1, 2}));
  ids.clear();
  model.tokenize(sp_u32("añ"), ids);  // ñ's second byte 0xB1 has no piece: the unknown token
  EXPECT_EQ(ids, (std::vector<std::int32_t>{3, 0}));
}

TEST(TokenizerUnigram, AnUnknownCharacterWithoutUnkIdAndABadUnkIdAreRefused) {
  const Unigram model({{"a", 0.0}}, std::nullopt, false, "m.json");
  std::vector<std::int32_t> ids;
  EXPECT_THROW(model.tokenize(sp_u32("ab"), ids), claimrag::DataError);
  EXPECT_THROW(Unigram({{"a", 0.0}}, 1, false, "m.json"), claimrag::DataError);
  EXPECT_THROW(Unigram({}, std::nullopt, false, "m.json"), claimrag::DataError);
}

TEST(TokenizerMetaspace, SpacesBecomeTheReplacementAndEachStartsAWord) {
  const MetaspaceOptions always;
  // The reference's own test: "Hey   friend!" -> ▁Hey ▁ ▁ ▁friend!
  EXPECT_EQ(words_of("Hey   friend!", always), (std::vector<std::string>{"▁Hey", "▁", "▁", "▁friend!"}));
  EXPECT_EQ(words_of(" lead", always), (std::vector<std::string>{"▁lead"}));
  EXPECT_EQ(words_of("trail ", always), (std::vector<std::string>{"▁trail", "▁"}));
  EXPECT_TRUE(words_of("", always).empty());
  MetaspaceOptions never = always;
  never.prepend = MetaspaceOptions::Prepend::never;
  EXPECT_EQ(words_of("a b", never), (std::vector<std::string>{"a", "▁b"}));
  MetaspaceOptions first = always;
  first.prepend = MetaspaceOptions::Prepend::first;
  EXPECT_EQ(words_of("a b", first, true), (std::vector<std::string>{"▁a", "▁b"}));
  EXPECT_EQ(words_of("a b", first, false), (std::vector<std::string>{"a", "▁b"}));
  MetaspaceOptions whole = always;
  whole.split = false;
  EXPECT_EQ(words_of("a b", whole), (std::vector<std::string>{"▁a▁b"}));
}

TEST(TokenizerSentencePieceNormalizers, ReplaceTakesLiteralsAndRegularExpressions) {
  const ReplaceNormalizer runs(" {2,}", true, " ", "t.json");
  EXPECT_EQ(sp_utf8(runs.apply(sp_u32("a   b  c d\u3000\u3000e"))), "a b c d\u3000\u3000e");
  const ReplaceNormalizer literal("ab", false, "$1x", "t.json");
  EXPECT_EQ(sp_utf8(literal.apply(sp_u32("abcabab"))), "$1xc$1x$1x");
  EXPECT_THROW(ReplaceNormalizer("(", true, "", "t.json"), claimrag::DataError);
  EXPECT_THROW(ReplaceNormalizer("", false, "", "t.json"), claimrag::DataError);
  EXPECT_EQ(sp_utf8(StripNormalizer(false, true).apply(sp_u32("\u00a0 a b \u3000"))), "\u00a0 a b");
  EXPECT_EQ(sp_utf8(StripNormalizer(true, true).apply(sp_u32(" \t a "))), "a");
}

TEST(TokenizerPrecompiledCharsmap, NfkcRulesOfTheModelAreApplied) {
  const PrecompiledCharsmap charsmap = fixture_charsmap();
  for (const auto& [text, normalized] : std::vector<std::pair<std::string, std::string>>{
           {"Ｈｅｌｌｏ １２３", "Hello 123"}, {"ﬁnal ﬂow", "final flow"}, {"½ ™ x² ①", "1⁄2 TM x2 1"},
           {"25℃", "25°C"}, {"cafe\u0301", "café"}, {"a\tb\u00a0c", "a b c"}}) {
    EXPECT_EQ(charsmap.normalize_like_sentencepiece(text), normalized) << text;
    EXPECT_EQ(sp_utf8(charsmap.normalize_like_tokenizers(sp_u32(text))), normalized) << text;
  }
}

TEST(TokenizerPrecompiledCharsmap, TheTwoLibrariesWalkClustersDifferently) {
  const PrecompiledCharsmap charsmap = fixture_charsmap();
  // A short cluster is replaced whole by its first rule in the tokenizers library...
  EXPECT_EQ(charsmap.normalize_like_sentencepiece("\uFB01\u0301"), "fi\u0301");
  EXPECT_EQ(sp_utf8(charsmap.normalize_like_tokenizers(sp_u32("\uFB01\u0301"))), "fi");
  // ... and a cluster of 6 bytes or more is mapped character by character, where SentencePiece's
  // longest match composes half-width ｶ + ﾞ into ガ.
  EXPECT_EQ(charsmap.normalize_like_sentencepiece("\uFF76\uFF9E"), "\u30AC");
  EXPECT_EQ(sp_utf8(charsmap.normalize_like_tokenizers(sp_u32("\uFF76\uFF9E"))), "\u30AB\u3099");
}

TEST(TokenizerPrecompiledCharsmap, InvalidUtf8AndBrokenMapsFollowSentencePiece) {
  const PrecompiledCharsmap charsmap = fixture_charsmap();
  // One invalid byte becomes U+FFFD and the walk goes on at the next byte.
  EXPECT_EQ(charsmap.normalize_like_sentencepiece("a\xFF\xC3Ａ"), "a\uFFFD\uFFFDA");
  EXPECT_EQ(charsmap.normalize_like_sentencepiece(std::string_view("a\0b", 3)), std::string("a\0b", 3));
  EXPECT_THROW(PrecompiledCharsmap(std::string("\xFF\x00\x00\x00xxxx", 8), "t.json"), claimrag::DataError);
  EXPECT_THROW(PrecompiledCharsmap("abc", "t.json"), claimrag::DataError);
  EXPECT_THROW(decode_base64("ab$c", "t.json"), claimrag::DataError);
  EXPECT_EQ(decode_base64("aGk=", "t.json"), "hi");
}

// A scratch model folder holding copies of fixture files.
class XlmRobertaFolder : public ::testing::Test {
 protected:
  void copy(const std::string& fixture, const std::string& file) const {
    fs::copy_file(kTokenizers / fixture / file, folder_.path() / file);
  }
  claimrag::testing::TempFolder folder_;
};

TEST_F(XlmRobertaFolder, TokenizerJsonIsPreferredToTheSentencePieceModel) {
  copy("xlm-roberta-sentencepiece", "sentencepiece.bpe.model");
  EXPECT_EQ(load_tokenizer(folder_.path(), "xlm-roberta")->description().rfind("sentencepiece.bpe.model", 0), 0u);
  copy("xlm-roberta-tokenizer-json", "tokenizer.json");
  const auto tokenizer = load_tokenizer(folder_.path(), "xlm-roberta");
  EXPECT_EQ(tokenizer->description().rfind("tokenizer.json: Unigram", 0), 0u) << tokenizer->description();
  EXPECT_EQ(tokenizer->pad_id(), 1);
}

TEST_F(XlmRobertaFolder, SentencePieceModelGivesFairseqIds) {
  copy("xlm-roberta-sentencepiece", "sentencepiece.bpe.model");
  const auto tokenizer = load_tokenizer(folder_.path(), "xlm-roberta");
  EXPECT_EQ(tokenizer->pad_id(), 1);
  const Encoding encoding = tokenizer->encode("<mask>", std::string_view("<unk>"), 0);
  const auto mask = static_cast<std::int32_t>(tokenizer->vocabulary_size()) - 1;
  EXPECT_EQ(encoding.input_ids, (std::vector<std::int32_t>{0, mask, 2, 2, 3, 2}));
  EXPECT_EQ(encoding.token_type_ids, std::vector<std::int32_t>(6, 0));
}

TEST_F(XlmRobertaFolder, OtherModelTypesDoNotReadSentencePieceBpeModel) {
  // CamemBERT and mBART name their models alike, with other ids.
  copy("xlm-roberta-sentencepiece", "sentencepiece.bpe.model");
  EXPECT_THROW(load_tokenizer(folder_.path(), "camembert"), claimrag::DataError);
}

TEST_F(XlmRobertaFolder, MetaspaceWithContradictingPrependSettingsIsRefused) {
  nlohmann::json document = fixture_tokenizer_json();
  document["pre_tokenizer"]["add_prefix_space"] = false;
  folder_.write("tokenizer.json", document.dump());
  claimrag::testing::expect_error<claimrag::DataError>([&] { (void)load_tokenizer(folder_.path(), "xlm-roberta"); },
                                                       "tokenizer.json: Metaspace's add_prefix_space false does not "
                                                       "match its prepend_scheme");
}

TEST(XlmRobertaCheckpoint, ModelTypeXlmRobertaRunsAsRobertaOnTheUnigramTokenizer) {
  // The same random weights (RoBERTa-shaped, a vocabulary larger than the fixture tokenizer's)
  // under model_type roberta and xlm-roberta, each folder with the XLM-RoBERTa tokenizer.json:
  // XLMRobertaModel is RobertaModel, so the outputs must be the same bytes.
  const fs::path weights = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/models/roberta-classifier-bf16";
  nlohmann::json config = nlohmann::json::parse(claimrag::io::read_file(weights / "config.json"));
  const claimrag::testing::TempFolder temp;
  for (const std::string model_type : {"roberta", "xlm-roberta"}) {
    if (model_type == "xlm-roberta") {
      config["model_type"] = model_type;
      config["architectures"] = {"XLMRobertaForSequenceClassification"};
    }
    temp.write(model_type + "/config.json", config.dump());
    fs::copy_file(weights / "model.safetensors", temp.path() / model_type / "model.safetensors");
    fs::copy_file(kTokenizers / "xlm-roberta-tokenizer-json/tokenizer.json", temp.path() / model_type / "tokenizer.json");
  }
  const claimrag::pretrained::TextModel reference(temp.path() / "roberta");
  const claimrag::pretrained::TextModel model(temp.path() / "xlm-roberta");
  EXPECT_EQ(model.tokenizer().description().rfind("tokenizer.json: Unigram", 0), 0u);
  ASSERT_LE(model.tokenizer().vocabulary_size(), config.at("vocab_size").get<std::size_t>());
  const std::vector<claimrag::pretrained::TextInput> inputs{
      {"Ｔｈｅ ﬁnal protein binds 東京.", std::string_view("Vitamin D <mask> reduce fractures")}, {"café", std::nullopt}};
  const auto expected = reference.run(inputs, 0, 2, "inputs");
  const auto outputs = model.run(inputs, 0, 2, "inputs");
  ASSERT_EQ(outputs.values.size(), 2u);
  EXPECT_EQ(outputs.values, expected.values);
  for (const auto& values : outputs.values) EXPECT_EQ(values.size(), 2u);
}
