// The built-in backend, `--verifier builtin` (the default): a verifier saved with --save-model
// read back from --model, else the free-text verifier (free_text_verifier.hpp), trained and
// cached there, and saved to --save-model when that is given.

#include "claimrag/experiment/verification/free_text_verifier.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/error.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::experiment {

VerifierBackend builtin_verifier_backend() {
  return {.kind = "builtin",
          .location = SpecLocation::none,
          .open = [](const VerifierSource& source, const verification::VerifierSpec&, const ExperimentConfig& config)
              -> std::unique_ptr<verification::ClaimVerifier> {
            if (!source.model.empty() && !source.save_model.empty()) {
              throw UsageError("--save-model saves a trained verifier: give it without --model");
            }
            if (!source.model.empty()) return verification::load_free_text_verifier(source.model, &config.verification.options);
            auto verifier = open_free_text_verifier(source, config);
            if (!source.save_model.empty()) verifier->save(source.save_model);
            return verifier;
          }};
}

}  // namespace claimrag::experiment
