#include "claimrag/sufficiency/pair_scoring.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "claimrag/error.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::sufficiency {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::vector<verification::VerificationInput> prepare_examples(const std::vector<Example>& examples, std::vector<ScoredExample>& scored,
                                                             std::vector<std::size_t>& input_of) {
  scored.assign(examples.size(), {});
  std::vector<verification::VerificationInput> inputs;
  for (std::size_t e = 0; e < examples.size(); ++e) {
    const Example& example = examples[e];
    ScoredExample& out = scored[e];
    verification::VerificationInput input{example.claim_id, example.claim, {}};
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < example.evidence.size(); ++i) {
      const std::string_view text = trimmed(example.evidence[i]);
      if (!seen.insert(text).second) {
        ++out.duplicates_removed;
        continue;
      }
      auto sentences = verification::evidence_sentences(text);
      if (sentences.empty()) {
        ++out.blank_removed;
        continue;
      }
      input.documents.push_back({"p" + std::to_string(i), "", std::move(sentences), 0, 0.0});
      out.kept.push_back(i);
    }
    if (text::count_tokens(example.claim) == 0) {
      out.reason = "the claim has no word";
    } else if (input.documents.empty()) {
      out.reason = "no evidence";
    }
    if (!out.reason.empty()) {
      out.kept.clear();
      continue;
    }
    inputs.push_back(std::move(input));
    input_of.push_back(e);
  }
  return inputs;
}

std::vector<ScoredExample> score_examples(const verification::ClaimVerifier& verifier, const std::vector<Example>& examples) {
  std::vector<ScoredExample> scored;
  std::vector<std::size_t> input_of;
  const auto inputs = prepare_examples(examples, scored, input_of);
  const auto verdicts = verifier.verify(inputs);
  if (verdicts.size() != inputs.size()) throw InternalError("score_examples: the verifier returned another number of verdicts");
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Example& example = examples[input_of[k]];
    ScoredExample& out = scored[input_of[k]];
    if (verdicts[k].documents.size() != out.kept.size()) throw InternalError("score_examples: a verdict per passage expected");
    for (std::size_t j = 0; j < out.kept.size(); ++j) {
      const auto& document = verdicts[k].documents[j];
      const auto& p = document.probabilities;
      double rationale = 0;
      for (const auto& sentence : document.sentence_scores) rationale = std::max(rationale, sentence.score);
      out.pairs.push_back({p[0], p[1], p[2], rationale, claim_overlap(example.claim, example.evidence[out.kept[j]])});
    }
  }
  return scored;
}

}  // namespace claimrag::sufficiency
