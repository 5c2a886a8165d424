#pragma once
// The tiny checkpoints under tests/fixtures/pretrained (made by scripts/fixtures/checkpoint_fixtures.py)
// and their expected outputs, for the pretrained encoders' tests. Each expected case is a text or
// text pair with the ids the reference tokenizer gave for it (over the tokenizer folder the
// expected file names) and the reference model's outputs on those ids.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/encoder.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::testing {

inline std::filesystem::path pretrained_fixtures() {
  return std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained";
}

inline std::filesystem::path fixture_checkpoint(const std::string& name) { return pretrained_fixtures() / "models" / name; }

/// One expected case: the text (and pair) tokenized, the reference tokenizer's ids, the head's
/// values, and (for some) every layer's states.
struct ExpectedCase {
  std::string text;
  std::optional<std::string> text_pair;
  std::size_t max_length = 0;  ///< 0: no limit
  std::size_t truncated_tokens = 0;
  pretrained::TokenSequence sequence;  ///< the reference tokenizer's ids and segment ids
  std::vector<float> values;
  std::vector<std::vector<float>> hidden_states;
};

/// The largest |actual[i] - expected[i]|.
inline float max_abs_difference(const float* actual, const std::vector<float>& expected) {
  float worst = 0.0F;
  for (std::size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
  return worst;
}

/// A fixture's expected outputs and the folder whose tokenizer files gave its ids.
struct ExpectedFixture {
  std::filesystem::path tokenizer_folder;  ///< resolved against the source tree (may lie in ../shared)
  std::string model_type;
  std::vector<ExpectedCase> cases;
};

inline ExpectedFixture expected_fixture(const std::string& name) {
  const auto expected = nlohmann::json::parse(io::read_file(pretrained_fixtures() / "expected" / (name + ".json")));
  ExpectedFixture fixture;
  // Fixtures whose test tokenizes the texts itself (DeBERTa v1's) name no tokenizer folder here.
  if (expected.contains("tokenizer"))
    fixture.tokenizer_folder = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / expected.at("tokenizer").get<std::string>();
  fixture.model_type = expected.value("model_type", std::string());
  for (const auto& item : expected.at("cases")) {
    ExpectedCase c;
    c.text = item.at("text").get<std::string>();
    if (!item.at("text_pair").is_null()) c.text_pair = item.at("text_pair").get<std::string>();
    c.max_length = item.value("max_length", std::size_t{0});
    c.truncated_tokens = item.value("truncated_tokens", std::size_t{0});
    c.sequence.input_ids = item.at("input_ids").get<std::vector<std::int32_t>>();
    c.sequence.token_type_ids = item.at("token_type_ids").get<std::vector<std::int32_t>>();
    c.values = item.at("values").get<std::vector<float>>();
    if (item.contains("hidden_states")) c.hidden_states = item.at("hidden_states").get<std::vector<std::vector<float>>>();
    fixture.cases.push_back(std::move(c));
  }
  return fixture;
}

inline std::vector<ExpectedCase> expected_cases(const std::string& name) { return expected_fixture(name).cases; }

/// The expected case of `text` (and `text_pair`) in fixture `name`; throws when there is none.
inline ExpectedCase expected_case(const std::string& name, const std::string& text, const std::optional<std::string>& text_pair) {
  for (auto& c : expected_cases(name)) {
    if (c.text == text && c.text_pair == text_pair && c.max_length == 0) return c;
  }
  throw std::runtime_error("no expected case for \"" + text + "\" in " + name);
}

// Texts cut by the fixture's own tokenizer to each of `lengths` tokens (ids never written by hand).
inline std::vector<pretrained::TokenSequence> sequences_of_lengths(const std::string& fixture_name,
                                                                   const std::vector<std::size_t>& lengths) {
  const auto fixture = expected_fixture(fixture_name);
  const auto tokenizer = tokenizer::load_tokenizer(fixture.tokenizer_folder, fixture.model_type);
  std::string text;
  for (int i = 0; i < 120; ++i) text += "Aspirin reduced the risk of stroke in trial " + std::to_string(i) + " of the cohort. ";
  std::vector<pretrained::TokenSequence> sequences;
  for (const std::size_t length : lengths) {
    auto encoding = tokenizer->encode(text, std::nullopt, length);
    EXPECT_EQ(encoding.input_ids.size(), length);
    sequences.push_back({std::move(encoding.input_ids), std::move(encoding.token_type_ids)});
  }
  return sequences;
}

/// A fixture's name as a test parameter's name ('-' and '.' become '_').
inline std::string fixture_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (auto& c : name) {
    if (c == '-' || c == '.') c = '_';
  }
  return name;
}

}  // namespace claimrag::testing
