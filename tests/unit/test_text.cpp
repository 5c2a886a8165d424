#include <gtest/gtest.h>

#include "claimrag/text/tokenizer.hpp"

using claimrag::text::count_tokens;
using claimrag::text::tokenize;

TEST(Tokenizer, LowercasesAndKeepsAlphanumericRuns) {
  EXPECT_EQ(tokenize("IL-6 levels rose 2.5-fold (p<0.05)."),
            (std::vector<std::string>{"il", "6", "levels", "rose", "2", "5", "fold", "p", "0", "05"}));
}

TEST(Tokenizer, NonAsciiBytesSeparate) {
  // "α-synuclein" and "naïve": every byte of a multi-byte character separates.
  EXPECT_EQ(tokenize("\xCE\xB1-synuclein na\xC3\xAFve"),
            (std::vector<std::string>{"synuclein", "na", "ve"}));
}

TEST(Tokenizer, EmptyAndSeparatorOnlyTextHaveNoTokens) {
  EXPECT_TRUE(tokenize("").empty());
  EXPECT_TRUE(tokenize(" ,;- \t\n").empty());
  EXPECT_EQ(count_tokens(""), 0u);
}

TEST(Tokenizer, CountMatchesTokenize) {
  for (const char* text : {"a", "a b", " a  b ", "A1b2-C3", "x.y,z", "\xC3\xA9t\xC3\xA9"}) {
    EXPECT_EQ(count_tokens(text), tokenize(text).size()) << text;
  }
}

#include "claimrag/text/sentence_splitter.hpp"
#include "claimrag/text/term_dictionary.hpp"

using claimrag::text::split_sentences;

TEST(SentenceSplitter, SplitsAtTerminalPunctuationFollowedBySpace) {
  const std::string text = "First sentence is long enough. Is the second one long? Yes!  Third one ends right here";
  const auto sentences = split_sentences(text);
  ASSERT_EQ(sentences.size(), 3u);  // "Yes!" is under 20 characters and dropped
  EXPECT_EQ(sentences[0].text, "First sentence is long enough.");
  EXPECT_EQ(sentences[1].text, "Is the second one long?");
  EXPECT_EQ(sentences[2].text, "Third one ends right here");
  EXPECT_EQ(text.substr(sentences[1].begin, sentences[1].end - sentences[1].begin), sentences[1].text);
}

TEST(SentenceSplitter, KeepsDecimalsAndAbbreviationsWithoutSpaceTogether) {
  const auto sentences = split_sentences("The dose was 2.5 mg/kg (p<0.05).\tA second sentence follows it.", 0);
  ASSERT_EQ(sentences.size(), 2u);
  EXPECT_EQ(sentences[0].text, "The dose was 2.5 mg/kg (p<0.05).");
}

TEST(SentenceSplitter, MinimumLengthCountsTrimmedCharacters) {
  EXPECT_EQ(split_sentences("exactly twenty chars. x", 20).size(), 1u);  // 21 characters with the period
  EXPECT_EQ(split_sentences("nineteen characters", 20).size(), 0u);
  EXPECT_TRUE(split_sentences("", 20).empty());
  EXPECT_TRUE(split_sentences("   ", 0).empty());
}

TEST(TermDictionary, InternsFindsAndGrowsKeepingIds) {
  claimrag::text::TermDictionary dictionary;
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(dictionary.intern("t" + std::to_string(i)), static_cast<std::uint32_t>(i));
  EXPECT_EQ(dictionary.intern("t17"), 17u);
  EXPECT_EQ(dictionary.find("t4999"), 4999);
  EXPECT_EQ(dictionary.find("t5000"), -1);
  EXPECT_EQ(dictionary.term(42), "t42");
  EXPECT_EQ(dictionary.size(), 5000u);
}

#include "claimrag/error.hpp"
#include "claimrag/text/character_grams.hpp"

// Each token gives its n-grams in order; a token of n characters or fewer is kept whole.
TEST(CharacterGrams, GramsOfEachTokenInOrder) {
  EXPECT_EQ(claimrag::text::character_grams("Anti-inflammatory", 3), "ant nti inf nfl fla lam amm mma mat ato tor ory");
  EXPECT_EQ(claimrag::text::character_grams("a BC def", 3), "a bc def");
  EXPECT_EQ(claimrag::text::character_grams("Fox0", 2), "fo ox x0");
  EXPECT_EQ(claimrag::text::character_grams("", 3), "");
  EXPECT_EQ(claimrag::text::character_grams(" -- ", 3), "");
  EXPECT_THROW((void)claimrag::text::character_grams("abc", 0), claimrag::UsageError);
}
