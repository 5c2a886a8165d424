// Saving and loading the verifier: the same parameters, vocabulary and options come back, and
// files of another kind are refused.

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/verifier/model_io.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;

TEST(VerifierIo, RoundTripKeepsParametersVocabularyAndOptions) {
  claimrag::testing::TempFolder folder;
  const verifier::Vocabulary vocabulary({"aspirin", "stroke", "risk"});
  verifier::VerifierOptions options;
  options.num_classes = 3;
  options.d_model = 8;
  options.heads = 2;
  options.d_ff = 12;
  options.max_length = 20;
  std::mt19937_64 rng(42);
  const verifier::VerifierModel<float> model(vocabulary.size(), options, rng);
  const auto path = folder.path() / "v.safetensors";
  verifier::save_verifier(path, model, vocabulary, {{"seed", "42"}});
  const auto loaded = verifier::load_verifier(path);
  EXPECT_EQ(loaded.vocabulary.size(), 7u);
  EXPECT_EQ(loaded.vocabulary.id("stroke"), 5);
  EXPECT_EQ(loaded.model->options().num_classes, 3);
  EXPECT_EQ(loaded.model->options().d_ff, 12);
  EXPECT_EQ(loaded.model->options().max_length, 20u);
  EXPECT_EQ(loaded.metadata.at("seed"), "42");
  ASSERT_EQ(loaded.model->parameters().size(), model.parameters().size());
  for (std::size_t i = 0; i < model.parameters().size(); ++i) {
    EXPECT_EQ(loaded.model->parameters()[i].name, model.parameters()[i].name);
    EXPECT_TRUE(loaded.model->parameters()[i].value == model.parameters()[i].value) << model.parameters()[i].name;
  }
  EXPECT_THROW(verifier::save_verifier(path, model, vocabulary, {{"format", "x"}}), InternalError);
}

TEST(VerifierIo, OtherFormatsAndVersionsAreDataErrors) {
  claimrag::testing::TempFolder folder;
  const verifier::Vocabulary vocabulary({"a"});
  verifier::VerifierOptions options;
  options.d_model = 4;
  options.heads = 1;
  options.d_ff = 4;
  std::mt19937_64 rng(42);
  const verifier::VerifierModel<float> model(vocabulary.size(), options, rng);
  const auto other = folder.path() / "other.safetensors";
  nn::save_registry(other, model.parameters(), {{"format", "claimrag-dense"}});
  claimrag::testing::expect_error<DataError>([&] { (void)verifier::load_verifier(other); }, "is not a claimrag verifier");
  const auto newer = folder.path() / "newer.safetensors";
  nn::save_registry(newer, model.parameters(), {{"format", "claimrag-verifier"}, {"format_version", "99"}});
  claimrag::testing::expect_error<DataError>([&] { (void)verifier::load_verifier(newer); }, "version 99");
}
