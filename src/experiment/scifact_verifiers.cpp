#include "claimrag/experiment/scifact_verifiers.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"

namespace claimrag::experiment {

SciFactVerifiers::SciFactVerifiers(const ExperimentConfig& config, std::filesystem::path work, const Results& results)
    : config_(config), work_(std::move(work)), results_(results) {
  const std::filesystem::path original = config.data.original;
  if (original.empty()) throw UsageError("the verifier's stages need data.original (SciFact's original layout)");
  abstracts_ = dataset::load_abstracts(original / "corpus.jsonl");
  index_ = verification::index_abstracts(abstracts_);
  train_claims_ = dataset::load_claims(original / "claims_train.jsonl", &abstracts_);
  dev_claims_ = dataset::load_claims(original / "claims_dev.jsonl", &abstracts_);
  corpus_texts_ = verification::corpus_texts(abstracts_);
}

const verification::ClaimVerifier& SciFactVerifiers::oracle() {
  if (!oracle_) {
    oracle_ = verification::load_claim_verifier(work_ / "models" / "verifier_oracle.safetensors",
                                                &config_.verification.options);
  }
  return *oracle_;
}

const verification::CrossFittedVerifier& SciFactVerifiers::cross_fitted_oracle() {
  if (!cross_fitted_) {
    const auto cv = results_.find("verification_cv");
    if (cv == results_.end() || !cv->second.contains("oracle_tau") || !cv->second.contains("oracle_nei_threshold")) {
      throw UsageError("the cross-fitted verifier needs the verification stage's choices (run it first)");
    }
    spdlog::info("cross-fitting the oracle verifier over the train claims' families");
    cross_fitted_ = std::make_unique<verification::CrossFittedVerifier>(verification::cross_fit_verifier(
        {verification::oracle_inputs(train_claims_, index_), corpus_texts_}, config_.verification.options,
        cv->second.at("oracle_tau"), cv->second.at("oracle_nei_threshold")));
  }
  return *cross_fitted_;
}

}  // namespace claimrag::experiment
