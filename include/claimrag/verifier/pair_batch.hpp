#pragma once
// (claim, sentence) pairs as the verifier reads them: [CLS] claim [SEP] sentence [SEP], with
// segment 0 for [CLS], the claim and the first [SEP], segment 1 for the sentence and the last
// [SEP] (BERT's convention), and batches of such pairs padded to their longest member.
//
// Truncation when a pair exceeds max_length: the budget is max_length - 3 tokens. A claim that
// fits in half the budget (rounded down) is kept whole and the sentence takes the rest; a
// sentence that fits in the other half is kept whole and the claim takes the rest; otherwise
// the claim keeps half (rounded down) and the sentence the other half. Tokens are cut from the
// end. This equals "cut one token from the longer side, from the claim on a tie, until both
// fit" (HuggingFace's longest_first), and never lets a long sentence push out a short claim,
// which the verifier needs whole.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "claimrag/verifier/vocabulary.hpp"

namespace claimrag::verifier {

/// One encoded pair: ids and segments of equal length, at most max_length, at least 3.
struct EncodedPair {
  std::vector<std::int32_t> ids;
  std::vector<std::int32_t> segments;
};

/// How many claim and sentence tokens a pair keeps.
struct KeptLengths {
  std::size_t claim = 0;
  std::size_t sentence = 0;
};

/// The truncation rule above. Precondition: max_length ≥ 3 (UsageError otherwise).
KeptLengths truncate_pair(std::size_t claim_length, std::size_t sentence_length, std::size_t max_length);

/// Encodes a pair of id sequences (ordinary word ids or unknown_id).
EncodedPair encode_pair(const std::vector<std::int32_t>& claim, const std::vector<std::int32_t>& sentence,
                        std::size_t max_length);
/// Encodes a pair of token sequences through `vocabulary`.
EncodedPair encode_pair(const Vocabulary& vocabulary, const std::vector<std::string>& claim,
                        const std::vector<std::string>& sentence, std::size_t max_length);

/// A batch of `batch` pairs padded with pad_id (segment 0) to `seq_len`, the longest member.
/// Row-major over (sequence, position): entry b·seq_len + t is position t of pair b.
struct TokenBatch {
  Eigen::Index batch = 0;
  Eigen::Index seq_len = 0;
  std::vector<std::int32_t> ids;        ///< batch·seq_len
  std::vector<std::int32_t> segments;   ///< batch·seq_len
  std::vector<std::int32_t> positions;  ///< batch·seq_len, t for entry b·seq_len + t
  std::vector<Eigen::Index> lengths;    ///< batch, the unpadded length of each pair
};

/// The batch of pairs[members[0]], pairs[members[1]], ...; members is not empty.
TokenBatch make_batch(const std::vector<EncodedPair>& pairs, const std::vector<std::size_t>& members);

}  // namespace claimrag::verifier
