#pragma once
// SciFact's original layout and the claim verifiers, shared by the reproduction stages built on
// the verifier (interrogation, grounding, sufficiency): read and trained once per reproduction,
// on first use.
//
// - oracle(): the oracle-setting verifier the verification stage saved
//   (models/verifier_oracle.safetensors), trained on the train claims only: what judges dev.
// - cross_fitted_oracle(): the same training cross-fitted over the train claims' families
//   (verification/cross_fitted.hpp), with the τ and θ the verification stage chose: what judges
//   train claims when a stage chooses a threshold or fits a model on them.

#include <filesystem>
#include <memory>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"
#include "claimrag/verification/cross_fitted.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::experiment {

class SciFactVerifiers {
 public:
  /// `work` is the reproduction folder; `results` must hold the verification stage's
  /// verification_cv section before cross_fitted_oracle() is called.
  SciFactVerifiers(const ExperimentConfig& config, std::filesystem::path work, const Results& results);

  [[nodiscard]] const std::vector<dataset::Abstract>& abstracts() const { return abstracts_; }
  [[nodiscard]] const verification::AbstractIndex& index() const { return index_; }
  [[nodiscard]] const std::vector<dataset::Claim>& train_claims() const { return train_claims_; }
  [[nodiscard]] const std::vector<dataset::Claim>& dev_claims() const { return dev_claims_; }
  /// title + " " + sentences, per abstract in corpus order (what the verifier's TF-IDF is fitted on).
  [[nodiscard]] const std::vector<std::string>& corpus_texts() const { return corpus_texts_; }

  const verification::ClaimVerifier& oracle();
  const verification::CrossFittedVerifier& cross_fitted_oracle();
  /// Whether cross_fitted_oracle() has been trained already.
  [[nodiscard]] bool has_cross_fitted_oracle() const { return cross_fitted_ != nullptr; }

 private:
  const ExperimentConfig& config_;
  std::filesystem::path work_;
  const Results& results_;
  std::vector<dataset::Abstract> abstracts_;
  verification::AbstractIndex index_;
  std::vector<dataset::Claim> train_claims_;
  std::vector<dataset::Claim> dev_claims_;
  std::vector<std::string> corpus_texts_;
  std::unique_ptr<verification::ClaimVerifier> oracle_;
  std::unique_ptr<verification::CrossFittedVerifier> cross_fitted_;
};

}  // namespace claimrag::experiment
