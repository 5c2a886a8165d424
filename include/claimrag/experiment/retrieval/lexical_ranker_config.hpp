#pragma once
// "lexical_ranker" in a configuration: the lexical ranker's recipe (retrieval/lexical_ranker.hpp).
// Every value was chosen by family-grouped cross-validation on the train claims (docs/retrieval.md,
// "Lexical ranker"); the defaults are those choices.
//   stemmer               "porter" | "inflection" | "none"
//   k1, b                 BM25 of whole abstracts and titles (stemmed and exact)
//   sentence_k1, sentence_b   BM25 of sentences
//   depth                 candidates taken from each stemmed or exact first-stage run
//   gram_size, gram_depth the character n-gram view's n, and the candidates taken from its run (0: none)
//   rrf_k                 the rank features' 1/(rrf_k + rank)
//   feedback_documents, feedback_terms, feedback_original_weight, feedback_max_document_fraction   RM3
//   prior_terms, prior_C  the abstracts' prior (retrieval/abstract_prior.hpp): its most frequent
//                         terms and its C; prior_terms 0: no prior
//   features              the feature columns used (retrieval/claim_features.hpp); empty: all
//   l2                    the listwise ranker's λ
//   folds                 family folds of the cross-validation
//   run_depth             documents per claim in runs/lexical_ranker.trec
#include "claimrag/io/strict_json.hpp"
#include "claimrag/retrieval/lexical_ranker.hpp"

namespace claimrag::experiment {

struct LexicalRankerConfig {
  retrieval::LexicalRankerOptions options;
};

/// Reads the section; UsageError (naming the key) for an unknown stemmer or feature, or a value
/// out of range.
void read_lexical_ranker(io::StrictObject object, LexicalRankerConfig& config);

/// "porter", "inflection" or "none" for the enum; UsageError for anything else.
text::Stemmer parse_stemmer(const std::string& name);

}  // namespace claimrag::experiment
