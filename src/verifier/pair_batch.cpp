#include "claimrag/verifier/pair_batch.hpp"

#include <algorithm>

#include "claimrag/error.hpp"

namespace claimrag::verifier {

KeptLengths truncate_pair(std::size_t claim_length, std::size_t sentence_length, std::size_t max_length) {
  if (max_length < 3) throw UsageError("verifier max_length must be at least 3");
  const std::size_t budget = max_length - 3;
  if (claim_length + sentence_length <= budget) return {claim_length, sentence_length};
  const std::size_t claim_half = budget / 2;
  if (claim_length <= claim_half) return {claim_length, budget - claim_length};
  if (sentence_length <= budget - claim_half) return {budget - sentence_length, sentence_length};
  return {claim_half, budget - claim_half};
}

EncodedPair encode_pair(const std::vector<std::int32_t>& claim, const std::vector<std::int32_t>& sentence,
                        std::size_t max_length) {
  const KeptLengths kept = truncate_pair(claim.size(), sentence.size(), max_length);
  EncodedPair pair;
  const std::size_t length = kept.claim + kept.sentence + 3;
  pair.ids.reserve(length);
  pair.ids.push_back(Vocabulary::cls_id);
  pair.ids.insert(pair.ids.end(), claim.begin(), claim.begin() + static_cast<std::ptrdiff_t>(kept.claim));
  pair.ids.push_back(Vocabulary::sep_id);
  pair.ids.insert(pair.ids.end(), sentence.begin(), sentence.begin() + static_cast<std::ptrdiff_t>(kept.sentence));
  pair.ids.push_back(Vocabulary::sep_id);
  pair.segments.assign(length, 0);
  std::fill(pair.segments.begin() + static_cast<std::ptrdiff_t>(kept.claim + 2), pair.segments.end(), 1);
  return pair;
}

EncodedPair encode_pair(const Vocabulary& vocabulary, const std::vector<std::string>& claim,
                        const std::vector<std::string>& sentence, std::size_t max_length) {
  return encode_pair(vocabulary.encode(claim), vocabulary.encode(sentence), max_length);
}

TokenBatch make_batch(const std::vector<EncodedPair>& pairs, const std::vector<std::size_t>& members) {
  if (members.empty()) throw InternalError("make_batch: empty batch");
  TokenBatch batch;
  batch.batch = static_cast<Eigen::Index>(members.size());
  for (const std::size_t member : members) {
    batch.seq_len = std::max(batch.seq_len, static_cast<Eigen::Index>(pairs.at(member).ids.size()));
  }
  const auto total = static_cast<std::size_t>(batch.batch * batch.seq_len);
  batch.ids.assign(total, Vocabulary::pad_id);
  batch.segments.assign(total, 0);
  batch.positions.resize(total);
  for (std::size_t b = 0; b < members.size(); ++b) {
    const EncodedPair& pair = pairs[members[b]];
    const std::size_t offset = b * static_cast<std::size_t>(batch.seq_len);
    std::copy(pair.ids.begin(), pair.ids.end(), batch.ids.begin() + static_cast<std::ptrdiff_t>(offset));
    std::copy(pair.segments.begin(), pair.segments.end(),
              batch.segments.begin() + static_cast<std::ptrdiff_t>(offset));
    for (Eigen::Index t = 0; t < batch.seq_len; ++t) {
      batch.positions[offset + static_cast<std::size_t>(t)] = static_cast<std::int32_t>(t);
    }
    batch.lengths.push_back(static_cast<Eigen::Index>(pair.ids.size()));
  }
  return batch;
}

}  // namespace claimrag::verifier
