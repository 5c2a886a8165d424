#include "claimrag/experiment/verification/scifact_verifiers.hpp"

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

double SciFactVerifiers::chosen(const std::string& name) const {
  const auto cv = results_.find("verification_cv");
  if (cv == results_.end() || !cv->second.contains(name)) {
    throw UsageError("the verifier's later stages need the verification stage's choice " + name + " (run it first)");
  }
  return cv->second.at(name);
}

std::unique_ptr<verification::CrossFittedVerifier> SciFactVerifiers::cross_fit(const std::string& setting,
                                                                                const std::vector<verification::LabelledInput>& items) const {
  const double tau = chosen(setting + "_tau");
  const double nei_threshold = chosen(setting + "_nei_threshold");
  spdlog::info("cross-fitting the {} verifier over the train claims' families", setting);
  return std::make_unique<verification::CrossFittedVerifier>(
      verification::cross_fit_verifier({items, corpus_texts_}, config_.verification.options, tau, nei_threshold));
}

const verification::CrossFittedVerifier& SciFactVerifiers::cross_fitted_oracle() {
  if (!cross_fitted_) cross_fitted_ = cross_fit("oracle", verification::oracle_inputs(train_claims_, index_));
  return *cross_fitted_;
}

const verification::ClaimVerifier& SciFactVerifiers::open() {
  if (!open_) {
    open_ = verification::load_claim_verifier(work_ / "models" / "verifier_open.safetensors", &config_.verification.options);
  }
  return *open_;
}

std::size_t SciFactVerifiers::open_k() const { return static_cast<std::size_t>(chosen("open_k")); }

std::vector<verification::LabelledInput> SciFactVerifiers::open_inputs(const std::vector<dataset::Claim>& claims) const {
  const std::size_t k = open_k();
  const auto& bm25 = config_.bm25.parameters;
  return verification::open_inputs(claims, index_, verification::bm25_run(abstracts_, claims, bm25.k1, bm25.b, k), k);
}

const verification::CrossFittedVerifier& SciFactVerifiers::cross_fitted_open() {
  if (!cross_fitted_open_) cross_fitted_open_ = cross_fit("open", open_inputs(train_claims_));
  return *cross_fitted_open_;
}

std::vector<verification::LabelledInput> SciFactVerifiers::free_text_inputs(const std::vector<dataset::Claim>& claims) const {
  const auto& bm25 = config_.bm25.parameters;
  return verification::free_text_inputs(claims, abstracts_, index_,
                                        verification::bm25_run(abstracts_, claims, bm25.k1, bm25.b, kFreeTextNeighbourDepth),
                                        config_.seed);
}

std::vector<verification::LabelledInput> SciFactVerifiers::free_text_training_inputs(
    const std::vector<dataset::Claim>& claims) const {
  auto items = free_text_inputs(claims);
  if (config_.verification.options.passages) verification::add_passages(items, config_.seed);
  if (config_.verification.options.unrelated_passages) verification::add_unrelated_passages(items, config_.seed);
  return items;
}

const verification::ClaimVerifier& SciFactVerifiers::free_text() {
  if (!free_text_) {
    free_text_ = verification::load_claim_verifier(work_ / "models" / "verifier_free_text.safetensors",
                                                   &config_.verification.options);
  }
  return *free_text_;
}

const verification::CrossFittedVerifier& SciFactVerifiers::cross_fitted_free_text() {
  if (!cross_fitted_free_text_) cross_fitted_free_text_ = cross_fit("free_text", free_text_training_inputs(train_claims_));
  return *cross_fitted_free_text_;
}

}  // namespace claimrag::experiment
