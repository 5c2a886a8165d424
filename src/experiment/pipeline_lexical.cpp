// The lexical ranker's stage (experiment/retrieval/lexical_ranker_stage.hpp): it builds its own indexes
// from the corpus, so it reads nothing an earlier stage writes.

#include "claimrag/experiment/retrieval/lexical_ranker_stage.hpp"
#include "claimrag/experiment/pipeline.hpp"

namespace claimrag::experiment {

Stage lexical_ranker_stage() {
  return {"lexical_ranker",
          {},
          {kLexicalRankerRun, "tables/lexical_ranker_cv.tsv", "tables/lexical_ranker_weights.tsv"},
          run_lexical_ranker_stage};
}

}  // namespace claimrag::experiment
