// Fusion of probe answers (the seed's equations 1-19) on hand-computed cases.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/interrogation/fusion.hpp"

namespace ci = claimrag::interrogation;
using ci::Answer;
using ci::ProbeSet;

namespace {

constexpr double tight = 1e-12;

void add(std::vector<ci::ProbeAnswer>& answers, ProbeSet set, Answer answer, int times) {
  for (int i = 0; i < times; ++i) answers.push_back({set, answer});
}

// The running example. P_AG: 6 Support, 3 Refute, 1 Neutral -> (0.6, 0.3, 0.1).
// P_CF as answered: 2 Support, 6 Refute, 2 Neutral; inverted: 6 S, 2 R, 2 N -> (0.6, 0.2, 0.2).
std::vector<ci::ProbeAnswer> example() {
  std::vector<ci::ProbeAnswer> answers;
  add(answers, ProbeSet::agree, Answer::support, 6);
  add(answers, ProbeSet::agree, Answer::refute, 3);
  add(answers, ProbeSet::agree, Answer::neutral, 1);
  add(answers, ProbeSet::conflict, Answer::support, 2);
  add(answers, ProbeSet::conflict, Answer::refute, 6);
  add(answers, ProbeSet::conflict, Answer::neutral, 2);
  return answers;
}

}  // namespace

TEST(InterrogationFusion, TallyInvertsConflictAnswers) {
  const auto counted = ci::tally(example());
  EXPECT_EQ(counted.agree.counts, (std::array<std::size_t, 3>{6, 3, 1}));
  EXPECT_EQ(counted.conflict.counts, (std::array<std::size_t, 3>{6, 2, 2}));
}

TEST(InterrogationFusion, WeightedProportionsByHand) {
  // alpha = 0.7:
  // WP_S = 0.7 * 0.6 + 0.3 * 0.6 = 0.42 + 0.18 = 0.60
  // WP_R = 0.7 * 0.3 + 0.3 * 0.2 = 0.21 + 0.06 = 0.27
  // WP_N = 0.7 * 0.1 + 0.3 * 0.2 = 0.07 + 0.06 = 0.13   -> V = Support, CS = 0.60
  const auto wp = ci::weighted_proportions(ci::tally(example()), 0.7);
  EXPECT_EQ(wp.verdict, Answer::support);
  EXPECT_NEAR(wp.scores[0], 0.60, tight);
  EXPECT_NEAR(wp.scores[1], 0.27, tight);
  EXPECT_NEAR(wp.scores[2], 0.13, tight);
  EXPECT_NEAR(wp.confidence, 0.60, tight);
}

TEST(InterrogationFusion, WeightedInformationGainByHand) {
  // E_AG = -(0.6 ln 0.6 + 0.3 ln 0.3 + 0.1 ln 0.1) = 0.306495 + 0.361192 + 0.230259 = 0.897946
  // E_CF = -(0.6 ln 0.6 + 2 * 0.2 ln 0.2)           = 0.306495 + 0.643775            = 0.950270
  // IG_AG = ln 3 - E_AG = 1.098612 - 0.897946 = 0.200666;  IG_CF = 1.098612 - 0.950270 = 0.148342
  // alpha = 0.7:
  // WIG_S = 0.7 * 0.200666 * 0.6 + 0.3 * 0.148342 * 0.6 = 0.084280 + 0.026702 = 0.110982
  // WIG_R = 0.7 * 0.200666 * 0.3 + 0.3 * 0.148342 * 0.2 = 0.042140 + 0.008901 = 0.051040
  // WIG_N = 0.7 * 0.200666 * 0.1 + 0.3 * 0.148342 * 0.2 = 0.014047 + 0.008901 = 0.022947
  const auto wig = ci::weighted_information_gain(ci::tally(example()), 0.7);
  const double e_ag = -(0.6 * std::log(0.6) + 0.3 * std::log(0.3) + 0.1 * std::log(0.1));
  const double e_cf = -(0.6 * std::log(0.6) + 0.4 * std::log(0.2));
  EXPECT_NEAR(wig.entropy_agree, e_ag, tight);
  EXPECT_NEAR(wig.entropy_conflict, e_cf, tight);
  EXPECT_NEAR(wig.entropy_agree, 0.897946, 1e-6);
  EXPECT_NEAR(wig.entropy_conflict, 0.950270, 1e-6);
  EXPECT_NEAR(wig.gain_agree, 0.200666, 1e-6);
  EXPECT_NEAR(wig.gain_conflict, 0.148342, 1e-6);
  EXPECT_EQ(wig.fused.verdict, Answer::support);
  const double ig_ag = std::log(3.0) - e_ag;
  const double ig_cf = std::log(3.0) - e_cf;
  EXPECT_NEAR(wig.fused.scores[0], 0.7 * ig_ag * 0.6 + 0.3 * ig_cf * 0.6, tight);
  EXPECT_NEAR(wig.fused.scores[1], 0.7 * ig_ag * 0.3 + 0.3 * ig_cf * 0.2, tight);
  EXPECT_NEAR(wig.fused.scores[2], 0.7 * ig_ag * 0.1 + 0.3 * ig_cf * 0.2, tight);
  EXPECT_NEAR(wig.fused.scores[0], 0.110982, 1e-6);
  EXPECT_NEAR(wig.fused.scores[1], 0.051040, 1e-6);
  EXPECT_NEAR(wig.fused.scores[2], 0.022947, 1e-6);
  EXPECT_EQ(wig.fused.confidence, wig.fused.scores[0]);
}

TEST(InterrogationFusion, EntropyOfCertainAndUniformDistributions) {
  EXPECT_EQ(ci::entropy({1.0, 0.0, 0.0}), 0.0);
  EXPECT_NEAR(ci::entropy({1.0 / 3, 1.0 / 3, 1.0 / 3}), std::log(3.0), tight);
}

TEST(InterrogationFusion, WeightedBeliefUpdateByHand) {
  // Table 1, alpha = 0.7: m_AG = (0.6, 0.3, 0.1);
  // m_CF = (0.7 * 0.6, 0.7 * 0.2, 0.2 + 0.3 * (0.6 + 0.2)) = (0.42, 0.14, 0.44)
  // unnormalised S = 0.6*0.42 + 0.6*0.44 + 0.1*0.42 = 0.252 + 0.264 + 0.042 = 0.558
  //              R = 0.3*0.14 + 0.3*0.44 + 0.1*0.14 = 0.042 + 0.132 + 0.014 = 0.188
  //              N = 0.1*0.44 = 0.044
  // K = 0.3*0.42 + 0.6*0.14 = 0.126 + 0.084 = 0.210; 1 - K = 0.79 = 0.558 + 0.188 + 0.044
  // m = (0.558, 0.188, 0.044) / 0.79 = (0.706329, 0.237975, 0.055696) -> V = Support
  const auto wbu = ci::weighted_belief_update(ci::tally(example()), 0.7);
  EXPECT_NEAR(wbu.mass_agree[0], 0.6, tight);
  EXPECT_NEAR(wbu.mass_conflict[0], 0.42, tight);
  EXPECT_NEAR(wbu.mass_conflict[1], 0.14, tight);
  EXPECT_NEAR(wbu.mass_conflict[2], 0.44, tight);
  EXPECT_NEAR(wbu.conflict, 0.21, tight);
  EXPECT_FALSE(wbu.total_conflict);
  EXPECT_EQ(wbu.fused.verdict, Answer::support);
  EXPECT_NEAR(wbu.fused.scores[0], 0.558 / 0.79, tight);
  EXPECT_NEAR(wbu.fused.scores[1], 0.188 / 0.79, tight);
  EXPECT_NEAR(wbu.fused.scores[2], 0.044 / 0.79, tight);
  EXPECT_NEAR(wbu.fused.confidence, 0.706329, 1e-6);
}

TEST(InterrogationFusion, BeliefUpdateAtTotalConflictIsVacuous) {
  // P_AG all Support; P_CF all answered Support, inverted all Refute. alpha = 1: m_CF = (0, 1, 0).
  // K = m_AG(R) m_CF(S) + m_AG(S) m_CF(R) = 0 + 1 * 1 = 1: Dempster's rule undefined -> m(N) = 1.
  std::vector<ci::ProbeAnswer> answers;
  add(answers, ProbeSet::agree, Answer::support, 4);
  add(answers, ProbeSet::conflict, Answer::support, 4);
  const auto wbu = ci::weighted_belief_update(ci::tally(answers), 1.0);
  EXPECT_TRUE(wbu.total_conflict);
  EXPECT_EQ(wbu.conflict, 1.0);
  EXPECT_EQ(wbu.fused.verdict, Answer::neutral);
  EXPECT_EQ(wbu.fused.scores, (std::array<double, 3>{0.0, 0.0, 1.0}));
  // alpha = 0.5: m_CF = (0, 0.5, 0.5); S = 1 * 0.5 = 0.5, R = N = 0, K = 0.5 -> m(S) = 0.5 / 0.5 = 1.
  const auto discounted = ci::weighted_belief_update(ci::tally(answers), 0.5);
  EXPECT_FALSE(discounted.total_conflict);
  EXPECT_EQ(discounted.conflict, 0.5);
  EXPECT_EQ(discounted.fused.verdict, Answer::support);
  EXPECT_EQ(discounted.fused.confidence, 1.0);
}

TEST(InterrogationFusion, AnEmptySetGivesItsWeightToTheOther) {
  // Agree answers only, (0.6, 0.3, 0.1): whatever alpha, WP = (0.6, 0.3, 0.1) and WBU = m_AG.
  std::vector<ci::ProbeAnswer> answers;
  add(answers, ProbeSet::agree, Answer::support, 6);
  add(answers, ProbeSet::agree, Answer::refute, 3);
  add(answers, ProbeSet::agree, Answer::neutral, 1);
  const auto counted = ci::tally(answers);
  const auto wp = ci::weighted_proportions(counted, 0.2);
  EXPECT_NEAR(wp.scores[0], 0.6, tight);
  EXPECT_NEAR(wp.scores[1], 0.3, tight);
  EXPECT_NEAR(wp.scores[2], 0.1, tight);
  const auto wbu = ci::weighted_belief_update(counted, 0.2);
  EXPECT_EQ(wbu.mass_conflict, (std::array<double, 3>{0.0, 0.0, 1.0}));
  EXPECT_NEAR(wbu.fused.scores[0], 0.6, tight);
  EXPECT_NEAR(wbu.fused.scores[1], 0.3, tight);
  EXPECT_EQ(wbu.conflict, 0.0);
}

TEST(InterrogationFusion, TiesGoToNeutralThenSupport) {
  std::vector<ci::ProbeAnswer> split;  // (0.5, 0.5, 0): Support and Refute tie -> Support
  add(split, ProbeSet::agree, Answer::support, 1);
  add(split, ProbeSet::agree, Answer::refute, 1);
  EXPECT_EQ(ci::weighted_proportions(ci::tally(split), 0.5).verdict, Answer::support);
  std::vector<ci::ProbeAnswer> even;  // (1/3, 1/3, 1/3) -> Neutral; WIG is all zero -> Neutral
  add(even, ProbeSet::agree, Answer::support, 1);
  add(even, ProbeSet::agree, Answer::refute, 1);
  add(even, ProbeSet::agree, Answer::neutral, 1);
  EXPECT_EQ(ci::weighted_proportions(ci::tally(even), 0.5).verdict, Answer::neutral);
  const auto wig = ci::weighted_information_gain(ci::tally(even), 0.5);
  EXPECT_EQ(wig.fused.verdict, Answer::neutral);
  EXPECT_NEAR(wig.fused.confidence, 0.0, tight);
}

TEST(InterrogationFusion, MetaVerdictOfTheExample) {
  // All three say Support. Norm: CS_WP = 0.6; CS_WIG / ln 3 = 0.110982 / 1.098612 = 0.101021;
  // CS_WBU = 0.706329. CS_M = (0.6 + 0.101021 + 0.706329) / 3 = 0.469117.
  const auto fused = ci::fuse(example(), 0.7);
  EXPECT_EQ(fused.meta.verdict, Answer::support);
  EXPECT_NEAR(fused.meta.normalised[1], fused.wig.fused.confidence / std::log(3.0), tight);
  EXPECT_NEAR(fused.meta.confidence, (0.6 + fused.wig.fused.confidence / std::log(3.0) + 0.558 / 0.79) / 3.0, tight);
  EXPECT_NEAR(fused.meta.confidence, 0.469117, 1e-6);
}

TEST(InterrogationFusion, MetaVerdictMajorityAndThreeWayTie) {
  ci::Fused wp{Answer::support, 0.5, {}};
  ci::InformationGain wig;
  wig.fused = {Answer::refute, 0.9, {}};
  ci::BeliefUpdate wbu;
  wbu.fused = {Answer::neutral, 0.6, {}};
  // All differ: normalised (0.5, 0.9 / ln 3 = 0.819213, 0.6): WIG is the most confident -> Refute.
  auto meta = ci::meta_verdict(wp, wig, wbu);
  EXPECT_EQ(meta.verdict, Answer::refute);
  EXPECT_NEAR(meta.confidence, (0.5 + 0.9 / std::log(3.0) + 0.6) / 3.0, tight);
  // Two of three say Neutral -> Neutral, whatever the confidences.
  wp.verdict = Answer::neutral;
  meta = ci::meta_verdict(wp, wig, wbu);
  EXPECT_EQ(meta.verdict, Answer::neutral);
  // A tie in confidence goes to the first of WP, WIG, WBU: 0.9 / ln 3 vs 0.9 / ln 3 -> WP's Support.
  wp = {Answer::support, 0.9 / std::log(3.0), {}};
  meta = ci::meta_verdict(wp, wig, wbu);
  EXPECT_EQ(meta.verdict, Answer::support);
}

TEST(InterrogationFusion, AlphaOutsideTheUnitIntervalIsAUsageError) {
  const auto counted = ci::tally(example());
  EXPECT_THROW(ci::weighted_proportions(counted, -0.1), claimrag::UsageError);
  EXPECT_THROW(ci::weighted_information_gain(counted, 1.5), claimrag::UsageError);
  EXPECT_THROW(ci::weighted_belief_update(counted, std::nan("")), claimrag::UsageError);
  EXPECT_THROW(ci::fuse(example(), 2.0), claimrag::UsageError);
}
