#pragma once
// The answer claimrag gives to a claim, and whether it is unsafe by SciFact's gold labels: what
// every abstention strategy decides to give or to withhold.
//
// The answer (one per claim, shared by every strategy, so that strategies differ only in which
// claims they answer): among the claim's verified documents and the two verdicts SUPPORT and
// CONTRADICT, the pair with the highest probability (ties: SUPPORT first, then the earlier
// document), whatever the verifier's own NEI threshold says, since withholding is the strategies'
// job. It cites that document's rationale sentences (best first), or its single best-scoring
// sentence when the verifier selected none; its citation score is the rationale selector's
// probability for the best cited sentence. A claim with no document has no answer.
//
// Unsafe (the comparison's one definition): an answer is safe only when the cited document is a
// gold evidence document of the claim with the answer's verdict as its label, and at least one
// cited sentence belongs to one of that document's gold rationale sets. So a wrong verdict, a right
// verdict without a gold rationale sentence, and any verdict on a NOT ENOUGH INFO claim are unsafe.

#include <cstddef>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::abstention {

struct ClaimAnswer {
  std::string claim_id;
  bool answered = false;  ///< false: no document to answer from (`reason` says why)
  verification::Label verdict = verification::Label::not_enough_info;  ///< support or contradict when answered
  std::string doc_id;
  std::vector<std::size_t> cited;  ///< sentence indices into the document, best first
  double probability = 0;          ///< the verifier's P(verdict) for the document
  double citation_score = 0;       ///< the rationale selector's probability for the best cited sentence
  std::string reason;
};

/// The answer of one claim from the verifier's verdicts on its documents (rule above).
ClaimAnswer claim_answer(const verification::ClaimVerdict& verdict);

/// Whether `answer` is unsafe for `claim` (rule above); an unanswered claim counts as unsafe, since
/// it has nothing safe to give.
bool is_unsafe(const ClaimAnswer& answer, const dataset::Claim& claim);

}  // namespace claimrag::abstention
