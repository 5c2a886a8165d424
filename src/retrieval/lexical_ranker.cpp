#include "claimrag/retrieval/lexical_ranker.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/parallel_for.hpp"

namespace claimrag::retrieval {

std::vector<std::size_t> feature_columns(const std::vector<std::string>& names) {
  const auto& known = claim_feature_names();
  std::vector<std::size_t> columns;
  for (const auto& name : names) {
    const auto found = std::find(known.begin(), known.end(), name);
    if (found == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("lexical ranker: unknown feature \"" + name + "\" (known: " + list + ")");
    }
    columns.push_back(static_cast<std::size_t>(found - known.begin()));
  }
  std::sort(columns.begin(), columns.end());
  if (std::adjacent_find(columns.begin(), columns.end()) != columns.end()) {
    throw UsageError("lexical ranker: a feature is named twice");
  }
  return columns;
}

TrainedLexicalRanker train_lexical_ranker(const ClaimFeaturizer& featurizer, std::span<const dataset::Query> queries,
                                          const dataset::Qrels& qrels, const LexicalRankerOptions& options) {
  if (featurizer.indexes().stemmer != options.stemmer || featurizer.indexes().gram_size != options.gram_size) {
    throw UsageError("lexical ranker: the indexes were built with another stemmer or n-gram size than the options name");
  }
  const auto claims = build_training_claims(featurizer, queries, qrels, options.folds, options.prior);
  LearnedRankerOptions ranker_options;
  ranker_options.columns = feature_columns(options.feature_names);
  ranker_options.l2 = options.l2;
  TrainedLexicalRanker trained;
  trained.claim_ids = claims.ids;
  trained.cross_validated_ndcg10 = cross_validated_ndcg(claims, featurizer.indexes(), ranker_options, 10);
  for (std::size_t f = 0; f < kClaimFeatureCount; ++f) {
    trained.single_feature_ndcg10.push_back(single_feature_ndcg(claims, featurizer.indexes(), f, 10));
  }
  for (std::size_t c = 0; c < claims.ids.size(); ++c) {
    trained.candidates += claims.labels[c].size();
    trained.relevant_found += static_cast<std::size_t>(std::count(claims.labels[c].begin(), claims.labels[c].end(), 1));
    for (const auto& [doc_id, grade] : claims.judgments[c]) trained.relevant += grade > 0 ? 1 : 0;
  }
  trained.ranker = train_learned_ranker(claims.candidates, claims.labels, ranker_options);
  trained.abstract_prior = claims.prior;
  return trained;
}

run::Run lexical_ranker_run(const ClaimFeaturizer& featurizer, const TrainedLexicalRanker& trained,
                            std::span<const dataset::Query> queries, std::size_t depth, const std::string& tag) {
  std::vector<run::Ranking> rankings(queries.size());
  parallel_for(queries.size(), [&](std::size_t q) {
    rankings[q] = ranked(trained.ranker, featurizer.indexes(), queries[q].id,
                         featurizer.candidates(queries[q].text, trained.abstract_prior), depth);
  });
  run::Run run;
  run.tag = tag;
  for (auto& ranking : rankings) {
    if (!ranking.documents.empty()) run.add(std::move(ranking));
  }
  return run;
}

}  // namespace claimrag::retrieval
