// The grounding checkers' document cutting against NLTK: Punkt's sentences of tricky texts and the
// reference procedure's chunks by word count, both from tests/fixtures/checker/ (written by
// scripts/fixtures/checker_fixtures.py with NLTK's own PunktSentenceTokenizer given claimrag's
// abbreviations). Then the differences from NLTK's trained English model that
// text/punkt_sentences.hpp states, each shown on a text.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/text/punkt_sentences.hpp"
#include "claimrag/verification/checker_chunks.hpp"

namespace claimrag::verification {
namespace {

nlohmann::json checker_expected(const std::string& name) {
  return nlohmann::json::parse(io::read_file(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/checker" / name));
}

std::vector<std::string> punkt_texts(std::string_view line) {
  std::vector<std::string> texts;
  for (const auto& sentence : text::punkt_sentences(line)) {
    EXPECT_EQ(line.substr(sentence.begin, sentence.end - sentence.begin), sentence.text);
    texts.push_back(sentence.text);
  }
  return texts;
}

TEST(PunktSentences, MatchNltksPunktWithTheSameParameters) {
  const auto cases = checker_expected("punkt.json");
  ASSERT_GE(cases.size(), 30U);
  for (const auto& expected : cases) {
    const auto text = expected.at("text").get<std::string>();
    EXPECT_EQ(punkt_texts(text), expected.at("sentences").get<std::vector<std::string>>()) << text;
  }
}

TEST(PunktSentences, KnownDifferencesFromTheTrainedEnglishModel) {
  // An abbreviation never ends a sentence here; the trained model ends one before a frequent
  // sentence starter ("etc. The").
  EXPECT_EQ(punkt_texts("Apples, pears etc. The rest were fine."),
            (std::vector<std::string>{"Apples, pears etc. The rest were fine."}));
  // An initial never ends one, even where a capitalised word would start the next.
  EXPECT_EQ(punkt_texts("The vitamin was D. The dose was low."), (std::vector<std::string>{"The vitamin was D. The dose was low."}));
  // A word of the list never ends one; a word missing from it does (the trained model knows more).
  EXPECT_EQ(punkt_texts("Dose ca. 5 mg. Next."), (std::vector<std::string>{"Dose ca. 5 mg.", "Next."}));
  EXPECT_EQ(punkt_texts("Prof. Brown spoke. Next."), (std::vector<std::string>{"Prof. Brown spoke.", "Next."}));
  EXPECT_EQ(punkt_texts("The Nat. Acad. report. Next."), (std::vector<std::string>{"The Nat.", "Acad.", "report.", "Next."}));
}

TEST(PunktSentences, InvalidUtf8IsADataError) { EXPECT_THROW((void)text::punkt_sentences("bad \xff byte. Next."), DataError); }

std::vector<std::string> chunk_texts(const std::vector<DocumentChunk>& chunks) {
  std::vector<std::string> texts;
  for (const auto& chunk : chunks) texts.push_back(chunk.text);
  return texts;
}

TEST(CheckerChunks, ByWordsMatchTheReferenceProcedure) {
  const auto cases = checker_expected("word-chunks.json");
  ASSERT_FALSE(cases.empty());
  const ItemCount words = [](const std::string& item) { return word_count(item); };
  for (const auto& expected : cases) {
    const auto document = expected.at("document").get<std::string>();
    const auto chunks = checker_chunks(checker_items(document), words, expected.at("chunk_size").get<std::size_t>());
    EXPECT_EQ(chunk_texts(chunks), expected.at("chunks").get<std::vector<std::string>>()) << expected.at("what");
  }
}

TEST(CheckerChunks, ItemsKeepLineBreaksAndSpans) {
  const std::string document = "First one. Second one.\n\nThird one.";
  const auto items = checker_items(document);
  ASSERT_EQ(items.size(), 5U);
  EXPECT_EQ(items[0].text, "First one.");
  EXPECT_EQ(items[2].text, "\n");
  EXPECT_EQ(items[3].text, "\n");
  EXPECT_EQ(items[4].text, "Third one.");
  for (const auto& item : items) EXPECT_EQ(document.substr(item.begin, item.end - item.begin), item.text);
  // One chunk: the items joined, " \n " written "\n" (left to right, not overlapping).
  const auto chunks = checker_chunks(items, [](const std::string& item) { return word_count(item); }, 100);
  ASSERT_EQ(chunks.size(), 1U);
  EXPECT_EQ(chunks[0].text, "First one. Second one.\n\n Third one.");
  EXPECT_EQ(chunks[0].begin, 0U);
  EXPECT_EQ(chunks[0].end, document.size());
}

TEST(CheckerChunks, AnItemLargerThanAChunkStandsAloneAndBlankDocumentsHaveNone) {
  const ItemCount words = [](const std::string& item) { return word_count(item); };
  const auto chunks = checker_chunks(checker_items("One two three four five six. Seven."), words, 3);
  EXPECT_EQ(chunk_texts(chunks), (std::vector<std::string>{"One two three four five six.", "Seven."}));
  EXPECT_TRUE(checker_chunks(checker_items(""), words, 3).empty());
  EXPECT_TRUE(checker_chunks(checker_items(" \n \n"), words, 3).empty());
  EXPECT_THROW((void)checker_chunks(checker_items("x."), words, 0), InternalError);
}

TEST(CheckerChunks, WordsArePythonsSplit) {
  EXPECT_EQ(word_count(""), 0U);
  EXPECT_EQ(word_count("\n"), 0U);
  EXPECT_EQ(word_count("  a  b\tc\u00a0d "), 4U);
}

}  // namespace
}  // namespace claimrag::verification
