#include "claimrag/verification/tei_verifier.hpp"

#include "claimrag/error.hpp"

namespace claimrag::verification {
namespace {

class TeiVerifier final : public ClaimVerifier {
 public:
  TeiVerifier(std::shared_ptr<served::Transport> transport, TeiVerifierOptions options)
      : transport_(std::move(transport)), options_(options) {}

  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    const auto judgements = tei_judge_premises(*transport_, inputs, options_.rule.premise, options_.batch_size);
    return checkpoint_verdicts(inputs, judgements, options_.rule);
  }

  void save(const std::filesystem::path& file) const override {
    throw UsageError("--save-model " + file.string() + ": the verifier served at " + transport_->url() +
                     " is not claimrag's to save");
  }

 private:
  std::shared_ptr<served::Transport> transport_;
  TeiVerifierOptions options_;
};

}  // namespace

LabelDistribution tei_label_distribution(const std::vector<served::TeiLabelScore>& scores, const std::string& url) {
  std::vector<std::string> names;
  names.reserve(scores.size());
  for (const auto& score : scores) names.push_back(score.label);
  const auto labels = map_nli_labels(names, url + " (the labels /predict returned)");
  LabelDistribution distribution{};
  for (std::size_t i = 0; i < scores.size(); ++i) distribution[static_cast<std::size_t>(labels[i])] += scores[i].score;
  return distribution;
}

PremiseJudgements tei_judge_premises(served::Transport& transport, std::span<const VerificationInput> inputs,
                                     PremiseUnit unit, std::size_t batch_size) {
  return judge_premises_with(inputs, unit, [&](std::span<const pretrained::TextInput> pairs) {
    std::vector<served::TeiPair> sent;
    sent.reserve(pairs.size());
    for (const auto& pair : pairs) sent.emplace_back(std::string(pair.text), std::string(pair.text_pair.value_or("")));
    PairJudgements judged;
    judged.distributions.reserve(pairs.size());
    judged.failures.reserve(pairs.size());
    for (const auto& prediction : served::tei_predict_each(transport, sent, batch_size)) {
      judged.distributions.push_back(prediction.failure.empty() ? tei_label_distribution(prediction.scores, transport.url())
                                                                : LabelDistribution{});
      judged.failures.push_back(prediction.failure);
    }
    judged.truncated.assign(pairs.size(), 0);  // TEI truncates without saying so
    return judged;
  });
}

std::unique_ptr<ClaimVerifier> make_tei_verifier(std::shared_ptr<served::Transport> transport, const TeiVerifierOptions& options) {
  if (!transport) throw InternalError("make_tei_verifier: no transport");
  if (!(options.rule.threshold > 0.0 && options.rule.threshold <= 1.0)) {
    throw UsageError("the served verifier's threshold must be in (0, 1], not " + std::to_string(options.rule.threshold));
  }
  if (options.rule.max_rationale == 0) throw UsageError("the served verifier's max_rationale must be >= 1");
  if (options.batch_size == 0) throw UsageError("the served verifier's batch size must be >= 1");
  return std::make_unique<TeiVerifier>(std::move(transport), options);
}

}  // namespace claimrag::verification
