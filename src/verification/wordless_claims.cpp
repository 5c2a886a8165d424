#include "claimrag/verification/wordless_claims.hpp"

#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::verification {
namespace {

class WordlessClaimGuard final : public ClaimVerifier {
 public:
  explicit WordlessClaimGuard(std::unique_ptr<ClaimVerifier> inner) : inner_(std::move(inner)) {}

  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    std::vector<VerificationInput> worded;
    std::vector<std::size_t> worded_at;
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      if (!has_word(inputs[c].claim)) continue;
      worded.push_back(inputs[c]);
      worded_at.push_back(c);
    }
    std::vector<ClaimVerdict> judged = worded.empty() ? std::vector<ClaimVerdict>{} : inner_->verify(worded);
    if (judged.size() != worded.size()) throw InternalError("the verifier returned a verdict count other than its claims'");
    std::vector<ClaimVerdict> verdicts(inputs.size());
    std::size_t next = 0;
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      verdicts[c] = next < worded_at.size() && worded_at[next] == c ? std::move(judged[next++]) : wordless_verdict(inputs[c]);
    }
    return verdicts;
  }

  void save(const std::filesystem::path& file) const override { inner_->save(file); }

 private:
  std::unique_ptr<ClaimVerifier> inner_;
};

}  // namespace

bool has_word(std::string_view claim) { return text::count_tokens(claim) > 0; }

ClaimVerdict wordless_verdict(const VerificationInput& input) {
  ClaimVerdict verdict;
  verdict.claim_id = input.claim_id;
  verdict.reason = kClaimWithoutWord;
  for (const auto& document : input.documents) {
    DocumentVerdict judged;
    judged.doc_id = document.doc_id;
    judged.label = Label::not_enough_info;
    judged.probabilities = {0.0, 0.0, 1.0};
    for (std::size_t s = 0; s < document.sentences.size(); ++s) judged.sentence_scores.push_back({s, 0.0});
    verdict.documents.push_back(std::move(judged));
  }
  return verdict;
}

std::unique_ptr<ClaimVerifier> guard_wordless_claims(std::unique_ptr<ClaimVerifier> inner) {
  if (!inner) throw InternalError("guard_wordless_claims: no verifier");
  return std::make_unique<WordlessClaimGuard>(std::move(inner));
}

}  // namespace claimrag::verification
