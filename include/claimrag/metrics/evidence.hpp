#pragma once
// Scores of selected evidence sentences for one claim: against the pseudo-gold sentences (the
// paper's Table 7) and against SciFact's human rationales.
//
// - exact match: the selected and gold sentences as sets of (document, sentence index);
//   precision = |selected ∩ gold| / |selected|, recall = |selected ∩ gold| / |gold|.
// - token overlap: SQuAD-style bag-of-tokens F1 between the selected sentences' tokens and the
//   gold sentences' tokens (paper tokenizer, multiset intersection).
// - rationale match: a selected sentence is correct when its byte span overlaps a gold rationale
//   sentence of the same document; recall counts the gold sentences overlapped by a selection.
// An empty selection or gold side scores 0 on every measure (F1 is 0 when P + R is 0).

#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/evidence/sentences.hpp"

namespace claimrag::metrics {

struct PrecisionRecall {
  double precision = 0;
  double recall = 0;
  double f1 = 0;
};

PrecisionRecall exact_match(const std::vector<evidence::SentenceRef>& selected,
                            const std::vector<evidence::SentenceRef>& gold);

PrecisionRecall token_overlap(const std::vector<evidence::SentenceRef>& selected,
                              const std::vector<evidence::SentenceRef>& gold);

/// A gold rationale sentence located in its document's BEIR `text`.
struct RationaleSpan {
  std::string doc_id;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The byte spans of every rationale sentence of `claim`, where the BEIR `text` of a document is
/// its original sentences joined by one space (true of every SciFact abstract). Sentences named by
/// several rationale sets count once. A document absent from `abstracts` is a DataError.
std::vector<RationaleSpan> rationale_spans(const dataset::Claim& claim, const std::vector<dataset::Abstract>& abstracts);

PrecisionRecall rationale_match(const std::vector<evidence::SentenceRef>& selected,
                                const std::vector<RationaleSpan>& gold);

}  // namespace claimrag::metrics
