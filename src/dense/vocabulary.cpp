#include "claimrag/dense/vocabulary.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::dense {

Vocabulary Vocabulary::build(const std::vector<std::string>& texts) {
  // A token's id is its rank in sorted order, whichever text it was first seen in: the texts are
  // read in shares on the threads, and the shares' distinct tokens merged.
  std::vector<text::TermDictionary> share_tokens(kCountingShares);
  parallel_for_shares(texts.size(), kCountingShares, [&](std::size_t share, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      text::for_each_token(texts[i], [&](std::string_view token) { share_tokens[share].intern(token); });
    }
  });
  text::TermDictionary seen;
  for (const auto& share : share_tokens) {
    for (const auto& token : share.terms()) seen.intern(token);
  }
  std::vector<std::string> tokens = seen.terms();
  std::sort(tokens.begin(), tokens.end());
  return from_tokens(std::move(tokens));
}

Vocabulary Vocabulary::from_tokens(std::vector<std::string> tokens) {
  if (tokens.size() > static_cast<std::size_t>(INT32_MAX)) throw InternalError("vocabulary too large");
  Vocabulary vocabulary;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].empty()) throw InternalError("vocabulary holds an empty token");
    if (vocabulary.ids_.intern(tokens[i]) != i) throw InternalError("vocabulary holds '" + tokens[i] + "' twice");
  }
  return vocabulary;
}

std::int32_t Vocabulary::id(std::string_view token) const {
  return static_cast<std::int32_t>(ids_.find(token));
}

std::vector<std::int32_t> Vocabulary::encode(std::string_view text) const {
  std::vector<std::int32_t> ids;
  text::for_each_token(text, [&](std::string_view token) {
    const std::int32_t found = id(token);
    if (found >= 0) ids.push_back(found);
  });
  return ids;
}

std::vector<std::vector<std::int32_t>> Vocabulary::encode_all(const std::vector<std::string>& texts) const {
  std::vector<std::vector<std::int32_t>> encoded(texts.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(texts.size()); ++i) {
    encoded[static_cast<std::size_t>(i)] = encode(texts[static_cast<std::size_t>(i)]);
  }
  return encoded;
}

std::string Vocabulary::checksum() const {
  std::string joined;
  for (const auto& token : tokens()) {
    joined += token;
    joined += '\n';
  }
  return io::checksum_hex(joined);
}

}  // namespace claimrag::dense
