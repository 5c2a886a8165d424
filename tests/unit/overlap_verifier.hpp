#pragma once
// A deterministic stand-in for a trained claim verifier, whose every answer can be worked out by
// hand, so that the code around the verifier is tested without training a model:
//  - a sentence scores the fraction of the claim's distinct tokens it contains;
//  - the rationale is the sentences scoring at least 0.5, best first (the earlier on ties), at
//    most 3;
//  - no rationale: NOT_ENOUGH_INFO (0.1, 0.1, 0.8); a rationale sentence holding the token "not":
//    CONTRADICT (0.2, 0.7, 0.1); otherwise SUPPORT (0.7, 0.2, 0.1);
//  - a sentence of more than `max_tokens` tokens counts as truncated.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::testing {

class OverlapVerifier : public verification::ClaimVerifier {
 public:
  explicit OverlapVerifier(std::size_t max_tokens = 12) : max_tokens_(max_tokens) {}

  [[nodiscard]] std::vector<verification::ClaimVerdict> verify(
      std::span<const verification::VerificationInput> inputs) const override {
    std::vector<verification::ClaimVerdict> verdicts;
    for (const auto& input : inputs) {
      verification::ClaimVerdict verdict{input.claim_id, {}, {}};
      for (const auto& document : input.documents) verdict.documents.push_back(judge(input.claim, document));
      verdicts.push_back(std::move(verdict));
    }
    return verdicts;
  }

  void save(const std::filesystem::path& file) const override { io::write_file_atomically(file, "overlap verifier\n"); }

 private:
  [[nodiscard]] verification::DocumentVerdict judge(const std::string& claim,
                                                    const verification::EvidenceDocument& document) const {
    using verification::Label;
    const auto claim_tokens = text::tokenize(claim);
    const std::set<std::string> wanted(claim_tokens.begin(), claim_tokens.end());
    verification::DocumentVerdict verdict;
    verdict.doc_id = document.doc_id;
    for (std::size_t s = 0; s < document.sentences.size(); ++s) {
      const auto tokens = text::tokenize(document.sentences[s]);
      const std::set<std::string> present(tokens.begin(), tokens.end());
      std::size_t shared = 0;
      for (const auto& token : wanted) shared += present.count(token);
      verdict.sentence_scores.push_back({s, wanted.empty() ? 0.0 : static_cast<double>(shared) / static_cast<double>(wanted.size())});
      verdict.truncated_sentences += tokens.size() > max_tokens_ ? 1 : 0;
    }
    std::vector<verification::SentenceScore> ranked = verdict.sentence_scores;
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
    bool negated = false;
    for (const auto& scored : ranked) {
      if (scored.score < 0.5 || verdict.rationale.size() == 3) break;
      verdict.rationale.push_back(scored.index);
      const auto tokens = text::tokenize(document.sentences[scored.index]);
      negated = negated || std::find(tokens.begin(), tokens.end(), "not") != tokens.end();
    }
    if (verdict.rationale.empty()) {
      verdict.label = Label::not_enough_info;
      verdict.probabilities = {0.1, 0.1, 0.8};
    } else if (negated) {
      verdict.label = Label::contradict;
      verdict.probabilities = {0.2, 0.7, 0.1};
    } else {
      verdict.label = Label::support;
      verdict.probabilities = {0.7, 0.2, 0.1};
    }
    return verdict;
  }

  std::size_t max_tokens_;
};

}  // namespace claimrag::testing
