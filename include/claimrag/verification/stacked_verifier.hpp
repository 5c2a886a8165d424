#pragma once
// The stacked verifier: the built-in verifier and an NLI checkpoint verifier judge every
// (claim, document) pair, and a softmax regression (linear/softmax_regression.hpp) reads both
// distributions to give the document's. Its six features are ln(max(p, 1e-6)) of the built-in
// verifier's P(SUPPORT), P(CONTRADICT), P(NEI), then of the checkpoint's. It is fitted on
// training claims' documents with their gold labels, from verdicts of models that never saw
// those claims (the built-in verifier cross-fitted over claim families, cross_fitted.hpp; the
// checkpoint saw none of them), so that it learns how far to trust each on new claims.
//
// A document's label is the most probable of the stacked distribution (ties: SUPPORT, then
// CONTRADICT); its rationale, for a SUPPORT or CONTRADICT label, the built-in verifier's selected
// sentences, else the checkpoint's, else the built-in selector's best sentence; its sentence
// scores are the built-in selector's, and truncated_sentences the checkpoint's.

#include <memory>
#include <span>
#include <vector>

#include "claimrag/linear/softmax_regression.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::verification {

/// The six features of one document, as above.
std::vector<double> stacked_features(const DocumentVerdict& builtin, const DocumentVerdict& checkpoint);

/// Fits the stacking model on every document of `claims`: builtin[c] and checkpoint[c] are the
/// verdicts on claims[c].input. UsageError for verdicts that do not match the claims' documents
/// or for no document at all.
linear::SoftmaxRegressionModel fit_stacked_label_model(std::span<const LabelledInput> claims,
                                                       const std::vector<ClaimVerdict>& builtin,
                                                       const std::vector<ClaimVerdict>& checkpoint, double l2);

/// The verifier. Its save() is a UsageError: it is refitted from its parts when needed.
std::unique_ptr<ClaimVerifier> make_stacked_verifier(std::unique_ptr<ClaimVerifier> builtin,
                                                     std::unique_ptr<ClaimVerifier> checkpoint,
                                                     linear::SoftmaxRegressionModel model);

}  // namespace claimrag::verification
