#include "claimrag/verification/label_features.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/text/relation_features.hpp"
#include "claimrag/verification/rationale_selection.hpp"

namespace claimrag::verification {

const std::vector<std::string>& label_feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n{"selector_max",     "selector_top3",    "selector_count_capped",
                               "selected_cosine",  "selected_jaccard", "selected_coverage",
                               "retrieved",        "inverse_rank",     "retrieval_score"};
    for (const auto name : text::relation_feature_names()) n.push_back("relation_" + std::string(name));
    return n;
  }();
  return names;
}

const std::vector<std::string>& claim_only_feature_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (int b = 0; b < 32; ++b) n.push_back("claim_hash_" + std::to_string(b));
    n.push_back("claim_length");
    return n;
  }();
  return names;
}

std::vector<double> claim_only_features(const ClaimText& claim) {
  std::vector<double> row(33, 0.0);
  for (const auto& token : claim.tokens) row[io::xxh64(token) % 32] = 1.0;
  row[32] = std::log1p(static_cast<double>(claim.tokens.size()));
  return row;
}

std::vector<double> label_features(const std::string& claim_text, const ClaimText& claim, const DocumentText& document,
                                   const EvidenceDocument& source,
                                   const std::vector<double>& probabilities, const std::vector<std::size_t>& rationale,
                                   double tau, const text::RelationFeatureOptions& relation_options) {
  const std::vector<std::size_t> top = best_sentences(probabilities, 3);
  double top_mean = 0;
  for (const std::size_t s : top) top_mean += probabilities[s];
  if (!top.empty()) top_mean /= static_cast<double>(top.size());
  // Capped: more sentences that support the claim (or one repeated) must not read as something
  // else than the few a SciFact abstract holds; uncapped, this count outgrew everything seen in
  // training and flipped long supporting evidence to CONTRADICT.
  const auto reaching = std::count_if(probabilities.begin(), probabilities.end(), [&](double p) { return p >= tau; });
  const auto count = static_cast<double>(std::min<std::ptrdiff_t>(reaching, kSelectedCountCap));
  double cosine = 0, jaccard = 0;
  std::vector<const text::TokenSet*> parts;
  for (const std::size_t s : rationale) {
    cosine = std::max(cosine, document.cosines[s]);
    jaccard = std::max(jaccard, text::jaccard(claim.tokens, document.tokens(s)));
    parts.push_back(&document.tokens(s));
  }
  const bool retrieved = source.retrieval_rank > 0;
  std::string rationale_text;
  // Each distinct sentence once: evidence that repeats a sentence says no more than it once did.
  std::vector<const std::string*> joined;
  for (const std::size_t s : rationale) {
    const std::string& sentence = source.sentences[s];
    if (std::any_of(joined.begin(), joined.end(), [&](const std::string* j) { return *j == sentence; })) continue;
    joined.push_back(&sentence);
    rationale_text += (rationale_text.empty() ? "" : " ") + sentence;
  }
  std::vector<double> row{top.empty() ? 0.0 : probabilities[top.front()],
          top_mean,
          count,
          cosine,
          jaccard,
          claim_coverage(claim.tokens, parts),
          retrieved ? 1.0 : 0.0,
          retrieved ? 1.0 / static_cast<double>(source.retrieval_rank) : 0.0,
          retrieved ? std::log1p(std::max(0.0, source.retrieval_score)) : 0.0};
  const std::vector<double> relation = text::relation_features(claim_text, rationale_text, relation_options);
  row.insert(row.end(), relation.begin(), relation.end());
  return row;
}

namespace {

/// A label_features row's relation feature.
double relation_of(const std::vector<double>& label_row, text::RelationFeature feature) {
  const std::size_t first = label_feature_names().size() - text::kRelationFeatureCount;
  return label_row.at(first + static_cast<std::size_t>(feature));
}

}  // namespace

std::span<const std::string_view, 4> conflict_cue_names() {
  static constexpr std::array<std::string_view, 4> names{"negation", "null_result", "direction", "number"};
  return names;
}

std::vector<std::string_view> relation_conflict_cues(std::span<const double> relation) {
  using text::RelationFeature;
  const auto value = [&](RelationFeature feature) { return relation[static_cast<std::size_t>(feature)]; };
  const bool present[] = {value(RelationFeature::negation_mismatch) > 0, value(RelationFeature::null_mismatch) > 0,
                          value(RelationFeature::polarity_agreement) < 0, value(RelationFeature::claim_numbers_missing) > 0};
  std::vector<std::string_view> cues;
  for (std::size_t k = 0; k < conflict_cue_names().size(); ++k) {
    if (present[k]) cues.push_back(conflict_cue_names()[k]);
  }
  return cues;
}

std::vector<std::string_view> conflict_cues(const std::vector<double>& label_row) {
  const std::size_t first = label_feature_names().size() - text::kRelationFeatureCount;
  if (label_row.size() < first + text::kRelationFeatureCount) throw InternalError("conflict_cues: the row holds no relation features");
  return relation_conflict_cues(std::span<const double>(label_row).subspan(first, text::kRelationFeatureCount));
}

double null_against_effect(const std::vector<double>& label_row) {
  using text::RelationFeature;
  const auto relation = [&](RelationFeature feature) { return relation_of(label_row, feature); };
  const bool claim_asserts_effect = relation(RelationFeature::claim_polarity) != 0 &&
                                    relation(RelationFeature::claim_negation_count) == 0 &&
                                    relation(RelationFeature::claim_null_count) == 0;
  return claim_asserts_effect && relation(RelationFeature::evidence_null_count) > 0 ? 1.0 : 0.0;
}

}  // namespace claimrag::verification
