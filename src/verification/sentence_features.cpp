#include "claimrag/verification/sentence_features.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace claimrag::verification {
namespace {

// The length cap (see the header): above every SciFact sentence but a few, so it bounds what a
// user's sentence of any length can do to the selector.
constexpr std::size_t kLengthCap = 128;

double capped_log1p(std::size_t value, std::size_t cap) { return std::log1p(static_cast<double>(std::min(value, cap))); }

}  // namespace

const std::vector<std::string>& sentence_feature_names() {
  static const std::vector<std::string> names{"cosine", "jaccard",  "cosine_gap", "inverse_rank", "position",
                                              "first",  "coverage", "length",     "document_max"};
  return names;
}

ClaimText read_claim(const tfidf::TfidfVectorizer& vectorizer, const std::string& claim) {
  return {vectorizer.transform(claim), text::token_set(claim)};
}

SentenceTexts read_sentences(const tfidf::TfidfVectorizer& vectorizer, const std::vector<std::string>& sentences) {
  SentenceTexts texts;
  for (const auto& sentence : sentences) {
    texts.vectors.push_back(vectorizer.transform(sentence));
    texts.tokens.push_back(text::token_set(sentence));
  }
  return texts;
}

DocumentText relate(const ClaimText& claim, std::shared_ptr<const SentenceTexts> sentences) {
  DocumentText document;
  for (const auto& vector : sentences->vectors) document.cosines.push_back(tfidf::cosine(claim.vector, vector));
  document.sentences = std::move(sentences);
  return document;
}

DocumentText read_document(const tfidf::TfidfVectorizer& vectorizer, const ClaimText& claim,
                           const std::vector<std::string>& sentences) {
  return relate(claim, std::make_shared<const SentenceTexts>(read_sentences(vectorizer, sentences)));
}

double claim_coverage(const text::TokenSet& claim, const std::vector<const text::TokenSet*>& parts) {
  if (claim.empty()) return 0.0;
  std::size_t found = 0;
  for (const auto& token : claim) {
    found += std::any_of(parts.begin(), parts.end(),
                         [&](const text::TokenSet* part) { return std::binary_search(part->begin(), part->end(), token); });
  }
  return static_cast<double>(found) / static_cast<double>(claim.size());
}

linear::RowMatrixXd sentence_features(const ClaimText& claim, const DocumentText& document) {
  const auto n = static_cast<Eigen::Index>(document.cosines.size());
  linear::RowMatrixXd features(n, static_cast<Eigen::Index>(sentence_feature_names().size()));
  if (n == 0) return features;
  const double top = *std::max_element(document.cosines.begin(), document.cosines.end());
  std::vector<std::size_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return document.cosines[a] > document.cosines[b]; });
  std::vector<double> rank(order.size());
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<double>(r + 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto s = static_cast<std::size_t>(i);
    features.row(i) << document.cosines[s], text::jaccard(claim.tokens, document.tokens(s)), document.cosines[s] - top,
        1.0 / rank[s], n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.0, i == 0 ? 1.0 : 0.0,
        claim_coverage(claim.tokens, {&document.tokens(s)}), capped_log1p(document.tokens(s).size(), kLengthCap),
        top;
  }
  return features;
}

}  // namespace claimrag::verification
