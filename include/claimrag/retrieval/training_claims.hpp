#pragma once
// The judged claims a learned ranker is trained and cross-validated on: each claim's candidates,
// their 0/1 labels from the qrels, and the fold of each claim, grouped by cited abstract
// (verification/claim_folds.hpp: claims sharing a judged abstract, transitively, share a fold).
// A claim's abstract_prior column comes from the prior fitted without its fold (out of fold): the
// prior of an abstract its own claim cites is then what an unseen claim would find, so the ranker
// learns how far to trust the prior on abstracts the prior was not taught. The cross-validation
// goes one step further: while fold f is held out, the rows of a claim of fold g are read with the
// prior fitted without f and g, so that no label of fold f reaches the ranker that scores it.
#include <cstddef>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/retrieval/abstract_prior.hpp"
#include "claimrag/retrieval/claim_features.hpp"
#include "claimrag/retrieval/learned_ranker.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::retrieval {

struct TrainingClaims {
  std::vector<std::string> ids;
  std::vector<ClaimCandidates> candidates;
  std::vector<std::vector<int>> labels;                    ///< per claim, per candidate
  std::vector<std::map<std::string, int>> judgments;       ///< per claim, its qrels
  std::vector<std::size_t> folds;                          ///< per claim
  /// nested_priors[f][g]: the prior fitted without folds f and g, per abstract, for the rows of
  /// fold g's claims while fold f is held out (f ≠ g); empty without a prior.
  std::vector<std::vector<std::vector<double>>> nested_priors;
  /// The prior fitted on every claim, per abstract, for new claims; empty without a prior.
  std::vector<double> prior;
};

/// Candidates of every claim of `queries` (each judged in `qrels`, else UsageError naming it),
/// computed in parallel (the result does not depend on the thread count), labelled from the
/// qrels, with `fold_count` family folds. With prior.terms = 0 the abstract_prior column is 0.
TrainingClaims build_training_claims(const ClaimFeaturizer& featurizer, std::span<const dataset::Query> queries,
                                     const dataset::Qrels& qrels, std::size_t fold_count,
                                     const AbstractPriorOptions& prior);

/// 1 for each abstract of `indexes` judged relevant to a claim of `claims` outside the folds
/// `excluded_folds` (none: every claim counts), else 0.
std::vector<int> cited_abstracts(const AbstractIndexes& indexes, const TrainingClaims& claims,
                                 const std::set<std::size_t>& excluded_folds);

/// The prior of every abstract fitted on the abstracts the claims outside `excluded_folds` cite;
/// empty when prior.terms = 0.
std::vector<double> training_prior(const AbstractIndexes& indexes, const TrainingClaims& claims,
                                   const std::set<std::size_t>& excluded_folds, const AbstractPriorOptions& prior);

/// The ranking of `claim` as a run ranking (document ids of the featurizer's corpus), best
/// first, cut to `depth`; scores are the ranker's decision values.
run::Ranking ranked(const LearnedRanker& ranker, const AbstractIndexes& indexes, std::string query_id,
                    const ClaimCandidates& claim, std::size_t depth);

/// nDCG@cutoff of every claim ranked by a ranker trained on the other folds (one fit per fold).
std::vector<double> cross_validated_ndcg(const TrainingClaims& claims, const AbstractIndexes& indexes,
                                         const LearnedRankerOptions& options, std::size_t cutoff = 10);

/// nDCG@cutoff of every claim with its candidates ordered by one feature column alone (ties to
/// the smaller corpus position): the first-stage runs' baselines on the same claims.
std::vector<double> single_feature_ndcg(const TrainingClaims& claims, const AbstractIndexes& indexes,
                                        std::size_t column, std::size_t cutoff = 10);

}  // namespace claimrag::retrieval
