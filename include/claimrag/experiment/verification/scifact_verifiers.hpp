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
// - open() and cross_fitted_open(): the same pair for the open setting (each claim's BM25 top k
//   abstracts, k as the verification stage chose it), for the stages that answer from retrieval.

#include <filesystem>
#include <memory>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"
#include "claimrag/verification/cross_fitted.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::experiment {

/// The BM25 depth searched for a free-text training claim's same-topic neighbour: the first
/// abstract it does not cite is nearly always within the top five.
inline constexpr std::size_t kFreeTextNeighbourDepth = 20;

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
  const verification::ClaimVerifier& open();
  const verification::CrossFittedVerifier& cross_fitted_open();
  [[nodiscard]] bool has_cross_fitted_open() const { return cross_fitted_open_ != nullptr; }
  /// The free-text verifier (models/verifier_free_text.safetensors) and its cross-fitted twin,
  /// for the stages that judge users' own text (grounding's defaults).
  const verification::ClaimVerifier& free_text();
  const verification::CrossFittedVerifier& cross_fitted_free_text();
  /// The free-text setting's inputs of `claims` (verification::free_text_inputs, neighbours from
  /// BM25's top kFreeTextNeighbourDepth, the experiment's seed).
  [[nodiscard]] std::vector<verification::LabelledInput> free_text_inputs(const std::vector<dataset::Claim>& claims) const;
  /// What the free-text verifier is trained on: free_text_inputs, plus the passages of
  /// verification::add_passages when the configuration asks for them.
  [[nodiscard]] std::vector<verification::LabelledInput> free_text_training_inputs(
      const std::vector<dataset::Claim>& claims) const;
  /// The open setting's k, chosen by the verification stage (UsageError before it has run).
  [[nodiscard]] std::size_t open_k() const;
  /// The open setting's inputs of `claims`: each claim's BM25 top open_k() abstracts.
  [[nodiscard]] std::vector<verification::LabelledInput> open_inputs(const std::vector<dataset::Claim>& claims) const;

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
  std::unique_ptr<verification::ClaimVerifier> open_;
  std::unique_ptr<verification::CrossFittedVerifier> cross_fitted_open_;
  std::unique_ptr<verification::ClaimVerifier> free_text_;
  std::unique_ptr<verification::CrossFittedVerifier> cross_fitted_free_text_;

  /// verification_cv's value `name`; UsageError naming it when the verification stage has not run.
  [[nodiscard]] double chosen(const std::string& name) const;
  /// The cross-fitted verifier of `setting` ("oracle", "open" or "free_text") on its training inputs, with the
  /// τ and θ the verification stage chose for that setting.
  [[nodiscard]] std::unique_ptr<verification::CrossFittedVerifier> cross_fit(
      const std::string& setting, const std::vector<verification::LabelledInput>& items) const;
};

}  // namespace claimrag::experiment
