#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;

namespace {

experiment::ExperimentConfig load(const std::string& json) {
  const auto path = claimrag::testing::unique_temp_path("claimrag_test_verification_config.json");
  std::ofstream(path) << json;
  auto config = experiment::load_config(path);
  std::filesystem::remove(path);
  return config;
}

}  // namespace

TEST(VerificationConfig, TheFreeTextContradictRatioIsOneUnlessSetAndPositive) {
  EXPECT_EQ(load("{}").verification.options.free_text_contradict_ratio, 1.0);
  EXPECT_EQ(load(R"({"verification": {"free_text_contradict_ratio": 0.3}})").verification.options.free_text_contradict_ratio, 0.3);
  EXPECT_THROW(load(R"({"verification": {"free_text_contradict_ratio": 0}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_contradict_ratio": -0.5}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_contradict_ratio": 11}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_contradict_ratio": "0.3"}})"), UsageError);
}

TEST(VerificationConfig, TheShortEvidenceRuleIsOffUnlessSetAndItsValuesAreChecked) {
  EXPECT_EQ(load("{}").verification.options.free_text_short_evidence.max_sentences, 0u);
  const auto rule = load(R"({"verification": {"free_text_short_evidence": {"max_sentences": 1, "nei_threshold": 0.84,
                          "contradict_ratio": 0.15, "contradict_cue": "with_cue"}}})")
                        .verification.options.free_text_short_evidence;
  EXPECT_EQ(rule.max_sentences, 1u);
  EXPECT_EQ(rule.nei_threshold, 0.84);
  EXPECT_EQ(rule.contradict_ratio, 0.15);
  EXPECT_EQ(rule.contradict_cue, verification::ContradictCue::with_cue);
  EXPECT_THROW(load(R"({"verification": {"free_text_short_evidence": {"max_sentence": 1}}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_short_evidence": {"max_sentences": -1}}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_short_evidence": {"nei_threshold": 1.5}}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_short_evidence": {"contradict_ratio": 0}}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_short_evidence": {"contradict_cue": "sometimes"}}})"), UsageError);
  // The shipped configuration turns it on for evidence of one sentence.
  const auto shipped = experiment::load_config(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs" / "scifact.json");
  EXPECT_EQ(shipped.verification.options.free_text_short_evidence.max_sentences, 1u);
}

TEST(VerificationConfig, NullAgainstEffectIsOffUnlessSet) {
  EXPECT_FALSE(load("{}").verification.options.null_against_effect);
  EXPECT_TRUE(load(R"({"verification": {"null_against_effect": true}})").verification.options.null_against_effect);
  EXPECT_THROW(load(R"({"verification": {"null_against_effect": 1}})"), UsageError);
}

TEST(VerificationConfig, TheContradictCueIsAlwaysUnlessSetToAKnownRule) {
  const auto options = load("{}").verification.options;
  EXPECT_EQ(options.free_text_contradict_cue, verification::ContradictCue::always);
  EXPECT_EQ(options.free_text_conflict_cues, (std::vector<std::string>{"negation", "null_result", "direction", "number"}));
  EXPECT_FALSE(options.free_text_cue_in_every_sentence);
  const auto set = load(R"({"verification": {"free_text_contradict_cue": "cue_required", "free_text_conflict_cues": ["number"],
                                             "free_text_cue_in_every_sentence": true}})").verification.options;
  EXPECT_EQ(set.free_text_contradict_cue, verification::ContradictCue::cue_required);
  EXPECT_EQ(set.free_text_conflict_cues, std::vector<std::string>{"number"});
  EXPECT_TRUE(set.free_text_cue_in_every_sentence);
  EXPECT_THROW(load(R"({"verification": {"free_text_contradict_cue": "sometimes"}})"), UsageError);
  EXPECT_THROW(load(R"({"verification": {"free_text_conflict_cues": ["hedge"]}})"), UsageError);
}

TEST(VerificationConfig, TheFreeTextAggregationIsWholeUnlessSetToAKnownOne) {
  EXPECT_EQ(load("{}").verification.options.free_text_aggregation, verification::FreeTextAggregation::whole);
  EXPECT_EQ(load(R"({"verification": {"free_text_aggregation": "strongest_sentence"}})").verification.options.free_text_aggregation,
            verification::FreeTextAggregation::strongest_sentence);
  EXPECT_THROW(load(R"({"verification": {"free_text_aggregation": "mean"}})"), UsageError);
}
