// The LLM judge's backend, `--verifier llm:URL`: a chat endpoint asked with the judge's prompt
// (--prompt, else the shipped one) for the model --llm-model names, through the served transport
// (live, recording or replaying). Its record counts the citations the judge dropped, rewritten
// beside the output whenever the count grows.

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/interrogation/resolution.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

fs::path judge_prompt_file(const VerifierSource& source) {
  return source.llm_prompt.empty() ? shipped_file(kDefaultJudgePrompt) : source.llm_prompt;
}

void describe_llm_judge(nlohmann::ordered_json& record, const VerifierSource& source, const verification::VerifierSpec&,
                        const ExperimentConfig&) {
  const fs::path prompt = judge_prompt_file(source);
  record["model"] = source.llm_model;
  // The shipped prompt by its name in the shipped folder, so that the record is the same
  // wherever claimrag is installed; the checksum says which text it was.
  const fs::path named = source.llm_prompt.empty() ? fs::path(kDefaultJudgePrompt) : prompt;
  record["prompt"] = {{"file", named.string()}, {"xxh64", io::file_checksum(prompt)}};
  record["temperature"] = 0.0;
  record["dropped_citations"] = 0;
}

// The LLM judge over the chat endpoint of `spec`, through the transport its served options open
// (live, recording or replaying).
std::unique_ptr<verification::ClaimVerifier> open_llm_judge(const VerifierSource& source,
                                                            const verification::VerifierSpec& spec, const ExperimentConfig& config) {
  refuse_builtin_model_files(source, spec, "is a served judge");
  if (source.llm_model.empty()) {
    throw UsageError("--verifier " + verification::to_string(spec) + " needs --llm-model NAME (the model the endpoint serves)");
  }
  const fs::path prompt = judge_prompt_file(source);
  verification::LlmJudgeOptions options{.model = source.llm_model,
                                        .prompt_template = verification::load_judge_prompt(prompt),
                                        .temperature = 0.0,
                                        .resolve_text = judge_text_resolution(),
                                        .report_dropped_citations = [source, config](std::size_t total) {
                                          auto record = verifier_record(source, config);
                                          record["dropped_citations"] = total;
                                          write_verifier_record(source, record);
                                        }};
  served::ServedOptions served = source.served;
  served.endpoint.url = spec.location;
  auto transport = served::open_transport(served);
  spdlog::info("LLM judge: model {} at {}, prompt {}, temperature 0{}", source.llm_model, transport->url(), prompt.string(),
               served_mode_note(served));
  return std::make_unique<verification::LlmJudgeVerifier>(std::move(transport), std::move(options));
}

}  // namespace

verification::JudgeTextResolver judge_text_resolution() {
  return [](std::string_view text, std::string_view claim) -> std::optional<verification::Label> {
    const interrogation::Probe probe{.id = "judge",
                                     .template_text = "Does the evidence support the claim {claim}?",
                                     .asks_false = false,
                                     .negated_claim = false,
                                     .form = interrogation::ProbeForm::question,
                                     .original = true};
    const auto resolution = interrogation::resolve_response(probe, text, claim);
    if (!resolution.resolved) return std::nullopt;
    switch (resolution.answer) {
      case interrogation::Answer::support: return verification::Label::support;
      case interrogation::Answer::refute: return verification::Label::contradict;
      case interrogation::Answer::neutral: return verification::Label::not_enough_info;
    }
    return std::nullopt;
  };
}

VerifierBackend llm_verifier_backend() {
  return {.kind = "llm",
          .location = SpecLocation::url,
          .open = open_llm_judge,
          .describe = describe_llm_judge,
          .records_beside = true,
          .served = true,
          .reads = [](const VerifierSource& source, const verification::VerifierSpec&) { return judge_prompt_file(source); }};
}

}  // namespace claimrag::experiment
