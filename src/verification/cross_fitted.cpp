#include "claimrag/verification/cross_fitted.hpp"

#include "claimrag/error.hpp"
#include "claimrag/verification/claim_folds.hpp"

namespace claimrag::verification {

CrossFittedVerifier::CrossFittedVerifier(std::vector<std::unique_ptr<ClaimVerifier>> models,
                                         std::map<std::string, std::size_t> fold_of_claim)
    : models_(std::move(models)), fold_of_claim_(std::move(fold_of_claim)) {
  for (const auto& [claim, fold] : fold_of_claim_) {
    if (fold >= models_.size() || !models_[fold]) {
      throw UsageError("cross-fitted verifier: claim " + claim + " is in fold " + std::to_string(fold) + " without a model");
    }
  }
}

std::size_t CrossFittedVerifier::fold_of(const std::string& claim_id) const {
  const auto found = fold_of_claim_.find(claim_id);
  if (found == fold_of_claim_.end()) {
    throw UsageError("cross-fitted verifier: claim " + claim_id +
                     " was not a training claim, so no model held it out; use the full model for new claims");
  }
  return found->second;
}

std::vector<ClaimVerdict> CrossFittedVerifier::verify(std::span<const VerificationInput> inputs) const {
  // Inputs go to their fold's model in batches (each model's verify is parallel and
  // deterministic), then back into input order.
  std::vector<std::vector<VerificationInput>> batches(models_.size());
  std::vector<std::vector<std::size_t>> positions(models_.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::size_t fold = fold_of(inputs[i].claim_id);
    batches[fold].push_back(inputs[i]);
    positions[fold].push_back(i);
  }
  std::vector<ClaimVerdict> verdicts(inputs.size());
  for (std::size_t fold = 0; fold < models_.size(); ++fold) {
    if (batches[fold].empty()) continue;
    auto fold_verdicts = models_[fold]->verify(batches[fold]);
    for (std::size_t j = 0; j < fold_verdicts.size(); ++j) verdicts[positions[fold][j]] = std::move(fold_verdicts[j]);
  }
  return verdicts;
}

void CrossFittedVerifier::save(const std::filesystem::path& file) const {
  throw UsageError("cross-fitted verifier: not saved (" + file.string() +
                   "); its models judge only the training claims each one held out");
}

CrossFittedVerifier cross_fit_verifier(const VerifierTrainingData& data, const VerificationOptions& options, double tau,
                                       double nei_threshold) {
  if (options.folds < 2) throw UsageError("cross-fitted verifier: needs folds ≥ 2");
  std::vector<std::vector<std::string>> families;
  for (const auto& item : data.claims) families.push_back(item.family_doc_ids);
  const std::vector<std::size_t> fold_of = family_folds(families, options.folds);
  VerificationOptions fixed = options;
  fixed.tau_grid = {tau};
  fixed.nei_threshold_grid = {nei_threshold};
  std::map<std::string, std::size_t> fold_of_claim;
  for (std::size_t c = 0; c < data.claims.size(); ++c) {
    const auto [_, inserted] = fold_of_claim.emplace(data.claims[c].input.claim_id, fold_of[c]);
    if (!inserted) throw UsageError("cross-fitted verifier: claim id " + data.claims[c].input.claim_id + " occurs twice");
  }
  std::vector<std::unique_ptr<ClaimVerifier>> models;
  for (std::size_t fold = 0; fold < options.folds; ++fold) {
    VerifierTrainingData rest{{}, data.corpus_texts};
    for (std::size_t c = 0; c < data.claims.size(); ++c) {
      if (fold_of[c] != fold) rest.claims.push_back(data.claims[c]);
    }
    if (rest.claims.empty()) throw UsageError("cross-fitted verifier: every claim is in fold " + std::to_string(fold));
    models.push_back(train_claim_verifier(rest, fixed));
  }
  return CrossFittedVerifier(std::move(models), std::move(fold_of_claim));
}

}  // namespace claimrag::verification
