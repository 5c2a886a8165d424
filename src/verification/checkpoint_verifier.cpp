#include "claimrag/verification/checkpoint_verifier.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/verification/verdict_failures.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::verification {
namespace {

double decisiveness(const LabelDistribution& d) {
  return std::max(d[static_cast<std::size_t>(Label::support)], d[static_cast<std::size_t>(Label::contradict)]);
}

std::string joined(const std::vector<std::string>& sentences, std::size_t first, std::size_t last) {
  std::string text;
  for (std::size_t s = first; s <= last; ++s) text += (s == first ? "" : " ") + sentences[s];
  return text;
}

void check_options(const CheckpointVerifierOptions& options) {
  if (!(options.rule.threshold > 0.0 && options.rule.threshold <= 1.0)) {
    throw UsageError("the checkpoint verifier's threshold must be in (0, 1], not " + std::to_string(options.rule.threshold));
  }
  if (options.rule.max_rationale == 0) throw UsageError("the checkpoint verifier's max_rationale must be >= 1");
  if (options.batch_size == 0) throw UsageError("the checkpoint verifier's batch size must be >= 1");
}

class CheckpointVerifier final : public ClaimVerifier {
 public:
  CheckpointVerifier(std::shared_ptr<const NliCheckpoint> checkpoint, CheckpointVerifierOptions options)
      : checkpoint_(std::move(checkpoint)), options_(options) {}

  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    const auto judgements = judge_premises(*checkpoint_, inputs, options_.rule.premise, options_);
    return checkpoint_verdicts(inputs, judgements, options_.rule);
  }

  void save(const std::filesystem::path& file) const override {
    throw UsageError("--save-model " + file.string() + ": a checkpoint verifier is not saved; the folder " +
                     checkpoint_->text_model().folder().string() + " is the model");
  }

 private:
  std::shared_ptr<const NliCheckpoint> checkpoint_;
  CheckpointVerifierOptions options_;
};

}  // namespace

std::string_view premise_unit_name(PremiseUnit unit) {
  switch (unit) {
    case PremiseUnit::sentence: return "sentence";
    case PremiseUnit::window: return "window";
    case PremiseUnit::abstract: return "abstract";
  }
  return "unknown";
}

PremiseUnit parse_premise_unit(std::string_view name) {
  for (const auto unit : {PremiseUnit::sentence, PremiseUnit::window, PremiseUnit::abstract}) {
    if (name == premise_unit_name(unit)) return unit;
  }
  throw UsageError("premise '" + std::string(name) + "': expected sentence, window or abstract");
}

std::vector<std::string> document_premises(const EvidenceDocument& document, PremiseUnit unit) {
  const auto& sentences = document.sentences;
  if (sentences.empty()) return {};
  if (unit == PremiseUnit::abstract) return {joined(sentences, 0, sentences.size() - 1)};
  std::vector<std::string> premises;
  premises.reserve(sentences.size());
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    premises.push_back(unit == PremiseUnit::sentence ? sentences[s]
                                                     : joined(sentences, s == 0 ? 0 : s - 1, std::min(s + 1, sentences.size() - 1)));
  }
  return premises;
}

DocumentVerdict checkpoint_document_verdict(const EvidenceDocument& document, std::span<const LabelDistribution> premises,
                                            const CheckpointRule& rule, std::size_t truncated) {
  DocumentVerdict verdict;
  verdict.doc_id = document.doc_id;
  verdict.truncated_sentences = truncated;
  verdict.probabilities = {0.0, 0.0, 1.0};
  const bool per_sentence = rule.premise != PremiseUnit::abstract;
  for (std::size_t s = 0; s < document.sentences.size(); ++s) {
    verdict.sentence_scores.push_back({s, per_sentence && s < premises.size() ? decisiveness(premises[s]) : 0.0});
  }
  if (premises.empty()) return verdict;  // no sentence: nothing to judge
  std::size_t decisive = 0;
  for (std::size_t i = 1; i < premises.size(); ++i) {
    if (decisiveness(premises[i]) > decisiveness(premises[decisive])) decisive = i;
  }
  const LabelDistribution& d = premises[decisive];
  verdict.probabilities = d;
  if (decisiveness(d) >= rule.threshold) {
    verdict.label = d[static_cast<std::size_t>(Label::contradict)] > d[static_cast<std::size_t>(Label::support)]
                        ? Label::contradict
                        : Label::support;
  }
  if (!per_sentence) return verdict;
  std::vector<std::size_t> order(premises.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return decisiveness(premises[a]) > decisiveness(premises[b]); });
  for (const std::size_t s : order) {
    if (verdict.rationale.size() == rule.max_rationale || decisiveness(premises[s]) < rule.threshold) break;
    verdict.rationale.push_back(s);
  }
  return verdict;
}

PremiseJudgements judge_premises(const NliCheckpoint& checkpoint, std::span<const VerificationInput> inputs,
                                 PremiseUnit unit, const CheckpointVerifierOptions& options) {
  check_options(options);
  return judge_premises_with(inputs, unit, [&](std::span<const pretrained::TextInput> pairs) {
    PairJudgements judged;
    judged.distributions = checkpoint.judge(pairs, options, judged.truncated);
    return judged;
  });
}

PremiseJudgements judge_premises_with(std::span<const VerificationInput> inputs, PremiseUnit unit, const PremisePairJudge& judge) {
  // Every premise text first, so the judge runs once over all pairs (batched by length).
  std::vector<std::vector<std::vector<std::string>>> premises(inputs.size());
  std::vector<pretrained::TextInput> pairs;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (const auto& document : inputs[c].documents) premises[c].push_back(document_premises(document, unit));
  }
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (const auto& document : premises[c]) {
      for (const auto& premise : document) pairs.push_back({premise, inputs[c].claim});
    }
  }
  const auto [distributions, truncated, failures] = judge(pairs);
  if (distributions.size() != pairs.size() || truncated.size() != pairs.size() ||
      !(failures.empty() || failures.size() == pairs.size())) {
    throw InternalError("a premise judge gave another number of distributions than pairs");
  }
  PremiseJudgements judgements;
  judgements.distributions.resize(inputs.size());
  judgements.truncated.resize(inputs.size());
  judgements.failures.resize(inputs.size());
  std::size_t next = 0;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (const auto& document : premises[c]) {
      auto& judged = judgements.distributions[c].emplace_back();
      auto& failure = judgements.failures[c].emplace_back();
      std::size_t cut = 0;
      for (std::size_t p = 0; p < document.size(); ++p, ++next) {
        judged.push_back(distributions[next]);
        cut += truncated[next] > 0 ? 1 : 0;
        if (failure.empty() && !failures.empty()) failure = failures[next];
      }
      judgements.truncated[c].push_back(cut);
    }
  }
  return judgements;
}

std::vector<ClaimVerdict> checkpoint_verdicts(std::span<const VerificationInput> inputs, const PremiseJudgements& judgements,
                                              const CheckpointRule& rule) {
  std::vector<ClaimVerdict> verdicts(inputs.size());
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    verdicts[c].claim_id = inputs[c].claim_id;
    if (inputs[c].documents.empty()) verdicts[c].reason = kNoRetrievedAbstract;
    for (std::size_t d = 0; d < inputs[c].documents.size(); ++d) {
      const auto& document = inputs[c].documents[d];
      const bool failed = !judgements.failures.empty() && !judgements.failures[c][d].empty();
      verdicts[c].documents.push_back(
          failed ? failed_verdict(document, judgements.failures[c][d])
                 : checkpoint_document_verdict(document, judgements.distributions[c][d], rule, judgements.truncated[c][d]));
    }
  }
  return verdicts;
}

std::unique_ptr<ClaimVerifier> make_checkpoint_verifier(std::shared_ptr<const NliCheckpoint> checkpoint,
                                                        const CheckpointVerifierOptions& options) {
  check_options(options);
  if (!checkpoint) throw InternalError("make_checkpoint_verifier: no checkpoint");
  return std::make_unique<CheckpointVerifier>(std::move(checkpoint), options);
}

}  // namespace claimrag::verification
