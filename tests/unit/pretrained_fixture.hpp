#pragma once
// The tiny checkpoints under tests/fixtures/pretrained (made by scripts/fixtures/checkpoint_fixtures.py)
// and their expected outputs, for the pretrained encoders' tests.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/encoder.hpp"

namespace claimrag::testing {

inline std::filesystem::path pretrained_fixtures() {
  return std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained";
}

inline std::filesystem::path fixture_checkpoint(const std::string& name) { return pretrained_fixtures() / "models" / name; }

/// One expected case: the token ids fed, the head's values, and (for some) every layer's states.
struct ExpectedCase {
  pretrained::TokenSequence sequence;
  std::vector<float> values;
  std::vector<std::vector<float>> hidden_states;
};

/// The largest |actual[i] - expected[i]|.
inline float max_abs_difference(const float* actual, const std::vector<float>& expected) {
  float worst = 0.0F;
  for (std::size_t i = 0; i < expected.size(); ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
  return worst;
}

inline std::vector<ExpectedCase> expected_cases(const std::string& name) {
  const auto expected = nlohmann::json::parse(io::read_file(pretrained_fixtures() / "expected" / (name + ".json")));
  std::vector<ExpectedCase> cases;
  for (const auto& item : expected.at("cases")) {
    ExpectedCase c;
    c.sequence.input_ids = item.at("input_ids").get<std::vector<std::int32_t>>();
    c.sequence.token_type_ids = item.at("token_type_ids").get<std::vector<std::int32_t>>();
    c.values = item.at("values").get<std::vector<float>>();
    if (item.contains("hidden_states")) c.hidden_states = item.at("hidden_states").get<std::vector<std::vector<float>>>();
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace claimrag::testing
