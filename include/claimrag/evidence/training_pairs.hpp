#pragma once
// The verifier's training pairs, as the paper builds them: each positive sentence of a claim
// (label 1) and, per positive, `negatives_per_positive` negatives (label 0) drawn from the
// sentences of the claim's top non-relevant documents in a BM25 ranking.
//
// Sampling rule: the negative pool of a claim is every sentence of the first `documents`
// documents of its ranking that are not relevant to it, in rank order then sentence order. From
// it, min(positives · negatives_per_positive, pool size) distinct sentences are drawn uniformly
// without replacement (a partial Fisher–Yates shuffle through the caller's generator). A claim
// without positives contributes nothing and draws nothing. Negatives never come from relevant
// documents, so no sentence is both a positive and a negative of one claim.

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "claimrag/evidence/sentences.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::evidence {

inline constexpr int kNegativeLabel = 0;
inline constexpr int kPositiveLabel = 1;

/// One training claim: its positive sentences, the documents excluded from its negatives, and
/// its BM25 ranking (null or empty: no negatives).
struct TrainingClaim {
  std::string claim_id;
  std::string claim;
  std::vector<SentenceRef> positives;
  std::vector<std::string> relevant_doc_ids;
  const run::Ranking* ranking = nullptr;
};

struct NegativeSampling {
  std::size_t negatives_per_positive = 3;
  std::size_t documents = 10;  ///< top non-relevant documents of the ranking
};

/// A (claim, sentence) pair with its class.
struct LabelledPair {
  std::string claim_id;
  std::string claim;
  SentenceRef sentence;
  int label = kNegativeLabel;
};

/// Per claim in order: its positives (in the given order), then its negatives (in draw order).
/// A ranked document absent from the corpus is a DataError naming `ranking_source`.
std::vector<LabelledPair> sample_training_pairs(const std::vector<TrainingClaim>& claims,
                                                const CorpusSentences& sentences, const NegativeSampling& sampling,
                                                std::mt19937_64& rng, const std::string& ranking_source);

/// The sentences of the document at corpus position `document` whose byte spans overlap
/// [begin, end): how a gold rationale sentence maps onto this splitter's sentences.
std::vector<SentenceRef> sentences_overlapping(const CorpusSentences& sentences, std::size_t document,
                                               std::size_t begin, std::size_t end);

}  // namespace claimrag::evidence
