// Error messages stay readable whatever the damage: lists and long texts are cut, saying how
// much was left out, and a damaged file is blamed on itself.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "claimrag/dense/model_io.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/nn/safetensors.hpp"
#include "claimrag/rerank/reranker.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::TempFolder;

namespace {

std::vector<std::string> many_tokens(std::size_t count) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < count; ++i) tokens.push_back("token" + std::to_string(100000 + i));
  return tokens;
}

template <typename Action>
std::string data_error_of(Action action) {
  try {
    action();
  } catch (const DataError& error) {
    return error.what();
  }
  return "no DataError";
}

}  // namespace

TEST(ErrorMessages, LongTextsAndListsAreCutSayingHowMuchIsLeft) {
  EXPECT_EQ(abbreviated("short"), "short");
  EXPECT_EQ(abbreviated(std::string(12, 'x'), 10), "xxxxxxxxxx… (2 more bytes)");
  EXPECT_EQ(abbreviated("ab\xC3\xA9", 3), "ab… (2 more bytes)");  // not inside the é
  EXPECT_EQ(preview_list({"a", "b"}), "a, b");
  EXPECT_EQ(preview_list(many_tokens(8), 2), "token100000, token100001 … 6 more");
  EXPECT_LE(std::string(DataError(std::string(5000, 'v')).what()).size(), kMaxMessageLength + 40);
}

TEST(ErrorMessages, AModelHeaderCutInsideItsVocabularyDoesNotDumpTheVocabulary) {
  TempFolder folder;
  const auto file = folder.path() / "dense.safetensors";
  const auto vocabulary = dense::Vocabulary::from_tokens(many_tokens(20000));
  dense::DenseOptions options;
  options.dimension = 2;
  dense::DualEncoder<float> model(static_cast<std::int32_t>(vocabulary.size()), options);
  std::mt19937_64 rng(42);
  model.initialise(rng);
  dense::save_model(file, model, vocabulary);
  std::string bytes = io::read_file(file);
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data(), 8);
  const std::uint64_t inside = bytes.find("token110000", 8) - 8;  // the header now ends mid-vocabulary
  ASSERT_LT(inside, length);
  std::memcpy(bytes.data(), &inside, 8);
  io::write_file_atomically(file, bytes, true);
  const std::string message = data_error_of([&] { (void)dense::load_model(file, options); });
  EXPECT_NE(message.find(file.string()), std::string::npos) << message.substr(0, 300);
  EXPECT_LE(message.size(), kMaxMessageLength + 40) << message.substr(0, 300);
}

TEST(ErrorMessages, AForgedFeatureListIsShownByItsFirstNames) {
  rerank::RerankerModel model;
  model.features.names = many_tokens(10000);
  rerank::FeatureDefinition expected;
  expected.names = {"bm25", "tfidf_cosine", "jaccard", "doc_length", "query_length"};
  const std::string message = data_error_of([&] { rerank::check_compatible(model, expected, "m.safetensors"); });
  EXPECT_NE(message.find("token100007 … 9992 more] but this reranker computes [bm25, tfidf_cosine"), std::string::npos)
      << message.substr(0, 300);
}

TEST(ErrorMessages, ADamagedDenseModelIsBlamedOnTheModelNotTheDocumentMatrix) {
  TempFolder folder;
  const auto model_file = folder.path() / "dense.safetensors";
  const auto vocabulary = dense::Vocabulary::from_tokens({"alpha", "beta", "gamma"});
  dense::DenseOptions options;
  options.dimension = 4;
  dense::DualEncoder<float> model(3, options);
  std::mt19937_64 rng(42);
  model.initialise(rng);
  dense::save_model(model_file, model, vocabulary);
  dense::save_document_matrix(folder.path() / "documents.safetensors", nn::Matrix<float>::Ones(2, 4),
                              dense::model_fingerprint(model, vocabulary));
  std::string bytes = io::read_file(model_file);
  bytes[bytes.size() - 2] ^= 0x01;  // one bit of one weight
  io::write_file_atomically(model_file, bytes, true);
  const std::string message = data_error_of([&] { (void)dense::load_model(model_file, options); });
  EXPECT_NE(message.find(model_file.string() + ": checksum mismatch"), std::string::npos) << message;
}
