#include <gtest/gtest.h>

#include <cmath>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/safetensors_checksum.hpp"
#include "claimrag/rerank/model_io.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;

namespace {

namespace fs = std::filesystem;

rerank::RerankerModel sample_model() {
  rerank::RerankerModel model;
  model.features.names = {"bm25", "tfidf_cosine", "jaccard", "doc_length", "query_length"};
  model.features.corpus_checksum = "583bb75e36954ff0";
  model.features.tfidf_fingerprint = "178383c54193eb86";
  model.features.tfidf_max_features = 50000;
  model.features.bm25 = {1.2, 0.75};
  model.classifier.weights = Eigen::VectorXd(5);
  // Values with long decimal expansions, a subnormal-free tiny one and a negative zero.
  model.classifier.weights << 0.1 + 0.2, 8.486331993809898, -4.058292147423821, -9.682444828858543e-05, -0.0;
  model.classifier.intercept = -2.36562730643391;
  model.classifier.iterations = 7;
  model.classifier.converged = true;
  model.classifier.objective = 25247.259243948454;
  model.training = {100, 1.0 / 3.0, rerank::ClassWeight::balanced, "train"};
  model.training_queries = 809;
  model.training_rows = 80900;
  model.training_positives = 831;
  return model;
}

struct RerankModelFolder {
  fs::path path = claimrag::testing::unique_temp_path("claimrag_test_rerank_model_io");
  RerankModelFolder() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~RerankModelFolder() { fs::remove_all(path); }
};

// Rewrites the JSON header of a safetensors file with `edit` applied, keeping the tensor bytes.
void edit_header(const fs::path& file, const std::function<void(nlohmann::json&)>& edit) {
  const std::string bytes = io::read_file(file);
  std::uint64_t size = 0;
  std::memcpy(&size, bytes.data(), 8);
  auto header = nlohmann::json::parse(bytes.substr(8, size));
  edit(header);
  const std::string text = header.dump();
  const std::uint64_t new_size = text.size();
  std::string out(8, '\0');
  std::memcpy(out.data(), &new_size, 8);
  out += text;
  out += bytes.substr(8 + size);
  io::reseal_safetensors(out);  // the structure, not the checksum, is under test
  io::write_file_atomically(file, out, true);
}

std::string load_error(const fs::path& file) {
  try {
    rerank::load_model(file);
  } catch (const DataError& error) {
    return error.what();
  }
  return "(loaded)";
}

}  // namespace

TEST(RerankModelIo, RoundTripIsExact) {
  const RerankModelFolder folder;
  const auto original = sample_model();
  rerank::save_model(original, folder.path / "sub/model.safetensors");
  const auto loaded = rerank::load_model(folder.path / "sub/model.safetensors");
  EXPECT_EQ(loaded.features.names, original.features.names);
  EXPECT_EQ(loaded.features.corpus_checksum, original.features.corpus_checksum);
  EXPECT_EQ(loaded.features.tfidf_fingerprint, original.features.tfidf_fingerprint);
  EXPECT_EQ(loaded.features.tfidf_max_features, 50000u);
  EXPECT_EQ(loaded.features.bm25.k1, 1.2);
  EXPECT_EQ(loaded.features.bm25.b, 0.75);
  ASSERT_EQ(loaded.classifier.weights.size(), 5);
  EXPECT_EQ(std::memcmp(loaded.classifier.weights.data(), original.classifier.weights.data(), 5 * sizeof(double)), 0);
  EXPECT_EQ(loaded.classifier.intercept, original.classifier.intercept);
  EXPECT_EQ(loaded.classifier.iterations, 7);
  EXPECT_TRUE(loaded.classifier.converged);
  EXPECT_TRUE(loaded.classifier.fit_intercept);
  EXPECT_EQ(loaded.classifier.intercept_scaling, 1.0);
  EXPECT_EQ(loaded.classifier.objective, original.classifier.objective);
  EXPECT_EQ(loaded.training.C, 1.0 / 3.0);
  EXPECT_EQ(loaded.training.train_depth, 100u);
  EXPECT_EQ(loaded.training.train_split, "train");
  EXPECT_EQ(loaded.training.class_weight, rerank::ClassWeight::balanced);
  EXPECT_EQ(loaded.training_rows, 80900u);
  EXPECT_EQ(loaded.training_positives, 831u);
  EXPECT_EQ(loaded.training_queries, 809u);
  // Saving what was loaded gives the same bytes.
  rerank::save_model(loaded, folder.path / "again.safetensors");
  EXPECT_EQ(io::read_file(folder.path / "sub/model.safetensors"), io::read_file(folder.path / "again.safetensors"));
}

TEST(RerankModelIo, FileIsPlainSafetensors) {
  const RerankModelFolder folder;
  rerank::save_model(sample_model(), folder.path / "m.safetensors");
  const std::string bytes = io::read_file(folder.path / "m.safetensors");
  std::uint64_t size = 0;
  std::memcpy(&size, bytes.data(), 8);
  EXPECT_EQ(size % 8, 0u);
  const auto header = nlohmann::json::parse(bytes.substr(8, size));
  EXPECT_EQ(header["weights"]["dtype"], "F64");
  EXPECT_EQ(header["weights"]["shape"], nlohmann::json::array({5}));
  EXPECT_EQ(header["weights"]["data_offsets"], nlohmann::json::array({0, 40}));
  EXPECT_EQ(header["intercept"]["shape"], nlohmann::json::array({1}));
  EXPECT_EQ(header["intercept"]["data_offsets"], nlohmann::json::array({40, 48}));
  EXPECT_EQ(header["__metadata__"]["feature_names"], "bm25,tfidf_cosine,jaccard,doc_length,query_length");
  EXPECT_EQ(header["__metadata__"]["bm25_k1"], "1.2");
  EXPECT_EQ(bytes.size(), 8 + size + 48);
  double intercept = 0;
  std::memcpy(&intercept, bytes.data() + 8 + size + 40, 8);
  EXPECT_EQ(intercept, -2.36562730643391);
}

TEST(RerankModelIo, RefusesBrokenFilesNamingThem) {
  const RerankModelFolder folder;
  const auto file = folder.path / "m.safetensors";
  EXPECT_NE(load_error(folder.path / "missing.safetensors").find("missing.safetensors"), std::string::npos);

  io::write_file_atomically(file, "abc", true);
  EXPECT_NE(load_error(file).find("too short"), std::string::npos);
  io::write_file_atomically(file, std::string("\xff\xff\xff\xff\xff\xff\xff\x0f", 8) + "{}", true);
  EXPECT_NE(load_error(file).find("bad header length"), std::string::npos);
  io::write_file_atomically(file, std::string("\x04\0\0\0\0\0\0\0", 8) + "{{{{", true);
  EXPECT_NE(load_error(file).find("not JSON"), std::string::npos);

  const auto expect_refusal = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& words) {
    rerank::save_model(sample_model(), file);
    edit_header(file, edit);
    const std::string message = load_error(file);
    EXPECT_NE(message.find(words), std::string::npos) << message;
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  };
  expect_refusal([](auto& h) { h["__metadata__"]["format"] = "claimrag-verifier"; }, "not a claimrag-rerank-model");
  expect_refusal([](auto& h) { h["__metadata__"]["format_version"] = "2"; }, "format version 2");
  expect_refusal([](auto& h) { h["__metadata__"].erase("corpus_checksum"); }, "\"corpus_checksum\" is missing");
  expect_refusal([](auto& h) { h["__metadata__"]["bm25_k1"] = "fast"; }, "\"bm25_k1\" \"fast\" is not a number");
  expect_refusal([](auto& h) { h["__metadata__"]["converged"] = "yes"; }, "is not true or false");
  expect_refusal([](auto& h) { h["__metadata__"]["feature_names"] = "bm25,jaccard"; }, "has 5 entries, expected 2");
  expect_refusal([](auto& h) { h["weights"]["dtype"] = "F32"; }, "is not F64");
  expect_refusal([](auto& h) { h["intercept"]["data_offsets"] = {40, 56}; }, "outside the file's data");
  expect_refusal([](auto& h) { h.erase("intercept"); }, "\"intercept\" is missing");
  expect_refusal([](auto& h) { h.erase("__metadata__"); }, "has no claimrag_checksum");
  expect_refusal([](auto& h) { h["__metadata__"]["bm25_b"] = "nan"; }, "\"bm25_b\" \"nan\" is not a finite number");
}

TEST(RerankModelIo, AFlippedBitAnywhereIsRefused) {
  const RerankModelFolder folder;
  const auto file = folder.path / "m.safetensors";
  rerank::save_model(sample_model(), file);
  const std::string bytes = io::read_file(file);
  // Every byte, one bit each, so a test of all 8 bits stays fast; the header and the weights alike.
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ (1 << (i % 8)));
    io::write_file_atomically(file, damaged, true);
    EXPECT_NE(load_error(file), "(loaded)") << "byte " << i;
  }
}

TEST(RerankModelIo, NanOrInfiniteWeightsAreRefused) {
  const RerankModelFolder folder;
  const auto file = folder.path / "m.safetensors";
  for (const double bad : {std::nan(""), HUGE_VAL}) {
    rerank::save_model(sample_model(), file);
    std::string bytes = io::read_file(file);
    std::memcpy(bytes.data() + bytes.size() - 16, &bad, sizeof bad);  // the last weight
    io::reseal_safetensors(bytes);
    io::write_file_atomically(file, bytes, true);
    const std::string message = load_error(file);
    EXPECT_NE(message.find("tensor 'weights' holds"), std::string::npos) << message;
    EXPECT_NE(message.find("NaN and infinite weights are refused"), std::string::npos) << message;
  }
}
