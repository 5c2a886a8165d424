// Tokenizer files and texts built to make tokenising cost more than the text: a Unigram piece of
// 64 KiB, a long run of unknown characters, a backtracking Replace pattern, a character map that
// expands one letter to kilobytes, thousands of added tokens, a one-word line of megabytes. Each
// is bounded in time (asserted on sizes the unbounded code took seconds or minutes on) and gives
// the same pieces as before.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/tokenizer/added_tokens.hpp"
#include "claimrag/tokenizer/precompiled_charsmap.hpp"
#include "claimrag/tokenizer/sentencepiece_normalizers.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "claimrag/tokenizer/unigram.hpp"
#include "claimrag/tokenizer/visible_text.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::tokenizer {
namespace {

namespace fs = std::filesystem;

// Seconds taken by `work`.
template <typename Work>
double seconds_of_hostile_work(Work&& work) {
  const auto started = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

fs::path hostile_tokenizer_fixture(const std::string& name) {
  return fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/tokenizers" / name;
}

TEST(TokenizerHostileFiles, AHugeUnigramPieceDoesNotMakeSegmentationCubic) {
  const Unigram model({{"<unk>", 0.0}, {"a", -1.0}, {"b", -2.0}, {std::string(65536, 'a'), -3.0}}, 0, false, "huge/tokenizer.json");
  std::vector<std::string> pieces;
  const double seconds = seconds_of_hostile_work([&] { pieces = model.segment(std::string(8000, 'a')); });
  EXPECT_EQ(pieces, std::vector<std::string>(8000, "a"));
  EXPECT_LT(seconds, 1.0);  // 22 s when every length up to the longest piece was hashed at every position
}

TEST(TokenizerHostileFiles, ARunOfUnknownCharactersIsJoinedOnce) {
  const Unigram model({{"<unk>", 0.0}, {"a", -1.0}}, 0, false, "unknown/tokenizer.json");
  std::vector<std::string> pieces;
  const double seconds = seconds_of_hostile_work([&] { pieces = model.segment("a" + std::string(400'000, 'b') + "ab"); });
  EXPECT_EQ(pieces, (std::vector<std::string>{"a", std::string(400'000, 'b'), "a", "b"}));
  EXPECT_LT(seconds, 1.0);  // 6 s when the run was built by prepending each character
}

TEST(TokenizerHostileFiles, ABacktrackingReplacePatternIsRefusedNamingTheFile) {
  const ReplaceNormalizer normalizer("(a+)+$", true, "x", "regex/tokenizer.json");
  EXPECT_EQ(normalizer.apply(U"baab"), U"baab");
  EXPECT_EQ(normalizer.apply(U"baa"), U"bx");
  std::string message;
  const double seconds = seconds_of_hostile_work([&] {
    try {
      (void)normalizer.apply(std::u32string(28, U'a') + U"!");
    } catch (const DataError& error) {
      message = error.what();
    }
  });
  EXPECT_NE(message.find("regex/tokenizer.json: "), std::string::npos) << message;
  EXPECT_NE(message.find("steps of ICU's regex engine"), std::string::npos) << message;
  EXPECT_LT(seconds, 5.0);  // 24 characters took 2.1 s unbounded, each more one doubles it
}

// A character map holding one rule, `a` -> `replacement`: a Darts-clone trie of 256 units whose
// root (unit 0) links to unit 1 ^ 'a', that unit to its leaf, the leaf to replacement offset 0.
std::vector<std::uint32_t> one_rule_units() {
  std::vector<std::uint32_t> units(256, 0);
  units[0] = 1U << 10;
  units[1U ^ 'a'] = (1U << 10) | (1U << 8) | 'a';
  units[(1U ^ 'a') ^ 1U] = 1U << 31;
  return units;
}

// The blob of a map: the trie's byte size, its units, then the replacement and its NUL.
std::string charsmap_blob(const std::vector<std::uint32_t>& units, const std::string& replacement) {
  std::string blob;
  const auto put = [&](std::uint32_t value) {
    for (int i = 0; i < 4; ++i) blob.push_back(static_cast<char>((value >> (8 * i)) & 0xFFU));
  };
  put(static_cast<std::uint32_t>(units.size() * 4));
  for (const std::uint32_t unit : units) put(unit);
  blob += replacement;
  blob.push_back('\0');
  return blob;
}

std::string one_rule_charsmap(const std::string& replacement) { return charsmap_blob(one_rule_units(), replacement); }

TEST(TokenizerHostileFiles, ACharsmapRuleExpandingPastItsBoundIsRefused) {
  const PrecompiledCharsmap fitting(one_rule_charsmap("bc"), "fitting/tokenizer.json");
  EXPECT_EQ(fitting.normalize_like_tokenizers(U"xay"), U"xbcy");
  std::string message;
  try {
    const PrecompiledCharsmap expanding(one_rule_charsmap(std::string(kCharsmapLongestReplacement + 1, 'b')), "expanding/tokenizer.json");
    (void)expanding.normalize_like_tokenizers(U"a");
  } catch (const DataError& error) {
    message = error.what();
  }
  EXPECT_NE(message.find("expanding/tokenizer.json: "), std::string::npos) << message;
  EXPECT_NE(message.find("a replacement of " + std::to_string(kCharsmapLongestReplacement + 1) + " bytes"), std::string::npos)
      << message;
}

// Protobuf's length-delimited field `number` holding `bytes`.
std::string protobuf_field(unsigned number, const std::string& bytes) {
  std::string out;
  const auto varint = [&](std::uint64_t value) {
    do {
      out.push_back(static_cast<char>((value & 0x7FU) | (value > 0x7F ? 0x80U : 0U)));
      value >>= 7;
    } while (value != 0);
  };
  varint((std::uint64_t{number} << 3) | 2U);
  varint(bytes.size());
  return out + bytes;
}

TEST(TokenizerHostileFiles, AnSpmModelsCharsmapExpandingPastItsBoundIsRefusedBeforeSentencePieceReadsIt) {
  testing::TempFolder folder;
  const auto source = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/tokenizers/deberta-v3-spm";
  // Protobuf merges a repeated message field and keeps the last bytes: this normalizer_spec
  // (ModelProto field 3) appended to a valid model replaces its precompiled_charsmap (field 2).
  const auto with_charsmap = [&](const std::string& name, const std::string& charsmap) {
    const auto model_folder = folder.path() / name;
    std::filesystem::create_directories(model_folder);
    for (const auto& entry : std::filesystem::directory_iterator(source)) {
      std::filesystem::copy_file(entry.path(), model_folder / entry.path().filename());
    }
    std::string model = io::read_file(model_folder / "spm.model");
    model += protobuf_field(3, protobuf_field(2, charsmap));
    io::write_file_atomically(model_folder / "spm.model", model);
    return model_folder;
  };
  const auto fitting = load_tokenizer(with_charsmap("fitting", one_rule_charsmap("bc")), "deberta-v2");
  EXPECT_FALSE(fitting->encode("a cat", std::nullopt, 0).input_ids.empty());
  const auto expanding = with_charsmap("expanding", one_rule_charsmap(std::string(kCharsmapLongestReplacement + 1, 'b')));
  std::string message;
  try {
    (void)load_tokenizer(expanding, "deberta-v2");
  } catch (const DataError& error) {
    message = error.what();
  }
  EXPECT_NE(message.find((expanding / "spm.model").string()), std::string::npos) << message;
  EXPECT_NE(message.find("a replacement of " + std::to_string(kCharsmapLongestReplacement + 1) + " bytes"), std::string::npos)
      << message;
  // A broken protobuf is refused naming the file.
  const auto broken = with_charsmap("broken", one_rule_charsmap("bc"));
  io::write_file_atomically(broken / "spm.model", io::read_file(broken / "spm.model") + "\x1a");  // field 3 without its length
  std::string broken_message;
  try {
    (void)load_tokenizer(broken, "deberta-v2");
  } catch (const DataError& error) {
    broken_message = error.what();
  }
  EXPECT_NE(broken_message.find((broken / "spm.model").string()), std::string::npos) << broken_message;
}

// libsentencepiece walks a model's map unchecked, so a map is checked whole before it gets one: a
// link out of the trie, a trie too short for a byte's step from the root, or a rule pointing past
// the replacements is refused whatever text would have walked it.
TEST(TokenizerHostileFiles, ACharsmapWalkLeavingTheTrieIsRefusedBeforeAnyText) {
  PrecompiledCharsmap(one_rule_charsmap("bc"), "fitting/spm.model").check_every_walk();
  auto link_out = one_rule_units();
  link_out[1U ^ 'a'] = (4096U << 10) | (1U << 8) | 'a';
  auto short_trie = one_rule_units();
  short_trie.resize(128);
  auto past_replacements = one_rule_units();
  past_replacements[(1U ^ 'a') ^ 1U] = (1U << 31) | 1000U;
  for (const auto& units : {link_out, short_trie, past_replacements}) {
    const PrecompiledCharsmap broken(charsmap_blob(units, "bc"), "broken/spm.model");
    EXPECT_THROW(broken.check_every_walk(), DataError);
  }
}

TEST(TokenizerHostileFiles, ThousandsOfAddedTokensAreMatchedInOnePass) {
  std::vector<AddedToken> tokens;
  std::vector<std::u32string> patterns;
  for (std::int32_t i = 0; i < 20'000; ++i) {
    AddedToken token;
    token.content = "<tok" + std::to_string(i) + ">";
    token.id = 1000 + i;
    tokens.push_back(token);
    patterns.emplace_back(token.content.begin(), token.content.end());
  }
  const AddedTokenMatcher matcher(tokens, patterns);
  const std::u32string filler(200'000, U'x');
  const std::u32string text = filler + U"<tok19999>" + filler + U"<tok7>";
  std::vector<TextPiece> pieces;
  const double seconds = seconds_of_hostile_work([&] { pieces = matcher.split(text); });
  ASSERT_EQ(pieces.size(), 4U);
  EXPECT_EQ(pieces[0].text, filler);
  EXPECT_EQ(pieces[1].id, 1000 + 19999);
  EXPECT_EQ(pieces[3].id, 1007);
  EXPECT_LT(seconds, 1.0);  // 17 s for 400 KB when every token was compared at every position
}

TEST(TokenizerHostileFiles, AddedTokensKeepLeftmostLongestAndTheFirstOfTwoEqualOnes) {
  std::vector<AddedToken> tokens(4);
  const std::vector<std::u32string> patterns{U"ab", U"abc", U"abc", U""};
  for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i].id = static_cast<std::int32_t>(i);
  const AddedTokenMatcher matcher(tokens, patterns);
  const auto pieces = matcher.split(U"xabcab");
  ASSERT_EQ(pieces.size(), 3U);
  EXPECT_EQ(pieces[0].text, U"x");
  EXPECT_EQ(pieces[1].id, 1);
  EXPECT_EQ(pieces[2].id, 0);
}

TEST(TokenizerHostileFiles, OnlyWhatTheModelCanSeeIsTokenized) {
  EXPECT_EQ(visible_text("abcdef", 0, TruncationSide::right, "text"), "abcdef");
  const std::string long_text = std::string(kVisibleCharactersPerToken * 2, 'a') + "\xC3\xA9" + std::string(10, 'b');
  EXPECT_EQ(visible_text(long_text, 2, TruncationSide::right, "text"), std::string(kVisibleCharactersPerToken * 2, 'a'));
  EXPECT_EQ(visible_text("\xC3\xA9" + long_text, 2, TruncationSide::left, "text").substr(0, 2), "aa");
  // Invalid UTF-8 past the cut is still refused, as when the text was decoded whole.
  EXPECT_THROW((void)visible_text(long_text + "\xFF", 2, TruncationSide::right, "text"), DataError);

  // A 16 MiB one-word line, through a Unigram tokenizer.json and through libsentencepiece (a run
  // of combining marks, quadratic there): the ids are those of the line cut well past what fits.
  const auto check = [](const std::string& folder, const std::string& model_type, const std::string& unit, std::size_t repeats,
                        std::size_t ids) {
    const auto tokenizer = load_tokenizer(hostile_tokenizer_fixture(folder), model_type);
    std::string line;
    line.reserve(unit.size() * repeats);
    for (std::size_t i = 0; i < repeats; ++i) line += unit;
    Encoding whole;
    const double seconds = seconds_of_hostile_work([&] { whole = tokenizer->encode(line, std::nullopt, 128); });
    const Encoding shorter = tokenizer->encode(line.substr(0, unit.size() * 1024), std::nullopt, 128);
    EXPECT_EQ(whole.input_ids, shorter.input_ids) << folder;
    EXPECT_EQ(whole.input_ids.size(), ids) << folder;
    EXPECT_LT(seconds, 3.0) << folder;
  };
  check("xlm-roberta-tokenizer-json", "xlm-roberta", "claimrag", (std::size_t{16} << 20) / 8, 128);
  // The marks are one unknown piece: [CLS], the letter, [UNK], [SEP].
  check("deberta-v3-spm", "deberta-v2", "a\xCC\x81", std::size_t{1} << 20, 4);
}

}  // namespace
}  // namespace claimrag::tokenizer
