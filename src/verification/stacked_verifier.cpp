#include "claimrag/verification/stacked_verifier.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::verification {
namespace {

void check_matching(const ClaimVerdict& a, const ClaimVerdict& b, const VerificationInput& input) {
  if (a.documents.size() != input.documents.size() || b.documents.size() != input.documents.size()) {
    throw UsageError("stacked verifier: verdicts on claim " + input.claim_id + " do not match its documents");
  }
}

DocumentVerdict stacked_document(const DocumentVerdict& builtin, const DocumentVerdict& checkpoint,
                                 const linear::SoftmaxRegressionModel& model) {
  const auto features = stacked_features(builtin, checkpoint);
  linear::RowMatrixXd row(1, static_cast<Eigen::Index>(features.size()));
  for (std::size_t j = 0; j < features.size(); ++j) row(0, static_cast<Eigen::Index>(j)) = features[j];
  const Eigen::MatrixXd probabilities = model.predict_probabilities(row);
  DocumentVerdict verdict;
  verdict.doc_id = builtin.doc_id;
  for (std::size_t k = 0; k < label_count; ++k) verdict.probabilities[k] = probabilities(0, static_cast<Eigen::Index>(k));
  const auto best = std::max_element(verdict.probabilities.begin(), verdict.probabilities.end());
  verdict.label = static_cast<Label>(best - verdict.probabilities.begin());
  verdict.sentence_scores = builtin.sentence_scores;
  verdict.truncated_sentences = checkpoint.truncated_sentences;
  if (verdict.label == Label::not_enough_info) return verdict;
  verdict.rationale = !builtin.rationale.empty() ? builtin.rationale : checkpoint.rationale;
  if (verdict.rationale.empty() && !builtin.sentence_scores.empty()) {
    const auto top = std::max_element(builtin.sentence_scores.begin(), builtin.sentence_scores.end(),
                                      [](const SentenceScore& a, const SentenceScore& b) { return a.score < b.score; });
    verdict.rationale = {top->index};
  }
  return verdict;
}

class StackedVerifier final : public ClaimVerifier {
 public:
  StackedVerifier(std::unique_ptr<ClaimVerifier> builtin, std::unique_ptr<ClaimVerifier> checkpoint,
                  linear::SoftmaxRegressionModel model)
      : builtin_(std::move(builtin)), checkpoint_(std::move(checkpoint)), model_(std::move(model)) {}

  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    const auto builtin = builtin_->verify(inputs);
    const auto checkpoint = checkpoint_->verify(inputs);
    std::vector<ClaimVerdict> verdicts(inputs.size());
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      check_matching(builtin[c], checkpoint[c], inputs[c]);
      verdicts[c].claim_id = inputs[c].claim_id;
      verdicts[c].reason = builtin[c].reason;
      for (std::size_t d = 0; d < inputs[c].documents.size(); ++d) {
        verdicts[c].documents.push_back(stacked_document(builtin[c].documents[d], checkpoint[c].documents[d], model_));
      }
    }
    return verdicts;
  }

  void save(const std::filesystem::path& file) const override {
    throw UsageError("--save-model " + file.string() + ": the stacked verifier is not saved; it is fitted again from "
                     "the built-in verifier and the checkpoint");
  }

 private:
  std::unique_ptr<ClaimVerifier> builtin_;
  std::unique_ptr<ClaimVerifier> checkpoint_;
  linear::SoftmaxRegressionModel model_;
};

}  // namespace

std::vector<double> stacked_features(const DocumentVerdict& builtin, const DocumentVerdict& checkpoint) {
  std::vector<double> features;
  for (const auto* verdict : {&builtin, &checkpoint}) {
    for (const double p : verdict->probabilities) features.push_back(std::log(std::max(p, 1e-6)));
  }
  return features;
}

linear::SoftmaxRegressionModel fit_stacked_label_model(std::span<const LabelledInput> claims,
                                                       const std::vector<ClaimVerdict>& builtin,
                                                       const std::vector<ClaimVerdict>& checkpoint, double l2) {
  if (builtin.size() != claims.size() || checkpoint.size() != claims.size()) {
    throw UsageError("stacked verifier: one verdict per training claim is needed from each model");
  }
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    check_matching(builtin[c], checkpoint[c], claims[c].input);
    for (std::size_t d = 0; d < claims[c].input.documents.size(); ++d) {
      rows.push_back(stacked_features(builtin[c].documents[d], checkpoint[c].documents[d]));
      labels.push_back(static_cast<int>(claims[c].gold[d].label));
    }
  }
  if (rows.empty()) throw UsageError("stacked verifier: no training document");
  linear::RowMatrixXd X(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < rows[i].size(); ++j) X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  }
  linear::SoftmaxRegressionOptions options;
  options.l2 = l2;
  return linear::fit_softmax_regression(X, labels, static_cast<int>(label_count), options);
}

std::unique_ptr<ClaimVerifier> make_stacked_verifier(std::unique_ptr<ClaimVerifier> builtin,
                                                     std::unique_ptr<ClaimVerifier> checkpoint,
                                                     linear::SoftmaxRegressionModel model) {
  if (!builtin || !checkpoint) throw InternalError("make_stacked_verifier: a model is missing");
  return std::make_unique<StackedVerifier>(std::move(builtin), std::move(checkpoint), std::move(model));
}

}  // namespace claimrag::verification
