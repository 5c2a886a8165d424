// The stacked verifier: its features are the logs of both models' distributions, its label model
// learns which model to trust from training documents, and its rationale falls back from the
// built-in verifier's sentences to the checkpoint's.

#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/verification/stacked_verifier.hpp"
#include "support/fake_verifier.hpp"

namespace claimrag::verification {
namespace {

using testing::FakeVerifier;

TEST(StackedVerifier, FeaturesAreTheLogsOfBothDistributionsFloored) {
  DocumentVerdict builtin, checkpoint;
  builtin.probabilities = {0.5, 0.25, 0.25};
  checkpoint.probabilities = {1.0, 0.0, 0.0};
  const auto features = stacked_features(builtin, checkpoint);
  ASSERT_EQ(features.size(), 6U);
  EXPECT_DOUBLE_EQ(features[0], std::log(0.5));
  EXPECT_DOUBLE_EQ(features[2], std::log(0.25));
  EXPECT_DOUBLE_EQ(features[3], 0.0);
  EXPECT_DOUBLE_EQ(features[4], std::log(1e-6));
}

LabelledInput item(const std::string& claim, Label gold) {
  LabelledInput labelled;
  labelled.input = {claim, claim, {{"d-" + claim, "t", {"one", "two"}}}};
  labelled.gold = {{gold, {}}};
  return labelled;
}

// The built-in fake is right on every claim, the checkpoint fake says the same for all: the
// stacking model must follow the built-in one.
TEST(StackedVerifier, LearnsToFollowTheInformativeModel) {
  const std::vector<LabelledInput> claims{item("s1", Label::support), item("s2", Label::support),
                                          item("c1", Label::contradict), item("c2", Label::contradict),
                                          item("n1", Label::not_enough_info), item("n2", Label::not_enough_info)};
  auto builtin = std::make_unique<FakeVerifier>();
  auto checkpoint = std::make_unique<FakeVerifier>();
  for (const auto& claim : claims) {
    const auto gold = static_cast<std::size_t>(claim.gold[0].label);
    FakeVerifier::Distribution d{0.1, 0.1, 0.1};
    d[gold] = 0.8;
    builtin->set(claim.input.claim, d);
    checkpoint->set(claim.input.claim, {0.4, 0.3, 0.3});
  }
  std::vector<VerificationInput> inputs;
  for (const auto& claim : claims) inputs.push_back(claim.input);
  const auto model = fit_stacked_label_model(claims, builtin->verify(inputs), checkpoint->verify(inputs), 1e-3);
  const auto stacked = make_stacked_verifier(std::move(builtin), std::move(checkpoint), model);
  const auto verdicts = stacked->verify(inputs);
  ASSERT_EQ(verdicts.size(), claims.size());
  for (std::size_t c = 0; c < claims.size(); ++c) {
    EXPECT_EQ(verdicts[c].documents.at(0).label, claims[c].gold[0].label) << claims[c].input.claim;
    double total = 0;
    for (const double p : verdicts[c].documents[0].probabilities) total += p;
    EXPECT_NEAR(total, 1.0, 1e-12);
  }
  EXPECT_THROW(stacked->save("/tmp/never-written"), UsageError);
  EXPECT_THROW((void)fit_stacked_label_model(claims, {}, {}, 1e-3), UsageError);
}

}  // namespace
}  // namespace claimrag::verification
