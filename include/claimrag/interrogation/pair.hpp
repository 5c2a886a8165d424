#pragma once
// The (claim, abstract) pairs that `interrogate` reads: JSON Lines {"id", "claim", "doc_id" |
// "evidence"} with an optional "claim_id" grouping the pairs of one claim (for the claim-level
// verdict; by default each pair is its own claim).

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::interrogation {

struct InterrogationPair {
  std::string id;
  std::string claim_id;       ///< the claim this pair belongs to; `id` when not given
  std::string claim;
  std::string negated_claim;  ///< ¬C for negated probes (text::negate_claim); empty when no rule applies
  std::string negation_rule;  ///< the rewriter's rule name, "none" when the claim is not negatable
  std::string abstract;       ///< the text given to `{abstract}`: title and abstract, or "evidence"
  verification::EvidenceDocument evidence;  ///< the same text in sentences, for the verifier
};

/// A pair of `claim` and `evidence`, the claim negated by text::negate_claim. `abstract` is the
/// text given to a probe's `{abstract}` slot.
InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim,
                            verification::EvidenceDocument evidence, std::string abstract);

/// A corpus document as a pair's evidence: its text split into sentences (text/sentence_splitter;
/// a text too short to split is one sentence), and "title\ntext" for the `{abstract}` slot.
InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim, const dataset::Document& document);

/// A pair of `claim` and an already sentence-split document (SciFact's `abstract` array, say):
/// `{abstract}` gets "title\n" + the sentences joined by one space.
InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim, verification::EvidenceDocument evidence);

/// Each query's first `k` documents in `run`, as pairs "<query id>:<doc id>" with the query id as
/// claim_id, queries in the given order, documents in rank order. A run document missing from
/// `corpus` is a DataError naming the run; a query without a ranking gets no pair and is listed in
/// `unranked` (the caller says so: never a silent drop). Throws UsageError when k is 0.
std::vector<InterrogationPair> pairs_from_run(std::span<const dataset::Query> queries, const run::Run& run, std::size_t k,
                                              const dataset::Corpus& corpus, std::vector<std::string>& unranked);

/// Reads a pairs file and negates each claim with text::negate_claim. A pair with "doc_id" takes its document from `corpus` (DataError
/// `file:line` when the corpus is null or lacks it); "evidence" is the abstract itself. Exactly one
/// of the two is required; ids must be unique; claims and evidence must not be empty.
std::vector<InterrogationPair> load_pairs(const std::filesystem::path& file, const dataset::Corpus* corpus);

}  // namespace claimrag::interrogation
