#pragma once
// Pair scores and the set features SURE-RAG aggregates (its Table I), for one claim and its
// passages. A pair score is the 3-way verifier's distribution p_i = (support, refute, neutral)
// for (claim, passage i) plus the passage's lexical overlap with the claim (claim_overlap).
//
// Features, in this order, by block (argmax ties go to the first of support, refute, neutral):
//  coverage    claim_supported, claim_refuted: 1 when some passage's argmax is support (refute):
//              the fraction of the answer's claims so covered, with one claim per example;
//              support_share, refute_share: fractions of passages by argmax.
//  relation    max_support, max_refute, mean_neutral, second_support (the second-largest support,
//              0 with one passage: a rationale spread over two passages needs both), max_rationale
//              and second_rationale (the same for the verifier's rationale-selector probability).
//  uncertainty mean_entropy: mean of H(p_i)/ln 3; disagreement: (H(mean p) − mean H(p_i))/ln 3,
//              how much the passages disagree; conflict: min(max_support, max_refute).
//  retrieval   lexical_top1, lexical_margin (top − second overlap), lexical_verifier_agreement
//              (1 when the most overlapping passage is the verifier's least neutral one): the
//              benchmark's passages carry no retrieval run, so the block is lexical, per example.
// An empty evidence set gives claim/share/max features 0, mean_neutral 1 and everything else 0.

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace claimrag::sufficiency {

/// The verifier's distribution, its rationale score and the lexical overlap of one (claim, passage) pair.
struct PairScore {
  double support = 0, refute = 0, neutral = 1;
  double rationale = 0;  ///< the verifier's rationale-selector probability, best sentence of the passage
  double overlap = 0;
};

inline constexpr std::size_t kFeatureCount = 16;
using SetFeatures = std::array<double, kFeatureCount>;

enum class FeatureBlock : int { coverage = 0, relation = 1, uncertainty = 2, retrieval = 3 };
inline constexpr std::size_t kFeatureBlocks = 4;

/// Feature names in order ("claim_supported", ...).
std::span<const std::string_view, kFeatureCount> feature_names();
/// The block of each feature.
FeatureBlock feature_block(std::size_t feature);
std::string_view block_name(FeatureBlock block);  ///< "coverage", "relation", "uncertainty", "retrieval"

/// Index of a named feature; InternalError for an unknown name.
std::size_t feature_index(std::string_view name);

/// The features of one evidence set (pairs in passage order; may be empty).
SetFeatures set_features(std::span<const PairScore> pairs);

/// The documented uncertainty u of SURE's selective score s = P(Supported) − β·u: the mean of
/// H(π)/ln 3 (π the aggregator's distribution), disagreement, conflict and the coverage deficit
/// 1 − claim_supported. In [0, 1].
double selective_uncertainty(const SetFeatures& features, std::span<const double, 3> pi);

}  // namespace claimrag::sufficiency
