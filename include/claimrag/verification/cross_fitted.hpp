#pragma once
// Verdicts on training claims from models that never saw them (cross-fitting).
//
// Every system built on the verifier chooses something on the train claims (interrogation's α,
// grounding's thresholds, sufficiency's aggregator). A verifier trained on those same claims
// judges them far more confidently than it judges new ones, so a choice made on its in-sample
// verdicts does not transfer. A CrossFittedVerifier holds one model per fold of the claim
// families (claim_folds.hpp), each trained on the other folds, and answers for a training claim
// with the model that held it out.
//
// The fold models reuse the full model's τ and θ (already chosen by cross-validation on train)
// instead of choosing their own, which keeps cross-fitting about as cheap as one training. A
// document outside a claim's family (a retrieved non-evidence abstract, say) may have been seen
// by the fold model together with another claim; only the claim's own family is held out.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::verification {

class CrossFittedVerifier final : public ClaimVerifier {
 public:
  CrossFittedVerifier(std::vector<std::unique_ptr<ClaimVerifier>> models, std::map<std::string, std::size_t> fold_of_claim);

  /// Each input is judged by the model of its claim_id's fold; a claim_id that was not among the
  /// training claims is a UsageError naming it (there is no held-out model for it).
  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override;
  /// Cross-fitted models judge only their own training claims, so they are not saved: UsageError.
  void save(const std::filesystem::path& file) const override;

  [[nodiscard]] std::size_t folds() const { return models_.size(); }
  /// The fold of a training claim; UsageError for an unknown id.
  [[nodiscard]] std::size_t fold_of(const std::string& claim_id) const;

 private:
  std::vector<std::unique_ptr<ClaimVerifier>> models_;
  std::map<std::string, std::size_t> fold_of_claim_;
};

/// Trains options.folds models, fold f on every claim outside fold f, with the grids reduced to
/// the given τ and θ (a full model's TrainingReport). Throws UsageError as train_claim_verifier.
CrossFittedVerifier cross_fit_verifier(const VerifierTrainingData& data, const VerificationOptions& options, double tau,
                                       double nei_threshold);

}  // namespace claimrag::verification
