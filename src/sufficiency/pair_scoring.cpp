#include "claimrag/sufficiency/pair_scoring.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "claimrag/error.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::sufficiency {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(first, last - first + 1);
}

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
      if (!document.failure.empty()) out.failed.emplace_back(out.kept[j], document.failure);
      const auto& p = document.probabilities;
      double rationale = 0;
      for (const auto& sentence : document.sentence_scores) rationale = std::max(rationale, sentence.score);
      out.pairs.push_back({p[0], p[1], p[2], rationale, claim_overlap(example.claim, example.evidence[out.kept[j]])});
    }
  }
  return scored;
}

std::vector<ScoredExample> gold_pair_scores(const std::vector<Example>& examples, const std::vector<const dataset::Claim*>& claims) {
  std::map<std::string, const dataset::Claim*> by_id;
  for (const auto* claim : claims) by_id[claim->id] = claim;
  std::vector<ScoredExample> scored;
  std::vector<std::size_t> input_of;
  prepare_examples(examples, scored, input_of);
  for (std::size_t e = 0; e < examples.size(); ++e) {
    const auto claim = by_id.find(examples[e].claim_id);
    if (claim == by_id.end()) throw InternalError("gold_pair_scores: unknown claim " + examples[e].claim_id);
    for (const std::size_t kept : scored[e].kept) {
      const PassageSource& source = examples[e].sources.at(kept);
      PairScore pair{0, 0, 1, 0, claim_overlap(examples[e].claim, examples[e].evidence[kept])};
      const auto evidence = claim->second->evidence.find(source.doc_id);
      if (evidence != claim->second->evidence.end()) {
        for (const auto& set : evidence->second) {
          if (std::find(set.sentences.begin(), set.sentences.end(), static_cast<int>(source.sentence)) == set.sentences.end()) continue;
          const bool support = set.label == "SUPPORT";
          pair = {support ? 1.0 : 0.0, support ? 0.0 : 1.0, 0.0, 1.0, pair.overlap};
        }
      }
      scored[e].pairs.push_back(pair);
    }
  }
  return scored;
}

}  // namespace claimrag::sufficiency
