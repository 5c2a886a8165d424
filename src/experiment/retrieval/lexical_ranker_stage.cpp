#include "claimrag/experiment/retrieval/lexical_ranker_stage.hpp"

#include <numeric>
#include <set>

#include "claimrag/io/table.hpp"
#include "claimrag/retrieval/lexical_ranker.hpp"

namespace claimrag::experiment {
namespace {

double mean_of(const std::vector<double>& values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

void write_cross_validation(const retrieval::TrainedLexicalRanker& trained, const std::filesystem::path& file,
                            std::map<std::string, double>& train_results) {
  io::Table table{{"ranking", "train_ndcg@10"}, {}};
  const double learned = mean_of(trained.cross_validated_ndcg10);
  table.rows.push_back({"lexical_ranker (cross-validated)", io::fixed(learned, 6)});
  train_results["cv_ndcg@10"] = learned;
  const auto& names = retrieval::claim_feature_names();
  // The five first-stage runs and the prior alone are frozen; the other columns alone are in the
  // table only (several are rank-equivalent to a run: its relative score, its reciprocal rank).
  const std::set<std::string> first_stage{"bm25", "rm3", "sentence_max", "exact_bm25", "gram_bm25", "abstract_prior"};
  for (std::size_t f = 0; f < names.size(); ++f) {
    const double alone = mean_of(trained.single_feature_ndcg10[f]);
    table.rows.push_back({names[f] + " alone", io::fixed(alone, 6)});
    if (first_stage.contains(names[f])) train_results["ndcg@10:" + names[f]] = alone;
  }
  train_results["candidate_recall"] =
      trained.relevant > 0 ? static_cast<double>(trained.relevant_found) / static_cast<double>(trained.relevant) : 0.0;
  train_results["candidates_per_claim"] =
      static_cast<double>(trained.candidates) / static_cast<double>(std::max<std::size_t>(1, trained.claim_ids.size()));
  io::write_tsv(table, file);
}

void write_weights(const retrieval::LearnedRanker& ranker, const std::filesystem::path& file) {
  io::Table table{{"feature", "mean", "scale", "weight"}, {}};
  const auto& names = retrieval::claim_feature_names();
  for (std::size_t j = 0; j < ranker.columns.size(); ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    table.rows.push_back({names[ranker.columns[j]], io::fixed(ranker.mean[i], 9), io::fixed(ranker.scale[i], 9),
                          io::fixed(ranker.weights[i], 9)});
  }
  io::write_tsv(table, file);
}

}  // namespace

void run_lexical_ranker_stage(StageContext& context) {
  const auto& options = context.config.lexical_ranker.options;
  const auto indexes = context.timer.time("lexical ranker indexes", [&] {
    return retrieval::build_abstract_indexes(dataset::load_corpus(context.beir / "corpus.jsonl"), options.stemmer, 1,
                                                options.gram_size);
  });
  const retrieval::ClaimFeaturizer featurizer(indexes, options.features);
  const auto trained = context.timer.time("lexical ranker training", [&] {
    const auto split = context.config.data.train_split;
    const auto qrels = dataset::load_split(context.beir, split);
    return retrieval::train_lexical_ranker(featurizer, context.queries_of(split), qrels, options);
  });
  const auto run = context.timer.time("lexical ranker retrieval", [&] {
    return retrieval::lexical_ranker_run(featurizer, trained, context.test_queries, options.run_depth, "lexical_ranker");
  });
  run::write_trec_run(run, context.work / kLexicalRankerRun);
  write_cross_validation(trained, context.work / "tables" / "lexical_ranker_cv.tsv", context.results["lexical_ranker_train"]);
  write_weights(trained.ranker, context.work / "tables" / "lexical_ranker_weights.tsv");
  context.evaluate_into("lexical_ranker", run);
}

}  // namespace claimrag::experiment
