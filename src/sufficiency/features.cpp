#include "claimrag/sufficiency/features.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "claimrag/error.hpp"

namespace claimrag::sufficiency {
namespace {

constexpr std::array<std::string_view, kFeatureCount> kNames{
    "claim_supported", "claim_refuted",  "support_share", "refute_share",   "max_support",
    "max_refute",      "mean_neutral",   "second_support", "max_rationale", "second_rationale",
    "mean_entropy",    "disagreement",
    "conflict",        "lexical_top1",   "lexical_margin", "lexical_verifier_agreement"};

const double kLog3 = std::log(3.0);

double entropy(double a, double b, double c) {
  double h = 0;
  for (const double p : {a, b, c}) {
    if (p > 0) h -= p * std::log(p);
  }
  return h;
}

int arg_max(const PairScore& p) {
  if (p.support >= p.refute && p.support >= p.neutral) return 0;
  if (p.refute >= p.neutral) return 1;
  return 2;
}

}  // namespace

std::span<const std::string_view, kFeatureCount> feature_names() { return kNames; }

FeatureBlock feature_block(std::size_t feature) {
  if (feature < 4) return FeatureBlock::coverage;
  if (feature < 10) return FeatureBlock::relation;
  if (feature < 13) return FeatureBlock::uncertainty;
  if (feature < kFeatureCount) return FeatureBlock::retrieval;
  throw InternalError("feature_block: index out of range");
}

std::string_view block_name(FeatureBlock block) {
  switch (block) {
    case FeatureBlock::coverage: return "coverage";
    case FeatureBlock::relation: return "relation";
    case FeatureBlock::uncertainty: return "uncertainty";
    case FeatureBlock::retrieval: return "retrieval";
  }
  throw InternalError("unknown feature block");
}

std::size_t feature_index(std::string_view name) {
  for (std::size_t i = 0; i < kFeatureCount; ++i) {
    if (kNames[i] == name) return i;
  }
  throw InternalError("unknown sufficiency feature " + std::string(name));
}

SetFeatures set_features(std::span<const PairScore> pairs) {
  SetFeatures f{};
  if (pairs.empty()) {
    f[6] = 1.0;  // mean_neutral: nothing speaks for or against the claim
    return f;
  }
  const auto m = static_cast<double>(pairs.size());
  double supported = 0, refuted = 0, top_support = 0, second_support = 0, top_refute = 0;
  double neutral_sum = 0, entropy_sum = 0, mean_s = 0, mean_r = 0;
  double top_rationale = 0, second_rationale = 0;
  double top_overlap = -1, second_overlap = -1, least_neutral = 2;
  std::size_t most_overlapping = 0, least_neutral_at = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const PairScore& p = pairs[i];
    const int top = arg_max(p);
    supported += top == 0 ? 1 : 0;
    refuted += top == 1 ? 1 : 0;
    if (p.support > top_support) {
      second_support = top_support;
      top_support = p.support;
    } else if (p.support > second_support) {
      second_support = p.support;
    }
    top_refute = std::max(top_refute, p.refute);
    if (p.rationale > top_rationale) {
      second_rationale = top_rationale;
      top_rationale = p.rationale;
    } else if (p.rationale > second_rationale) {
      second_rationale = p.rationale;
    }
    neutral_sum += p.neutral;
    entropy_sum += entropy(p.support, p.refute, p.neutral);
    mean_s += p.support / m;
    mean_r += p.refute / m;
    if (p.overlap > top_overlap) {
      second_overlap = top_overlap;
      top_overlap = p.overlap;
      most_overlapping = i;
    } else if (p.overlap > second_overlap) {
      second_overlap = p.overlap;
    }
    if (p.neutral < least_neutral) least_neutral = p.neutral, least_neutral_at = i;
  }
  const double mean_n = neutral_sum / m;
  const double mean_entropy = entropy_sum / m;
  f[0] = supported > 0 ? 1.0 : 0.0;
  f[1] = refuted > 0 ? 1.0 : 0.0;
  f[2] = supported / m;
  f[3] = refuted / m;
  f[4] = top_support;
  f[5] = top_refute;
  f[6] = mean_n;
  f[7] = second_support;
  f[8] = top_rationale;
  f[9] = second_rationale;
  f[10] = mean_entropy / kLog3;
  f[11] = std::max(0.0, entropy(mean_s, mean_r, mean_n) - mean_entropy) / kLog3;
  f[12] = std::min(top_support, top_refute);
  f[13] = top_overlap;
  f[14] = pairs.size() > 1 ? top_overlap - second_overlap : 0.0;
  f[15] = most_overlapping == least_neutral_at ? 1.0 : 0.0;
  return f;
}

double selective_uncertainty(const SetFeatures& features, std::span<const double, 3> pi) {
  const double h = entropy(pi[0], pi[1], pi[2]) / kLog3;
  return (h + features[11] + features[12] + (1.0 - features[0])) / 4.0;
}

}  // namespace claimrag::sufficiency
