// Labels the user declares for a checker whose config.json does not name them as NLI labels:
// which declarations map to what, which are refused, and a two-label checkpoint read with
// `unsupported, supported` giving P(SUPPORT) = P(supported) and P(NOT_ENOUGH_INFO) the rest.

#include <gtest/gtest.h>

#include <fstream>

#include "checkpoint_editing.hpp"
#include "claimrag/error.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"

namespace claimrag::verification {
namespace {

using claimrag::testing::error_of;
using claimrag::testing::expect_contains;

TEST(DeclaredLabels, SupportedAndUnsupportedMapInIdOrder) {
  EXPECT_EQ(map_declared_labels({"unsupported", "supported"}), (std::vector<Label>{Label::not_enough_info, Label::support}));
  EXPECT_EQ(map_declared_labels({"Supported", "not_entailment"}), (std::vector<Label>{Label::support, Label::not_enough_info}));
  EXPECT_EQ(map_declared_labels({"neutral", "entailment", "CONTRADICTION"}),
            (std::vector<Label>{Label::not_enough_info, Label::support, Label::contradict}));
}

TEST(DeclaredLabels, WhatIsNoLabelSetIsRefusedListingIt) {
  for (const std::vector<std::string>& declared : std::vector<std::vector<std::string>>{
           {"supported", "supported"}, {"maybe", "supported"}, {"supported"}, {"unsupported", "supported", "neutral"}}) {
    const auto message = error_of<UsageError>([&] { (void)map_declared_labels(declared); });
    expect_contains(message, "'" + declared[0] + "'");
  }
}

TEST(DeclaredLabels, UndeclaredNamesStayRefusedAndADeclarationMustFitTheHead) {
  const std::vector<std::string> minicheck{"LABEL_0", "LABEL_1"};
  expect_contains(error_of<DataError>([&] { (void)checkpoint_labels(minicheck, "m/config.json", {}); }), "'LABEL_0'");
  // supported / unsupported are the user's words, not config.json's: undeclared, they are refused too.
  EXPECT_THROW((void)map_nli_labels({"unsupported", "supported"}, "m/config.json"), DataError);
  EXPECT_EQ(checkpoint_labels(minicheck, "m/config.json", {"unsupported", "supported"}),
            (std::vector<Label>{Label::not_enough_info, Label::support}));
  const auto message =
      error_of<UsageError>([&] { (void)checkpoint_labels(minicheck, "m/config.json", {"contradiction", "entailment", "neutral"}); });
  expect_contains(message, "name 3, but the head of m/config.json has 2");
}

TEST(DeclaredLabels, ATwoLabelCheckerGivesSupportToSupportedAndNeverContradicts) {
  testing::TempFolder temp;
  // roberta-classifier-bf16 says entailment (id 0), not_entailment (id 1); the copy says LABEL_0, LABEL_1.
  const auto original_folder = testing::fixture_checkpoint("roberta-classifier-bf16");
  const auto folder = testing::copy_checkpoint(temp, "roberta-classifier-bf16");
  auto config = nlohmann::json::parse(io::read_file(folder / "config.json"));
  config["id2label"] = {{"0", "LABEL_0"}, {"1", "LABEL_1"}};
  config["label2id"] = {{"LABEL_0", 0}, {"LABEL_1", 1}};
  std::ofstream(folder / "config.json", std::ios::trunc) << config.dump(2);
  EXPECT_THROW(NliCheckpoint{folder}, DataError);

  const NliCheckpoint original(original_folder);
  const NliCheckpoint declared(folder, {"supported", "unsupported"});
  const NliCheckpoint swapped(folder, {"unsupported", "supported"});
  const std::vector<pretrained::TextInput> pairs{{"the drug reduces risk of cancer", "the drug reduces risk"},
                                                 {"a cat sat on the mat", "the dog ran"}};
  std::vector<std::size_t> truncated;
  const auto by_name = original.judge(pairs, {}, truncated);
  const auto same = declared.judge(pairs, {}, truncated);
  const auto reversed = swapped.judge(pairs, {}, truncated);
  const auto s = static_cast<std::size_t>(Label::support), c = static_cast<std::size_t>(Label::contradict),
             n = static_cast<std::size_t>(Label::not_enough_info);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(same[i], by_name[i]);
    // id 1 is now "supported": P(SUPPORT) is what the original called not_entailment.
    EXPECT_EQ(reversed[i][s], by_name[i][n]);
    EXPECT_EQ(reversed[i][n], by_name[i][s]);
    EXPECT_EQ(reversed[i][c], 0.0);
  }
}

}  // namespace
}  // namespace claimrag::verification
