#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "claimrag/dense/model_io.hpp"
#include "claimrag/error.hpp"

namespace fs = std::filesystem;
using claimrag::DataError;
using claimrag::dense::DenseOptions;
using claimrag::dense::DualEncoder;
using claimrag::dense::Vocabulary;

namespace {

DenseOptions four_dimensions() {
  DenseOptions options;
  options.dimension = 4;
  return options;
}

class DenseModelIo : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("claimrag_dense_io_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(folder_);
    options_ = four_dimensions();
    options_.quiet = true;
    vocabulary_ = Vocabulary::build({"alpha beta gamma", "delta"});
    std::mt19937_64 rng(42);
    model_.initialise(rng);
  }
  void TearDown() override { fs::remove_all(folder_); }

  template <typename Action>
  static std::string error_of(Action action) {
    try {
      action();
    } catch (const DataError& error) {
      return error.what();
    }
    return "no DataError";
  }

  fs::path folder_;
  DenseOptions options_;
  Vocabulary vocabulary_;
  DualEncoder<float> model_{4, four_dimensions()};
};

}  // namespace

TEST_F(DenseModelIo, RoundTripRestoresTablesVocabularyAndMetadata) {
  const fs::path file = folder_ / "model.safetensors";
  claimrag::dense::save_model(file, model_, vocabulary_, {{"data_checksum", "abc"}});
  const auto loaded = claimrag::dense::load_model(file, options_);
  EXPECT_EQ(loaded.vocabulary.tokens(), vocabulary_.tokens());
  EXPECT_EQ(loaded.model.table(claimrag::dense::Tower::document), model_.table(claimrag::dense::Tower::document));
  EXPECT_EQ(loaded.metadata.at("data_checksum"), "abc");
  EXPECT_EQ(loaded.metadata.at("format"), "claimrag-dense");
  EXPECT_EQ(loaded.metadata.at("seed"), "42");
  EXPECT_EQ(loaded.metadata.at("vocabulary_checksum"), vocabulary_.checksum());
  EXPECT_EQ(claimrag::dense::model_fingerprint(loaded.model, loaded.vocabulary),
            claimrag::dense::model_fingerprint(model_, vocabulary_));
}

TEST_F(DenseModelIo, RefusesAModelTrainedWithOtherOptions) {
  const fs::path file = folder_ / "model.safetensors";
  claimrag::dense::save_model(file, model_, vocabulary_);
  DenseOptions other_dimension = options_;
  other_dimension.dimension = 8;
  EXPECT_NE(error_of([&] { claimrag::dense::load_model(file, other_dimension); }).find("dimension is '4'"),
            std::string::npos);
  DenseOptions other_seed = options_;
  other_seed.seed = 7;
  EXPECT_NE(error_of([&] { claimrag::dense::load_model(file, other_seed); }).find("seed is '42'"), std::string::npos);
  DenseOptions other_temperature = options_;
  other_temperature.temperature = 0.1;
  const std::string message = error_of([&] { claimrag::dense::load_model(file, other_temperature); });
  EXPECT_NE(message.find("config_hash"), std::string::npos) << message;
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  DenseOptions only_quieter = options_;
  only_quieter.quiet = false;  // not part of the model
  EXPECT_NO_THROW(claimrag::dense::load_model(file, only_quieter));
}

TEST_F(DenseModelIo, RefusesAVocabularyThatDoesNotMatchItsChecksum) {
  const fs::path file = folder_ / "model.safetensors";
  claimrag::dense::save_model(file, model_, vocabulary_);
  auto content = claimrag::nn::read_safetensors(file);
  content.metadata["vocabulary"] = R"(["alpha","beta","delta","zeta"])";
  const auto& table = content.tensors[0];
  claimrag::nn::write_safetensors(file, {{table.name, table.value.data(), table.value.rows(), table.value.cols()}},
                                  content.metadata);
  EXPECT_NE(error_of([&] { claimrag::dense::load_model(file, options_); }).find("vocabulary_checksum"),
            std::string::npos);
}

TEST_F(DenseModelIo, RefusesAFileThatIsNotADenseModel) {
  const fs::path file = folder_ / "other.safetensors";
  claimrag::nn::write_safetensors(file, {}, {{"format", "something-else"}});
  EXPECT_NE(error_of([&] { claimrag::dense::load_model(file, options_); }).find("format"), std::string::npos);
}

TEST_F(DenseModelIo, DocumentMatrixRoundTripsAndRefusesAnotherModelOrCorpus) {
  const fs::path file = folder_ / "documents.safetensors";
  const auto documents = model_.encode({{0, 1}, {3}, {}}, claimrag::dense::Tower::document);
  const std::string fingerprint = claimrag::dense::model_fingerprint(model_, vocabulary_);
  claimrag::dense::save_document_matrix(file, documents, fingerprint);
  EXPECT_EQ(claimrag::dense::load_document_matrix(file, fingerprint, 3), documents);
  EXPECT_NE(error_of([&] { claimrag::dense::load_document_matrix(file, "0123456789abcdef", 3); })
                .find("model_fingerprint"),
            std::string::npos);
  EXPECT_NE(error_of([&] { claimrag::dense::load_document_matrix(file, fingerprint, 4); }).find("holds 3 documents"),
            std::string::npos);
}
