#include "claimrag/evidence/training_pairs.hpp"

#include <algorithm>
#include <set>

#include "claimrag/error.hpp"

namespace claimrag::evidence {
namespace {

std::vector<SentenceRef> negative_pool(const TrainingClaim& claim, const CorpusSentences& sentences,
                                       std::size_t documents, const std::string& ranking_source) {
  std::vector<SentenceRef> pool;
  if (claim.ranking == nullptr) return pool;
  const std::set<std::string> relevant(claim.relevant_doc_ids.begin(), claim.relevant_doc_ids.end());
  std::size_t taken = 0;
  for (const auto& ranked : claim.ranking->documents) {
    if (taken == documents) break;
    if (relevant.contains(ranked.doc_id)) continue;
    const std::int64_t position = sentences.corpus().find(ranked.doc_id);
    if (position < 0) {
      throw DataError(ranking_source, "query " + claim.claim_id + " ranks document " + ranked.doc_id + ", absent from the corpus");
    }
    ++taken;
    const auto document = static_cast<std::size_t>(position);
    for (std::size_t i = 0; i < sentences.of(document).size(); ++i) pool.push_back(sentences.ref(document, i));
  }
  return pool;
}

}  // namespace

std::vector<LabelledPair> sample_training_pairs(const std::vector<TrainingClaim>& claims,
                                                const CorpusSentences& sentences, const NegativeSampling& sampling,
                                                std::mt19937_64& rng, const std::string& ranking_source) {
  std::vector<LabelledPair> pairs;
  for (const auto& claim : claims) {
    if (claim.positives.empty()) continue;
    for (const auto& positive : claim.positives) pairs.push_back({claim.claim_id, claim.claim, positive, kPositiveLabel});
    auto pool = negative_pool(claim, sentences, sampling.documents, ranking_source);
    const std::size_t count = std::min(pool.size(), claim.positives.size() * sampling.negatives_per_positive);
    for (std::size_t i = 0; i < count; ++i) {
      std::uniform_int_distribution<std::size_t> pick(i, pool.size() - 1);
      std::swap(pool[i], pool[pick(rng)]);
      pairs.push_back({claim.claim_id, claim.claim, pool[i], kNegativeLabel});
    }
  }
  return pairs;
}

std::vector<SentenceRef> sentences_overlapping(const CorpusSentences& sentences, std::size_t document,
                                               std::size_t begin, std::size_t end) {
  std::vector<SentenceRef> found;
  const auto& all = sentences.of(document);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].begin < end && begin < all[i].end) found.push_back(sentences.ref(document, i));
  }
  return found;
}

}  // namespace claimrag::evidence
