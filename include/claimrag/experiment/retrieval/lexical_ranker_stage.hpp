#pragma once
// The lexical ranker's reproduction stage ("lexical_ranker"): builds the stemmed views of the
// corpus, trains the listwise ranker on the train split with its family-grouped
// cross-validation, ranks the test claims, and writes
//   runs/lexical_ranker.trec               the test claims' run (Tables 5 and 6, row "lexical_ranker")
//   tables/lexical_ranker_cv.tsv           train-claim nDCG@10: the cross-validated ranker and each feature alone
//   tables/lexical_ranker_weights.tsv      the fitted ranker: feature, mean, scale, weight
// Results: section "lexical_ranker" (the test metrics) and "lexical_ranker_train" (the
// cross-validation, the first-stage runs alone on train, the candidates' recall on train).
#include "claimrag/experiment/stage.hpp"

namespace claimrag::experiment {

inline constexpr const char* kLexicalRankerRun = "runs/lexical_ranker.trec";

/// Runs the stage's work in `context`; steps are timed in Table 9 as "lexical ranker indexes",
/// "lexical ranker training" and "lexical ranker retrieval".
void run_lexical_ranker_stage(StageContext& context);

}  // namespace claimrag::experiment
