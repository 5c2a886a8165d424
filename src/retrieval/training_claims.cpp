#include "claimrag/retrieval/training_claims.hpp"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "claimrag/error.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/verification/claim_folds.hpp"

namespace claimrag::retrieval {
namespace {

double ndcg_of_order(const AbstractIndexes& indexes, const ClaimCandidates& claim, const std::vector<std::size_t>& order,
                     const std::map<std::string, int>& judgments, std::size_t cutoff) {
  std::vector<run::ScoredDocument> ranking;
  const std::size_t kept = std::min(cutoff, order.size());
  for (std::size_t r = 0; r < kept; ++r) {
    ranking.push_back({std::string(indexes.whole.doc_ids()[claim.documents[order[r]]]), static_cast<double>(kept - r)});
  }
  return metrics::ndcg_at(ranking, judgments, cutoff);
}

}  // namespace

std::vector<int> cited_abstracts(const AbstractIndexes& indexes, const TrainingClaims& claims,
                                 const std::set<std::size_t>& excluded_folds) {
  std::unordered_map<std::string_view, std::size_t> position;
  const auto& doc_ids = indexes.whole.doc_ids();
  for (std::size_t d = 0; d < indexes.document_count(); ++d) position.emplace(doc_ids[d], d);
  std::vector<int> cited(indexes.document_count(), 0);
  for (std::size_t c = 0; c < claims.ids.size(); ++c) {
    if (excluded_folds.contains(claims.folds[c])) continue;
    for (const auto& [doc_id, grade] : claims.judgments[c]) {
      // A judged abstract missing from the corpus (the statistics stage warns of them) has no row.
      const auto found = position.find(doc_id);
      if (grade > 0 && found != position.end()) cited[found->second] = 1;
    }
  }
  return cited;
}

std::vector<double> training_prior(const AbstractIndexes& indexes, const TrainingClaims& claims,
                                   const std::set<std::size_t>& excluded_folds, const AbstractPriorOptions& prior) {
  if (prior.terms == 0) return {};
  return fit_abstract_prior(abstract_prior_features(indexes, prior.terms), cited_abstracts(indexes, claims, excluded_folds),
                            prior.C);
}

TrainingClaims build_training_claims(const ClaimFeaturizer& featurizer, std::span<const dataset::Query> queries,
                                     const dataset::Qrels& qrels, std::size_t fold_count,
                                     const AbstractPriorOptions& prior) {
  TrainingClaims claims;
  claims.candidates.resize(queries.size());
  std::vector<std::vector<std::string>> documents_of_claim;
  for (const auto& query : queries) {
    const auto found = qrels.judgments.find(query.id);
    if (found == qrels.judgments.end()) throw UsageError("learned ranker: claim " + query.id + " has no judgments");
    claims.ids.push_back(query.id);
    claims.judgments.push_back(found->second);
    std::vector<std::string> judged;
    for (const auto& [doc_id, grade] : found->second) judged.push_back(doc_id);
    documents_of_claim.push_back(std::move(judged));
  }
  claims.folds = verification::family_folds(documents_of_claim, fold_count);

  const auto& indexes = featurizer.indexes();
  std::vector<std::vector<double>> fold_priors(fold_count);
  if (prior.terms > 0) {
    // Every prior the training, the cross-validation and new claims read: without fold g, without
    // f and g, and (last) with every claim.
    std::vector<std::set<std::size_t>> excluded;
    for (std::size_t g = 0; g < fold_count; ++g) excluded.push_back({g});
    for (std::size_t f = 0; f < fold_count; ++f) {
      for (std::size_t g = f + 1; g < fold_count; ++g) excluded.push_back({f, g});
    }
    excluded.emplace_back();
    const auto features = abstract_prior_features(indexes, prior.terms);
    std::vector<std::vector<double>> fitted(excluded.size());
    parallel_for(excluded.size(), [&](std::size_t k) {
      fitted[k] = fit_abstract_prior(features, cited_abstracts(indexes, claims, excluded[k]), prior.C);
    });
    claims.prior = std::move(fitted.back());
    claims.nested_priors.assign(fold_count, std::vector<std::vector<double>>(fold_count));
    for (std::size_t k = 0; k + 1 < excluded.size(); ++k) {
      const std::size_t f = *excluded[k].begin(), g = *excluded[k].rbegin();
      if (f == g) {
        fold_priors[g] = std::move(fitted[k]);
      } else {
        claims.nested_priors[f][g] = fitted[k];
        claims.nested_priors[g][f] = std::move(fitted[k]);
      }
    }
  }
  parallel_for(queries.size(), [&](std::size_t c) {
    claims.candidates[c] = featurizer.candidates(queries[c].text, fold_priors[claims.folds[c]]);
  });
  const auto& doc_ids = indexes.whole.doc_ids();
  for (std::size_t c = 0; c < queries.size(); ++c) {
    std::vector<int> labels;
    for (const auto d : claims.candidates[c].documents) {
      const auto grade = claims.judgments[c].find(std::string(doc_ids[d]));
      labels.push_back(grade != claims.judgments[c].end() && grade->second > 0 ? 1 : 0);
    }
    claims.labels.push_back(std::move(labels));
  }
  return claims;
}

run::Ranking ranked(const LearnedRanker& ranker, const AbstractIndexes& indexes, std::string query_id,
                    const ClaimCandidates& claim, std::size_t depth) {
  std::vector<double> scores;
  const auto order = rank_candidates(ranker, claim, &scores);
  run::Ranking ranking{std::move(query_id), {}};
  for (std::size_t r = 0; r < std::min(depth, order.size()); ++r) {
    ranking.documents.push_back({std::string(indexes.whole.doc_ids()[claim.documents[order[r]]]), scores[order[r]]});
  }
  return ranking;
}

std::vector<double> cross_validated_ndcg(const TrainingClaims& claims, const AbstractIndexes& indexes,
                                         const LearnedRankerOptions& options, std::size_t cutoff) {
  const std::size_t fold_count = claims.folds.empty() ? 0 : *std::max_element(claims.folds.begin(), claims.folds.end()) + 1;
  std::vector<double> ndcg(claims.ids.size(), 0.0);
  for (std::size_t fold = 0; fold < fold_count; ++fold) {
    std::vector<ClaimCandidates> train_candidates;
    std::vector<std::vector<int>> train_labels;
    for (std::size_t c = 0; c < claims.ids.size(); ++c) {
      if (claims.folds[c] == fold) continue;
      train_candidates.push_back(claims.candidates[c]);
      train_labels.push_back(claims.labels[c]);
      if (claims.nested_priors.empty()) continue;
      const auto& prior = claims.nested_priors[fold][claims.folds[c]];
      auto& copy = train_candidates.back();
      for (std::size_t i = 0; i < copy.documents.size(); ++i) copy.features[i][kAbstractPriorColumn] = prior[copy.documents[i]];
    }
    const auto ranker = train_learned_ranker(train_candidates, train_labels, options);
    for (std::size_t c = 0; c < claims.ids.size(); ++c) {
      if (claims.folds[c] != fold) continue;
      ndcg[c] = ndcg_of_order(indexes, claims.candidates[c], rank_candidates(ranker, claims.candidates[c]),
                              claims.judgments[c], cutoff);
    }
  }
  return ndcg;
}

std::vector<double> single_feature_ndcg(const TrainingClaims& claims, const AbstractIndexes& indexes,
                                        std::size_t column, std::size_t cutoff) {
  if (column >= kClaimFeatureCount) throw UsageError("single_feature_ndcg: no feature column " + std::to_string(column));
  std::vector<double> ndcg;
  for (std::size_t c = 0; c < claims.ids.size(); ++c) {
    const auto& candidates = claims.candidates[c];
    std::vector<std::size_t> order(candidates.documents.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return candidates.features[a][column] > candidates.features[b][column];
    });
    ndcg.push_back(ndcg_of_order(indexes, candidates, order, claims.judgments[c], cutoff));
  }
  return ndcg;
}

}  // namespace claimrag::retrieval
