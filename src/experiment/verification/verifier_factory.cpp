#include "claimrag/experiment/verification/verifier_factory.hpp"

#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/verification/wordless_claims.hpp"

namespace claimrag::experiment {

nlohmann::ordered_json verifier_record(const VerifierSource& source, const ExperimentConfig& config) {
  const verification::VerifierSpec spec = source_spec(source);
  nlohmann::ordered_json record;
  record["spec"] = verification::to_string(spec);
  if (const auto& describe = verifier_backend(spec.kind).describe) describe(record, source, spec, config);
  return record;
}

std::filesystem::path verifier_meta_path(const std::filesystem::path& out) {
  std::filesystem::path meta = out;
  meta.replace_extension(".meta.json");
  return meta;
}

std::filesystem::path verifier_meta_output(const std::string& spec, const std::filesystem::path& out) {
  if (spec.empty() || out.empty()) return {};
  return verifier_backend(parse_verifier_spec(spec).kind).records_beside ? verifier_meta_path(out) : std::filesystem::path();
}

std::unique_ptr<verification::ClaimVerifier> open_verifier(const VerifierSource& source, const ExperimentConfig& config) {
  const verification::VerifierSpec spec = source_spec(source);
  const VerifierBackend& backend = verifier_backend(spec.kind);
  auto verifier = backend.open(source, spec, config);
  if (backend.records_beside) write_verifier_record(source, verifier_record(source, config));
  return verification::guard_wordless_claims(std::move(verifier));
}

}  // namespace claimrag::experiment
