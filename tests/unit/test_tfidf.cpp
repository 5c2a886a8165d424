#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/tfidf/sparse_vector.hpp"
#include "claimrag/tfidf/vectorizer.hpp"
#include "claimrag/tfidf/vectorizer_io.hpp"

using claimrag::DataError;
using claimrag::UsageError;
using namespace claimrag::tfidf;

namespace {

const std::vector<std::string> kDocuments = {"The cat sat.", "the CAT cat ran", "a dog"};

// n = 3 documents: df 1 gives ln(4/2) + 1, df 2 gives ln(4/3) + 1.
const double kIdfDf1 = std::log(4.0 / 2.0) + 1.0;
const double kIdfDf2 = std::log(4.0 / 3.0) + 1.0;

std::vector<double> dense_copy(const SparseVector& vector, std::size_t size) {
  std::vector<double> values(size, 0.0);
  for (const SparseEntry& entry : vector) values.at(entry.index) = entry.value;
  return values;
}

bool bitwise_equal(const SparseVector& a, const SparseVector& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].index != b[k].index) return false;
    if (std::memcmp(&a[k].value, &b[k].value, sizeof(double)) != 0) return false;
  }
  return true;
}

std::filesystem::path temporary_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("claimrag_test_tfidf_" + name);
}

}  // namespace

TEST(Tfidf, VocabularyIsAlphabeticalWithDocumentFrequencies) {
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(kDocuments);
  EXPECT_EQ(vectorizer.terms(),
            (std::vector<std::string>{"a", "cat", "dog", "ran", "sat", "the"}));
  EXPECT_EQ(vectorizer.document_frequencies(), (std::vector<std::uint32_t>{1, 2, 1, 1, 1, 2}));
  EXPECT_EQ(vectorizer.document_count(), 3u);
  EXPECT_EQ(vectorizer.index_of("ran"), 3u);
  EXPECT_FALSE(vectorizer.index_of("zebra").has_value());
}

TEST(Tfidf, IdfIsSmoothedLogPlusOne) {
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(kDocuments);
  const std::vector<double> expected = {kIdfDf1, kIdfDf2, kIdfDf1, kIdfDf1, kIdfDf1, kIdfDf2};
  ASSERT_EQ(vectorizer.idf().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_DOUBLE_EQ(vectorizer.idf()[i], expected[i]) << vectorizer.terms()[i];
  }
  // The values scikit-learn 1.2.1 prints for idf_ on these documents.
  EXPECT_NEAR(vectorizer.idf()[0], 1.6931471805599454, 1e-15);
  EXPECT_NEAR(vectorizer.idf()[1], 1.2876820724517808, 1e-15);
}

TEST(Tfidf, TransformIsCountTimesIdfL2Normalised) {
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(kDocuments);
  // "the cat cat ran": cat twice (df 2), ran once (df 1), the once (df 2).
  const double cat = 2.0 * kIdfDf2;
  const double ran = kIdfDf1;
  const double the = kIdfDf2;
  const double norm = std::sqrt(cat * cat + ran * ran + the * the);
  const SparseVector vector = vectorizer.transform("the cat cat ran");
  ASSERT_EQ(vector.size(), 3u);
  EXPECT_EQ(vector[0].index, 1u);
  EXPECT_EQ(vector[1].index, 3u);
  EXPECT_EQ(vector[2].index, 5u);
  EXPECT_DOUBLE_EQ(vector[0].value, cat / norm);
  EXPECT_DOUBLE_EQ(vector[1].value, ran / norm);
  EXPECT_DOUBLE_EQ(vector[2].value, the / norm);
  // scikit-learn 1.2.1's row for the same text.
  const std::vector<double> sklearn = {0.0, 0.7710058432202013, 0.0, 0.5068900148458076,
                                       0.0, 0.38550292161010064};
  const std::vector<double> ours = dense_copy(vector, vectorizer.size());
  for (std::size_t i = 0; i < sklearn.size(); ++i) EXPECT_NEAR(ours[i], sklearn[i], 1e-15);
  EXPECT_NEAR(l2_norm(vector), 1.0, 1e-15);
}

TEST(Tfidf, UnknownTokensAreIgnored) {
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(kDocuments);
  const SparseVector one_known = vectorizer.transform("cat zebra, ZEBRA!");
  ASSERT_EQ(one_known.size(), 1u);
  EXPECT_EQ(one_known[0].index, 1u);
  EXPECT_EQ(one_known[0].value, 1.0);
  EXPECT_TRUE(vectorizer.transform("zebra").empty());
  EXPECT_TRUE(vectorizer.transform("").empty());
}

TEST(Tfidf, MaxFeaturesKeepsMostFrequentTermsTiesAlphabetically) {
  // tf: a 1, b 2, c 2, d 1. Three features: b and c, then the a/d tie goes to a.
  const std::vector<std::string> documents = {"d b b a c c"};
  EXPECT_EQ(TfidfVectorizer::fit(documents, {.max_features = 3}).terms(),
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(TfidfVectorizer::fit(documents, {.max_features = 2}).terms(),
            (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(TfidfVectorizer::fit(documents, {.max_features = 4}).terms().size(), 4u);
  EXPECT_EQ(TfidfVectorizer::fit(documents, {.max_features = 0}).terms().size(), 4u);
}

TEST(Tfidf, MaxFeaturesCountsOccurrencesNotDocuments) {
  // "x" is in one document three times (tf 3, df 1); "y" in two documents once (tf 2, df 2).
  const std::vector<std::string> documents = {"x x x y", "y z"};
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(documents, {.max_features = 1});
  EXPECT_EQ(vectorizer.terms(), (std::vector<std::string>{"x"}));
  // idf still counts every fitted document (n = 2); cut terms vanish from transforms.
  EXPECT_DOUBLE_EQ(vectorizer.idf()[0], std::log(3.0 / 2.0) + 1.0);
  EXPECT_TRUE(vectorizer.transform("y z").empty());
}

TEST(Tfidf, SelectFeaturesOnLargeTie) {
  // 20 terms of frequency 1 and one of frequency 5, cut to 4: the frequent term and the first
  // three of the tied terms in alphabetical order.
  std::vector<std::string> terms;
  std::vector<std::uint64_t> frequencies;
  for (char c = 'a'; c < 'a' + 21; ++c) {
    terms.emplace_back(1, c);
    frequencies.push_back(c == 'm' ? 5 : 1);
  }
  EXPECT_EQ(select_features(terms, frequencies, 4), (std::vector<std::size_t>{0, 1, 2, 12}));
}

TEST(Tfidf, CosineOfSparseVectors) {
  const SparseVector a = {{0, 3.0}, {2, 4.0}};
  const SparseVector b = {{2, 1.0}, {5, 7.0}};
  EXPECT_DOUBLE_EQ(dot(a, b), 4.0);
  EXPECT_DOUBLE_EQ(l2_norm(a), 5.0);
  EXPECT_DOUBLE_EQ(cosine(a, b), 4.0 / (5.0 * std::sqrt(50.0)));
  EXPECT_DOUBLE_EQ(cosine(a, a), 1.0);
  EXPECT_EQ(cosine(a, {}), 0.0);
  EXPECT_TRUE(is_sorted_strictly(a));
  EXPECT_FALSE(is_sorted_strictly({{2, 1.0}, {2, 1.0}}));
}

TEST(Tfidf, CosineOfTransformedTextsIsTheirDot) {
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(kDocuments);
  const SparseVector a = vectorizer.transform("the cat sat");
  const SparseVector b = vectorizer.transform("a cat ran");
  // Only "cat" is shared: (idf2/‖a‖)·(idf2/‖b‖), ‖a‖² = 2·idf2² + idf1², ‖b‖² = 2·idf1² + idf2².
  const double norm_a = std::sqrt(2 * kIdfDf2 * kIdfDf2 + kIdfDf1 * kIdfDf1);
  const double norm_b = std::sqrt(2 * kIdfDf1 * kIdfDf1 + kIdfDf2 * kIdfDf2);
  EXPECT_NEAR(cosine(a, b), kIdfDf2 * kIdfDf2 / (norm_a * norm_b), 1e-15);
  EXPECT_NEAR(cosine(a, b), dot(a, b), 1e-15);
}

TEST(Tfidf, DocumentsWithoutTokensCountInN) {
  const std::vector<std::string> documents = {"alpha", "...", ""};
  const TfidfVectorizer vectorizer = TfidfVectorizer::fit(documents);
  EXPECT_EQ(vectorizer.document_count(), 3u);
  EXPECT_DOUBLE_EQ(vectorizer.idf()[0], std::log(4.0 / 2.0) + 1.0);
}

TEST(Tfidf, FitRejectsEmptyInput) {
  EXPECT_THROW(TfidfVectorizer::fit(std::vector<std::string>{}), UsageError);
  EXPECT_THROW(TfidfVectorizer::fit(std::vector<std::string>{"", "--"}), DataError);
}

TEST(Tfidf, SameInputsGiveIdenticalOutputs) {
  const TfidfVectorizer first = TfidfVectorizer::fit(kDocuments);
  const TfidfVectorizer second = TfidfVectorizer::fit(kDocuments);
  EXPECT_EQ(first.terms(), second.terms());
  EXPECT_EQ(first.fingerprint(), second.fingerprint());
  for (const char* text : {"the cat cat ran", "dog sat a the", "none of these"}) {
    EXPECT_TRUE(bitwise_equal(first.transform(text), second.transform(text))) << text;
  }
}

TEST(Tfidf, FingerprintDependsOnDocuments) {
  const TfidfVectorizer a = TfidfVectorizer::fit(kDocuments);
  const TfidfVectorizer b = TfidfVectorizer::fit(std::vector<std::string>{"the cat sat"});
  EXPECT_NE(a.fingerprint(), b.fingerprint());
  EXPECT_EQ(a.fingerprint().size(), 16u);
}

TEST(Tfidf, SaveLoadRoundTrip) {
  const TfidfVectorizer original = TfidfVectorizer::fit(kDocuments, {.max_features = 5});
  const auto path = temporary_path("roundtrip.json");
  save(original, path);
  const TfidfVectorizer loaded = load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(loaded.terms(), original.terms());
  EXPECT_EQ(loaded.document_frequencies(), original.document_frequencies());
  EXPECT_EQ(loaded.document_count(), original.document_count());
  EXPECT_EQ(loaded.options().max_features, 5u);
  EXPECT_EQ(loaded.fingerprint(), original.fingerprint());
  for (std::size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(std::memcmp(&loaded.idf()[i], &original.idf()[i], sizeof(double)), 0);
  }
  EXPECT_TRUE(bitwise_equal(loaded.transform("the cat cat ran"),
                            original.transform("the cat cat ran")));
}

TEST(Tfidf, LoadRejectsTamperedOrMalformedFiles) {
  const auto path = temporary_path("bad.json");
  const auto write = [&](const std::string& contents) {
    std::ofstream(path) << contents;
  };
  const std::string head = R"({"format": "claimrag-tfidf-vectorizer", "format_version": 1, )"
                           R"("max_features": 0, "document_count": 2, )";
  // A valid file, then one change at a time.
  const TfidfVectorizer valid = TfidfVectorizer::from_parts({"a", "b"}, {1, 2}, 2, {0});
  write(head + R"("terms": ["a", "b"], "document_frequencies": [1, 2], "fingerprint": ")" +
        valid.fingerprint() + "\"}");
  EXPECT_EQ(load(path).terms(), (std::vector<std::string>{"a", "b"}));

  const auto expect_rejected = [&](const std::string& contents, const std::string& reason) {
    write(contents);
    try {
      load(path);
      ADD_FAILURE() << "accepted: " << contents;
    } catch (const DataError& error) {
      EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
    }
  };
  expect_rejected(head + R"("terms": ["a", "b"], "document_frequencies": [2, 2], "fingerprint": ")" +
                      valid.fingerprint() + "\"}",
                  "does not match its contents");
  expect_rejected(head + R"("terms": ["b", "a"], "document_frequencies": [2, 1], "fingerprint": "x"})",
                  "strictly increasing");
  expect_rejected(head + R"("terms": ["a", "b"], "document_frequencies": [1, 3], "fingerprint": "x"})",
                  "outside [1, 2]");
  expect_rejected(head + R"("terms": ["a", "B"], "document_frequencies": [1, 1], "fingerprint": "x"})",
                  "not a [a-z0-9]+ token");
  expect_rejected(head + R"("terms": ["a"], "document_frequencies": [1, 1], "fingerprint": "x"})",
                  "1 terms but 2 document frequencies");
  expect_rejected(R"({"format": "something-else", "format_version": 1})", "not a claimrag-tfidf");
  expect_rejected(R"({"format": "claimrag-tfidf-vectorizer", "format_version": 2})",
                  "format_version 2");
  expect_rejected("{not json", "not valid JSON");
  std::filesystem::remove(path);
  EXPECT_THROW(load(path), DataError);  // missing
}
