#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/index_format.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

dataset::Corpus make_corpus(const std::vector<std::pair<std::string, std::string>>& documents) {
  dataset::Corpus corpus;
  for (const auto& [title, text] : documents) {
    corpus.position.emplace(std::to_string(corpus.documents.size()), static_cast<std::uint32_t>(corpus.documents.size()));
    corpus.documents.push_back({"doc" + std::to_string(corpus.documents.size()), title, text});
  }
  return corpus;
}

std::vector<std::string> strings(const bm25::StringColumn& column) {
  std::vector<std::string> values;
  for (const std::string_view value : column.all()) values.emplace_back(value);
  return values;
}

/// The bytes of a saved two-document index.
std::string small_index_file(const TempFolder& folder) {
  const auto path = folder.path() / "bm25.index";
  bm25::save_index(bm25::build_index(make_corpus({{"T", "alpha beta"}, {"", "beta gamma gamma"}}), "c"), path);
  return io::read_file(path);
}

// The oracle: BM25 straight from the definition, re-tokenizing every document per query.
double naive_bm25(const dataset::Corpus& corpus, const std::string& query, std::size_t document, double k1, double b) {
  std::vector<std::vector<std::string>> tokens;
  double total_length = 0;
  for (const auto& d : corpus.documents) {
    tokens.push_back(text::tokenize(d.full_text()));
    total_length += static_cast<double>(tokens.back().size());
  }
  const double n = static_cast<double>(corpus.documents.size());
  const double average = total_length / n;
  double score = 0;
  for (const auto& term : text::tokenize(query)) {
    double df = 0;
    for (const auto& t : tokens) df += std::find(t.begin(), t.end(), term) != t.end() ? 1 : 0;
    if (df == 0) continue;
    const double tf = static_cast<double>(std::count(tokens[document].begin(), tokens[document].end(), term));
    const double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * static_cast<double>(tokens[document].size()) / average));
  }
  return score;
}

}  // namespace

TEST(Bm25Index, InvertsTokensWithFrequenciesAndSortedTerms) {
  const auto corpus = make_corpus({{"Cat", "the cat sat"}, {"", "a dog"}});
  const auto index = bm25::build_index(corpus, "sum");
  EXPECT_EQ(strings(index.terms()), (std::vector<std::string>{"a", "cat", "dog", "sat", "the"}));
  EXPECT_EQ(strings(index.doc_ids()), (std::vector<std::string>{"doc0", "doc1"}));
  EXPECT_EQ(std::vector<std::uint32_t>(index.doc_lengths().begin(), index.doc_lengths().end()), (std::vector<std::uint32_t>{4, 2}));
  EXPECT_DOUBLE_EQ(index.average_document_length(), 3.0);
  const auto cat = index.term_id("cat");
  ASSERT_EQ(cat, 1);
  EXPECT_EQ(index.document_frequency(1), 1u);
  EXPECT_EQ(index.postings(1).documents[0], 0u);
  EXPECT_EQ(index.postings(1).frequencies[0], 2u);  // title + text
  EXPECT_EQ(index.term_id("a"), 0);
  EXPECT_EQ(index.term_id("the"), 4);
  EXPECT_EQ(index.term_id("bird"), -1);
  EXPECT_EQ(index.term_id("ca"), -1);
  EXPECT_EQ(index.term_id("zzz"), -1);
  EXPECT_EQ(index.posting_count(), 5u);  // cat, the, sat; a, dog
}

TEST(Bm25Search, ScoresMatchAHandComputation) {
  // N = 3, avgdl = (2 + 4 + 3) / 3 = 3. "cat" is in documents 0 and 1 (df = 2).
  const auto corpus = make_corpus({{"", "cat dog"}, {"", "cat cat bird fish"}, {"", "dog bird fish"}});
  const auto index = bm25::build_index(corpus, "");
  const bm25::Searcher searcher(index, {1.2, 0.75});
  const double idf_cat = std::log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  const double doc0 = idf_cat * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2.0 / 3.0));
  const double doc1 = idf_cat * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 4.0 / 3.0));
  const auto hits = searcher.search("Cat!", 10);
  ASSERT_EQ(hits.size(), 2u);  // document 2 shares no token and is not returned
  EXPECT_EQ(hits[0].document, 1u);
  EXPECT_NEAR(hits[0].score, doc1, 1e-12);
  EXPECT_NEAR(hits[1].score, doc0, 1e-12);
  // A repeated query word counts twice.
  EXPECT_NEAR(searcher.score("cat cat", 0), 2 * doc0, 1e-12);
  EXPECT_EQ(searcher.score("unknown words", 0), 0.0);
}

TEST(Bm25Search, TiesKeepCorpusOrderAndKLimitsTheList) {
  const auto corpus = make_corpus({{"", "x y"}, {"", "z"}, {"", "x y"}, {"", "x y"}});
  const auto index = bm25::build_index(corpus, "");
  const bm25::Searcher searcher(index, {});
  const auto hits = searcher.search("x", 2);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].document, 0u);
  EXPECT_EQ(hits[1].document, 2u);
  EXPECT_EQ(hits[0].score, hits[1].score);
}

TEST(Bm25Search, AgreesWithTheNaiveOracleOnARandomCorpus) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> word(0, 40), length(1, 30);
  std::vector<std::pair<std::string, std::string>> documents;
  for (int d = 0; d < 60; ++d) {
    std::string text;
    for (int i = length(rng); i > 0; --i) text += "w" + std::to_string(word(rng)) + " ";
    documents.emplace_back("", text);
  }
  const auto corpus = make_corpus(documents);
  const auto index = bm25::build_index(corpus, "");
  for (const auto& [k1, b] : std::vector<std::pair<double, double>>{{1.2, 0.75}, {0.9, 0.4}, {2.0, 1.0}}) {
    const bm25::Searcher searcher(index, {k1, b});
    for (const std::string query : {"w1 w2 w3", "w5 w5 w7", "w40 w0", "nothing"}) {
      const auto all = searcher.score_all(query);
      for (std::size_t d = 0; d < documents.size(); ++d) {
        EXPECT_NEAR(all[d], naive_bm25(corpus, query, d, k1, b), 1e-9) << query << " doc " << d;
        EXPECT_EQ(searcher.score(query, static_cast<std::uint32_t>(d)), all[d]);
      }
      // search() returns exactly the positive-score documents, best first, ties by corpus order.
      const auto hits = searcher.search(query, documents.size());
      std::size_t positive = 0;
      for (const double s : all) positive += s > 0 ? 1 : 0;
      ASSERT_EQ(hits.size(), positive);
      for (std::size_t i = 1; i < hits.size(); ++i) {
        EXPECT_TRUE(hits[i - 1].score > hits[i].score ||
                    (hits[i - 1].score == hits[i].score && hits[i - 1].document < hits[i].document));
      }
      for (const auto& hit : hits) EXPECT_EQ(hit.score, all[hit.document]);
    }
  }
}

TEST(Bm25Search, ManyQueriesGiveTheSameAsOneByOne) {
  const auto corpus = make_corpus({{"", "a b c"}, {"", "b c d"}, {"", "c d e"}, {"", "a e"}});
  const auto index = bm25::build_index(corpus, "");
  const bm25::Searcher searcher(index, {});
  const std::vector<std::string_view> queries{"a", "b c", "e e", "zzz", "d a"};
  const auto many = searcher.search_many(queries, 3);
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const auto one = searcher.search(queries[q], 3);
    ASSERT_EQ(many[q].size(), one.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(many[q][i].document, one[i].document);
      EXPECT_EQ(many[q][i].score, one[i].score);
    }
  }
}

TEST(Bm25IndexFile, RoundTripsByteForByte) {
  TempFolder folder;
  const auto corpus = make_corpus({{"T", "alpha beta"}, {"", "beta gamma gamma"}});
  const auto index = bm25::build_index(corpus, "0123456789abcdef");
  const auto path = folder.path() / "bm25.index";
  bm25::save_index(index, path);
  const auto loaded = bm25::load_index(path);
  EXPECT_TRUE(std::ranges::equal(loaded.image(), index.image()));
  EXPECT_EQ(strings(loaded.doc_ids()), strings(index.doc_ids()));
  EXPECT_EQ(strings(loaded.terms()), strings(index.terms()));
  for (std::uint32_t t = 0; t < index.term_count(); ++t) {
    EXPECT_TRUE(std::ranges::equal(loaded.postings(t).documents, index.postings(t).documents));
    EXPECT_TRUE(std::ranges::equal(loaded.postings(t).frequencies, index.postings(t).frequencies));
  }
  EXPECT_EQ(loaded.corpus_checksum(), "0123456789abcdef");
  EXPECT_EQ(loaded.term_id("gamma"), index.term_id("gamma"));
  EXPECT_EQ(loaded.average_document_length(), index.average_document_length());
}

TEST(Bm25IndexFile, AnEmptyCorpusRoundTripsAndFindsNothing) {
  TempFolder folder;
  const auto path = folder.path() / "empty.index";
  bm25::save_index(bm25::build_index(dataset::Corpus{}, "e"), path);
  const auto loaded = bm25::load_index(path);
  EXPECT_EQ(loaded.document_count(), 0u);
  EXPECT_EQ(loaded.term_count(), 0u);
  EXPECT_EQ(loaded.term_id("anything"), -1);
  EXPECT_EQ(loaded.corpus_checksum(), "e");
  EXPECT_TRUE(bm25::Searcher(loaded, {}).search("anything", 10).empty());
}

TEST(Bm25IndexFile, RefusesCutOrForeignFilesAtOpen) {
  TempFolder folder;
  const std::string bytes = small_index_file(folder);
  expect_error<DataError>([&] { bm25::load_index(folder.write("cut.index", bytes.substr(0, bytes.size() - 20))); },
                          "cut.index");
  expect_error<DataError>([&] { bm25::load_index(folder.write("other.index", "hello world, not an index")); },
                          "not a claimrag artefact");
  std::string version_one = bytes;
  version_one[bm25::format::kVersionAt] = 1;
  expect_error<DataError>([&] { bm25::load_index(folder.write("v1.index", version_one)); },
                          "format version 1, this claimrag reads 2: rebuild it");
  expect_error<DataError>([&] { bm25::load_index(folder.path() / "missing.index"); }, "missing.index");
}

// Opening checks everything but the postings; a term's postings are checked when first read. So
// every single flipped bit is refused either at open or by the first read of the postings it hit.
TEST(Bm25IndexFile, EveryFlippedBitIsRefusedAtOpenOrAtFirstRead) {
  TempFolder folder;
  const std::string bytes = small_index_file(folder);
  bm25::format::IndexHeader header;
  std::memcpy(&header, bytes.data() + bm25::format::kPrefixBytes, sizeof header);
  const auto& documents = header.sections[bm25::format::kPostingDocuments];
  const auto& frequencies = header.sections[bm25::format::kPostingFrequencies];
  const auto inside = [](std::size_t at, const bm25::format::SectionEntry& section) {
    return at >= section.offset && at < section.offset + section.bytes;
  };
  std::size_t refused_at_open = 0;
  std::size_t refused_at_read = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] ^= 0x08;
    const auto file = folder.write("flipped.index", flipped);
    std::optional<bm25::InvertedIndex> opened;
    try {
      opened.emplace(bm25::load_index(file));
    } catch (const DataError& error) {
      ++refused_at_open;
      EXPECT_NE(std::string(error.what()).find("flipped.index"), std::string::npos) << error.what();
      continue;
    }
    const bool in_postings = inside(at, documents) || inside(at, frequencies);
    EXPECT_TRUE(in_postings) << "byte " << at << " changed but opened";
    expect_error<DataError>([&] {
      for (std::uint32_t t = 0; t < opened->term_count(); ++t) (void)opened->postings(t);
    }, "checksum mismatch");
    ++refused_at_read;
  }
  EXPECT_EQ(refused_at_read, documents.bytes + frequencies.bytes);
  EXPECT_EQ(refused_at_open + refused_at_read, bytes.size());
}
