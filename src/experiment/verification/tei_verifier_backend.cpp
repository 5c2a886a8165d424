// The Text Embeddings Inference backend, `--verifier tei:URL`: an NLI cross-encoder served at
// URL's /predict, decided by the checkpoint rule of config.verification.checkpoint, in requests of
// its batch_size pairs, through the served transport (live, recording or replaying).

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/verification/tei_verifier.hpp"

namespace claimrag::experiment {
namespace {

std::unique_ptr<verification::ClaimVerifier> open_tei_verifier(const VerifierSource& source,
                                                               const verification::VerifierSpec& spec,
                                                               const ExperimentConfig& config) {
  refuse_builtin_model_files(source, spec, "asks the served model");
  if (!config.verification.checkpoint.labels.empty()) {
    throw UsageError("verification.checkpoint.labels declares a checkpoint folder's labels; --verifier " +
                     verification::to_string(spec) + " maps the label names /predict returns");
  }
  served::ServedOptions served = source.served;
  served.endpoint.url = spec.location;
  const verification::TeiVerifierOptions options{checkpoint_verifier_options(config).rule,
                                                 config.verification.checkpoint.batch_size};
  auto verifier = verification::make_tei_verifier(served::open_transport(served), options);
  spdlog::info("served verifier: Text Embeddings Inference at {}, premise {}, threshold {}, {} pairs a request{}", spec.location,
               verification::premise_unit_name(options.rule.premise), options.rule.threshold, options.batch_size,
               served_mode_note(served));
  return verifier;
}

void describe_tei_verifier(nlohmann::ordered_json& record, const VerifierSource&, const verification::VerifierSpec&,
                           const ExperimentConfig& config) {
  const auto options = checkpoint_verifier_options(config);
  record["rule"] = {{"premise", verification::premise_unit_name(options.rule.premise)},
                    {"threshold", options.rule.threshold},
                    {"max_rationale", options.rule.max_rationale}};
  record["batch_size"] = config.verification.checkpoint.batch_size;
}

}  // namespace

VerifierBackend tei_verifier_backend() {
  return {.kind = "tei",
          .location = SpecLocation::url,
          .open = open_tei_verifier,
          .describe = describe_tei_verifier,
          .records_beside = true,
          .served = true,
          .reads = {}};
}

}  // namespace claimrag::experiment
