#pragma once
// The lexical ranker, end to end: the corpus's stemmed views (abstract_indexes.hpp), each claim's
// candidates and features (claim_features.hpp), the abstracts' prior (abstract_prior.hpp), a
// listwise linear ranker (learned_ranker.hpp) trained on judged claims, and its family-grouped
// cross-validation (training_claims.hpp).
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/retrieval/claim_features.hpp"
#include "claimrag/retrieval/learned_ranker.hpp"
#include "claimrag/retrieval/training_claims.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::retrieval {

struct LexicalRankerOptions {
  text::Stemmer stemmer = text::Stemmer::porter;
  std::size_t gram_size = 3;               ///< n of the character n-gram view, >= 1
  ClaimFeatureOptions features;
  AbstractPriorOptions prior;              ///< prior.terms = 0: no prior (its column is 0)
  std::vector<std::string> feature_names;  ///< the columns used, by claim_feature_names(); empty = all
  double l2 = 1e-2;                        ///< the conditional logit's λ
  std::size_t folds = 5;                   ///< family folds of the cross-validation, >= 2
  std::size_t run_depth = 200;             ///< documents per claim in the written run
};

/// The columns of `names` in increasing order; UsageError naming an unknown or repeated name.
std::vector<std::size_t> feature_columns(const std::vector<std::string>& names);

/// What training gives: the ranker fitted on every training claim and the cross-validation that
/// measures the recipe on the same claims.
struct TrainedLexicalRanker {
  LearnedRanker ranker;
  std::vector<double> abstract_prior;  ///< per abstract, fitted on every training claim; empty without a prior
  std::vector<std::string> claim_ids;
  std::vector<double> cross_validated_ndcg10;  ///< per training claim, ranked by the fold's ranker
  /// Per training claim, nDCG@10 of each feature alone (claim_feature_names() order): the
  /// first-stage runs the ranker has to beat, on the same candidates.
  std::vector<std::vector<double>> single_feature_ndcg10;
  std::size_t candidates = 0;           ///< over all training claims
  std::size_t relevant_found = 0;       ///< relevant candidates over all training claims
  std::size_t relevant = 0;             ///< relevant abstracts in the training qrels
};

/// Builds the training claims of `queries` (judged in `qrels`), cross-validates, then fits.
/// UsageError when the featurizer's indexes were built with another stemmer or gram_size than
/// `options` names (the options describe the recipe that is reported).
TrainedLexicalRanker train_lexical_ranker(const ClaimFeaturizer& featurizer, std::span<const dataset::Query> queries,
                                          const dataset::Qrels& qrels, const LexicalRankerOptions& options);

/// The run of `queries` (tag `tag`) ranked by `trained`, `depth` documents each, in parallel (the
/// same bytes for any thread count). A claim without candidates has no ranking.
run::Run lexical_ranker_run(const ClaimFeaturizer& featurizer, const TrainedLexicalRanker& trained,
                            std::span<const dataset::Query> queries, std::size_t depth, const std::string& tag);

}  // namespace claimrag::retrieval
