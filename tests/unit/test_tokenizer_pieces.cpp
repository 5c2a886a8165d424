// The tokenizer's pieces on hand-made cases whose answers follow from the definitions, and the
// errors of bad folders, bad files and bad text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/added_tokens.hpp"
#include "claimrag/tokenizer/normalizer.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"
#include "claimrag/tokenizer/template.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace fs = std::filesystem;
using namespace claimrag::tokenizer;
using namespace std::string_view_literals;

namespace {

std::string utf8(const std::u32string& text) { return unicode::encode_utf8(text); }

std::vector<std::string> utf8_all(const std::vector<std::u32string>& words) {
  std::vector<std::string> out;
  for (const auto& word : words) out.push_back(utf8(word));
  return out;
}

template <typename Action>
std::string error_of(Action action) {
  try {
    action();
  } catch (const claimrag::DataError& error) {
    return error.what();
  }
  return "(no DataError)";
}

class TokenizerFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("claimrag_tokenizer_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(folder_ / name) << text; }
  fs::path folder_;
};

}  // namespace

TEST(TokenizerUnicode, InvalidUtf8NamesTheByteOffset) {
  EXPECT_EQ(unicode::decode_utf8("ab\xC3\xA9"), U"ab\u00e9");
  EXPECT_EQ(error_of([] { (void)unicode::decode_utf8("ab\xFFz"); }), "text: invalid UTF-8 at byte 2");
  EXPECT_EQ(error_of([] { (void)unicode::decode_utf8("abc\xC0\xAF"); }), "text: invalid UTF-8 at byte 3");  // overlong
  EXPECT_EQ(error_of([] { (void)unicode::decode_utf8("\xED\xA0\x80"); }), "text: invalid UTF-8 at byte 0");  // surrogate
  EXPECT_EQ(error_of([] { (void)unicode::decode_utf8("x\xE2\x82"); }), "text: invalid UTF-8 at byte 1");      // cut short
}

TEST(TokenizerUnicode, LowercaseIsFullAndWithoutContext) {
  // İ lowercases to i + combining dot above; a final Σ stays σ when each character is lowered alone.
  EXPECT_EQ(unicode::lowercase_each(U"İΣΑΣ"), U"i\u0307σασ");
  EXPECT_EQ(unicode::lowercase_text(U"ΣΑΣ"), U"σας");
}

TEST(TokenizerNormalizer, BertCleansPadsStripsAndLowercases) {
  NormalizerStep step;  // all four switches on
  const Normalizer normalizer({step});
  // NUL, BEL and the zero-width space (Cf) go; tab becomes a space; 日 is padded; é loses its accent.
  EXPECT_EQ(utf8(normalizer.apply(std::u32string(U"A\u0000b\u0007c\u200bd\tÉ日x"sv))), "abcd e 日 x");
}

TEST(TokenizerPreTokenizer, BertSplitsWhitespaceAndEveryPunctuationCharacter) {
  const PreTokenizer bert(PreTokenizer::Kind::bert);
  EXPECT_EQ(utf8_all(bert.split(U"Wait...  $5 «ok»")),
            (std::vector<std::string>{"Wait", ".", ".", ".", "$", "5", "«", "ok", "»"}));
}

TEST(TokenizerPreTokenizer, Gpt2SplitKeepsOneSpaceBeforeWords) {
  // Two spaces before "world": the first stands alone (\s+(?!\S)), the second joins the word.
  EXPECT_EQ(utf8_all(gpt2_split(U"hello  world's 42!!  ")),
            (std::vector<std::string>{"hello", " ", " world", "'s", " 42", "!!", "  "}));
  EXPECT_EQ(byte_to_symbol(' '), U'\u0120');  // Ġ
  EXPECT_EQ(byte_to_symbol('a'), U'a');
}

TEST(TokenizerAddedTokens, FlagsDecideWhatIsMatched) {
  AddedToken mask{"<mask>", 9, false, true, false, false, true};
  AddedToken word{"ab", 7, true, false, false, false, false};
  const AddedTokenMatcher matcher({mask, word}, {U"<mask>", U"ab"});
  const auto pieces = matcher.split(U"x  <mask> ab abc");
  // <mask> takes the two spaces before it; "ab" matches alone but not inside "abc".
  ASSERT_EQ(pieces.size(), 5u);
  EXPECT_EQ(utf8(pieces[0].text), "x");
  EXPECT_EQ(utf8(pieces[1].text), "  <mask>");
  EXPECT_EQ(pieces[1].id, 9);
  EXPECT_EQ(utf8(pieces[2].text), " ");
  EXPECT_EQ(pieces[3].id, 7);
  EXPECT_EQ(utf8(pieces[4].text), " abc");
}

TEST(TokenizerTruncation, LongestFirstFollowsTheTokenizersArithmetic) {
  const auto lengths = [](std::size_t n1, std::size_t n2, std::size_t budget) {
    std::vector<std::int32_t> first(n1, 1);
    std::optional<std::vector<std::int32_t>> second(std::vector<std::int32_t>(n2, 2));
    const std::size_t removed = truncate_longest_first(first, second, budget, TruncationSide::right);
    EXPECT_EQ(removed, n1 + n2 - first.size() - second->size());
    return std::make_pair(first.size(), second->size());
  };
  EXPECT_EQ(lengths(2, 8, 7), std::make_pair(std::size_t{2}, std::size_t{5}));  // only the longer is cut
  EXPECT_EQ(lengths(8, 4, 7), std::make_pair(std::size_t{4}, std::size_t{3}));  // both: 7/2 and the rest, longer first
  EXPECT_EQ(lengths(4, 4, 7), std::make_pair(std::size_t{3}, std::size_t{4}));  // equal: the pair keeps the odd one
  EXPECT_EQ(lengths(3, 3, 7), std::make_pair(std::size_t{3}, std::size_t{3}));  // fits
  // The Python classes' rule cuts the pair on a tie instead.
  std::vector<std::int32_t> first(4, 1);
  std::optional<std::vector<std::int32_t>> second(std::vector<std::int32_t>(4, 2));
  truncate_one_at_a_time(first, second, 7, TruncationSide::right);
  EXPECT_EQ(first.size(), 4u);
  EXPECT_EQ(second->size(), 3u);
}

TEST(TokenizerTemplate, RobertaPairHasTwoSeparatorsAndSegmentZero) {
  const Encoding encoding = PairTemplate::roberta(0, 2).apply({10, 11}, std::vector<std::int32_t>{12});
  EXPECT_EQ(encoding.input_ids, (std::vector<std::int32_t>{0, 10, 11, 2, 2, 12, 2}));
  EXPECT_EQ(encoding.token_type_ids, (std::vector<std::int32_t>(7, 0)));
  const Encoding bert = PairTemplate::bert(101, 102).apply({5}, std::vector<std::int32_t>{});
  EXPECT_EQ(bert.input_ids, (std::vector<std::int32_t>{101, 5, 102, 102}));
  EXPECT_EQ(bert.token_type_ids, (std::vector<std::int32_t>{0, 0, 0, 1}));
}

TEST_F(TokenizerFolder, AFolderWithoutTokenizerFilesSaysWhatWasLookedFor) {
  const std::string message = error_of([&] { (void)load_tokenizer(folder_, "bert"); });
  EXPECT_NE(message.find(folder_.string()), std::string::npos) << message;
  EXPECT_NE(message.find("tokenizer.json, vocab.txt, vocab.json with merges.txt, spm.model"), std::string::npos) << message;
}

TEST_F(TokenizerFolder, MalformedTokenizerJsonIsNamedWithWhatIsWrong) {
  write("tokenizer.json", "{\"model\": ");
  EXPECT_NE(error_of([&] { (void)load_tokenizer(folder_, "bert"); }).find("tokenizer.json: not valid JSON"), std::string::npos);
  write("tokenizer.json", "{\"added_tokens\": []}");
  EXPECT_NE(error_of([&] { (void)load_tokenizer(folder_, "bert"); }).find("tokenizer.json: \"model\" is missing"),
            std::string::npos);
  write("tokenizer.json", R"({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"a": 0}}})");
  EXPECT_NE(error_of([&] { (void)load_tokenizer(folder_, "bert"); }).find("no unknown token \"[UNK]\""), std::string::npos);
  write("tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": ["a b"]}})");
  EXPECT_NE(error_of([&] { (void)load_tokenizer(folder_, "roberta"); }).find("merge 1 (\"a b\") uses a token the vocabulary lacks"),
            std::string::npos);
}

TEST_F(TokenizerFolder, UnsupportedModelTypeListsTheSupportedOnes) {
  write("tokenizer.json", R"({"model": {"type": "WordLevel", "vocab": {}}})");
  const std::string message = error_of([&] { (void)load_tokenizer(folder_, "t5"); });
  EXPECT_NE(message.find("unsupported model \"WordLevel\" (supported: WordPiece, BPE, Unigram)"), std::string::npos) << message;
}

TEST_F(TokenizerFolder, VocabTxtEncodesAndRefusesInvalidText) {
  write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n##s\n,\n");
  const auto tokenizer = load_tokenizer(folder_, "bert");
  // Lowercased by default; "hellos" is hello + ##s; "x" is unknown.
  const Encoding encoding = tokenizer->encode("Hellos, X", std::string_view("hello"), 0);
  EXPECT_EQ(encoding.input_ids, (std::vector<std::int32_t>{2, 5, 6, 7, 1, 3, 5, 3}));
  EXPECT_EQ(encoding.token_type_ids, (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 1, 1}));
  // An empty second text is an empty segment: [CLS] hello [SEP] [SEP], the last in segment 1.
  const Encoding empty_pair = tokenizer->encode("hello", std::string_view(""), 0);
  EXPECT_EQ(empty_pair.input_ids, (std::vector<std::int32_t>{2, 5, 3, 3}));
  EXPECT_EQ(empty_pair.token_type_ids, (std::vector<std::int32_t>{0, 0, 0, 1}));
  EXPECT_EQ(tokenizer->encode("", std::string_view(""), 0).input_ids, (std::vector<std::int32_t>{2, 3, 3}));
  // Truncated to 4 positions: [CLS] hello ##s [SEP], the two cut tokens counted.
  const Encoding cut = tokenizer->encode("Hellos, X", std::nullopt, 4);
  EXPECT_EQ(cut.input_ids, (std::vector<std::int32_t>{2, 5, 6, 3}));
  EXPECT_EQ(cut.truncated_tokens, 2u);
  EXPECT_EQ(tokenizer->pad_id(), 0);
  EXPECT_EQ(tokenizer->vocabulary_size(), 8u);
  EXPECT_EQ(error_of([&] { (void)tokenizer->encode("ok", std::string_view("bad \xC3("), 0); }),
            "text pair: invalid UTF-8 at byte 4");
}

TEST_F(TokenizerFolder, DebertaReadsTokenizerJsonBeforeSpmModel) {
  // AutoTokenizer prefers the fast tokenizer whenever the folder has tokenizer.json.
  const fs::path fixture = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/tokenizers";
  fs::copy_file(fixture / "deberta-v3-spm/spm.model", folder_ / "spm.model");
  EXPECT_EQ(load_tokenizer(folder_, "deberta-v2")->description().rfind("spm.model: SentencePiece", 0), 0u);
  fs::copy_file(fixture / "bert-tokenizer-json/tokenizer.json", folder_ / "tokenizer.json");
  EXPECT_EQ(load_tokenizer(folder_, "deberta-v2")->description().rfind("tokenizer.json: WordPiece", 0), 0u);
}

TEST_F(TokenizerFolder, ModelMaxLengthIsReadAndBadValuesAreRefused) {
  write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n");
  EXPECT_EQ(load_tokenizer(folder_, "bert")->model_max_length(), std::nullopt);
  write("tokenizer_config.json", R"({"model_max_length": 128})");
  EXPECT_EQ(load_tokenizer(folder_, "bert")->model_max_length(), std::optional<std::size_t>(128));
  // The reference's "no limit" (int(1e30)) is no limit.
  write("tokenizer_config.json", R"({"model_max_length": 1000000000000000019884624838656})");
  EXPECT_EQ(load_tokenizer(folder_, "bert")->model_max_length(), std::nullopt);
  for (const char* bad : {"0", "-5", "12.5", "\"512\""}) {
    write("tokenizer_config.json", std::string(R"({"model_max_length": )") + bad + "}");
    const std::string message = error_of([&] { (void)load_tokenizer(folder_, "bert"); });
    EXPECT_NE(message.find("tokenizer_config.json: \"model_max_length\" should be a positive whole number"), std::string::npos)
        << message;
  }
}

TEST_F(TokenizerFolder, SentenceTransformerSettingsApplyAndBadValuesAreRefused) {
  write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n[\n]\nsep\n");
  write("tokenizer_config.json", R"({"do_lower_case": false, "model_max_length": 64})");
  write("modules.json", "[]");
  // Without sentence_bert_config.json: the texts are stripped, not lowercased, and the length is
  // the tokenizer's.
  auto tokenizer = load_tokenizer(folder_, "bert");
  EXPECT_EQ(tokenizer->model_max_length(), std::optional<std::size_t>(64));
  EXPECT_EQ(tokenizer->encode(" \t hello [SEP]\u3000\n", std::nullopt, 0).input_ids,
            (std::vector<std::int32_t>{2, 5, 3, 3}));
  // do_lower_case lowercases the whole text first: a written [SEP] becomes the words [ sep ].
  write("sentence_bert_config.json", R"({"max_seq_length": 16, "do_lower_case": true})");
  tokenizer = load_tokenizer(folder_, "bert");
  EXPECT_EQ(tokenizer->model_max_length(), std::optional<std::size_t>(16));
  EXPECT_EQ(tokenizer->encode("HELLO [SEP]", std::nullopt, 0).input_ids, (std::vector<std::int32_t>{2, 5, 6, 8, 7, 3}));
  EXPECT_EQ(length_to_encode(*tokenizer, 0, 512), 16u);
  EXPECT_EQ(length_to_encode(*tokenizer, 0, 8), 8u);
  EXPECT_EQ(length_to_encode(*tokenizer, 100, 512), 100u);
  for (const char* bad : {R"({"max_seq_length": 0})", R"({"max_seq_length": 2.5})", R"({"do_lower_case": "yes"})"}) {
    write("sentence_bert_config.json", bad);
    const std::string message = error_of([&] { (void)load_tokenizer(folder_, "bert"); });
    EXPECT_NE(message.find("sentence_bert_config.json: \""), std::string::npos) << bad << ": " << message;
  }
}

TEST(TokenizerUnicode, PythonLowercaseOfAWholeTextAndPythonWhitespace) {
  // Python's str.lower: a capital sigma ending a word becomes ς, inside a word σ; İ becomes i + U+0307.
  EXPECT_EQ(unicode::lowercase_text(U"ΟΔΟΣ ΣΑΣ. İ"), U"οδος σας. i\u0307");
  // str.isspace: bidirectional class WS, B, S or category Zs; not U+200B (Cf) nor U+FEFF.
  for (char32_t c : {U' ', U'\t', U'\n', U'\x0b', U'\x1c', U'\x1f', U'\x85', U'\xa0', U'\u2028', U'\u3000'})
    EXPECT_TRUE(unicode::is_python_space(c)) << static_cast<std::uint32_t>(c);
  for (char32_t c : {U'a', U'\u200b', U'\ufeff', U'\u180e'}) EXPECT_FALSE(unicode::is_python_space(c)) << static_cast<std::uint32_t>(c);
}

TEST(TokenizerNormalizer, SlowAndFastBertCleaningOfOtherCategories) {
  NormalizerStep fast;
  fast.bert.lowercase = false;
  fast.bert.strip_accents = false;
  NormalizerStep slow = fast;
  slow.bert.slow_class = true;
  // U+FFFE and U+0378 are Cn, U+E000 Co, U+200B Cf, U+0085 Cc; tab stays whitespace.
  const std::u32string text = U"a\ufffeb\u0378c\ue000d\u200be\u0085f\tg";
  EXPECT_EQ(Normalizer({fast}).apply(text), U"a\ufffeb\u0378cdef g");
  EXPECT_EQ(Normalizer({slow}).apply(text), U"abcdef g");
  // The slow class puts the text in NFC.
  EXPECT_EQ(Normalizer({slow}).apply(U"e\u0301"), U"\u00e9");
  EXPECT_EQ(Normalizer({fast}).apply(U"e\u0301"), U"e\u0301");
}

TEST_F(TokenizerFolder, VocabTxtLinesEndAsPythonReadsThem) {
  // "\r\n" and a lone "\r" end lines too (Python's text mode), so "x" is id 5 and "y" id 6.
  write("vocab.txt", "[PAD]\r\n[UNK]\r\n[CLS]\r[SEP]\n[MASK]\nx\r\ny");
  const auto tokenizer = load_tokenizer(folder_, "bert");
  EXPECT_EQ(tokenizer->encode("x y", std::nullopt, 0).input_ids, (std::vector<std::int32_t>{2, 5, 6, 3}));
}

TEST_F(TokenizerFolder, ABrokenSpmModelIsNamed) {
  write("spm.model", "not a model");
  const std::string message = error_of([&] { (void)load_tokenizer(folder_, "deberta-v2"); });
  EXPECT_NE(message.find("spm.model: not a SentencePiece model"), std::string::npos) << message;
}
