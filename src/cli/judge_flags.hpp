#pragma once
// The flags of a subcommand whose --verifier may be a served judge (llm:URL) or another served
// backend (tei:URL): the served model's flags (served_flags.hpp, with --llm-model), the judge's
// --prompt, and --max-failures, the share of pairs that may go unjudged.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "options.hpp"
#include "served_flags.hpp"

namespace claimrag::cli {

struct JudgeFlags {
  ServedFlags served;
  std::filesystem::path prompt;  ///< --prompt: the LLM judge's prompt template
  double max_failures = 0.0;     ///< --max-failures
};

inline void add_judge_flags(CLI::App& command, JudgeFlags& flags) {
  add_served_flags(command, flags.served, /*chat=*/true);
  command.add_option("--prompt", flags.prompt,
                     std::string("LLM judge: prompt template with {claim} and {evidence} (default: ") +
                         experiment::kDefaultJudgePrompt + ")");
  command.add_option("--max-failures", flags.max_failures,
                     "Share of (claim, document) pairs the verifier may fail to judge (counted NOT_ENOUGH_INFO, written "
                     "as failed); more fails the run")
      ->capture_default_str()
      ->check(number_in(0, 1));
}

/// Whether `spec` (a --verifier text, empty for builtin) names a served model.
inline bool is_served_verifier(const std::string& spec) {
  if (spec.empty()) return false;
  return experiment::verifier_backend(experiment::parse_verifier_spec(spec).kind).served;
}

/// The served part of a VerifierSource for `spec`, whose command writes `out` (resolve_served:
/// the recording beside it by default). --prompt without an LLM judge is a UsageError.
inline void set_served_source(experiment::VerifierSource& source, const JudgeFlags& flags, const std::filesystem::path& out) {
  source.served = resolve_served(flags.served, is_served_verifier(source.spec), out);
  source.llm_model = flags.served.llm_model;
  source.llm_prompt = flags.prompt;
  const bool llm = !source.spec.empty() && experiment::parse_verifier_spec(source.spec).kind == "llm";
  if (!llm && !flags.prompt.empty()) throw UsageError("--prompt is the LLM judge's (--verifier llm:URL)");
  if (!llm && !flags.served.llm_model.empty()) throw UsageError("--llm-model names the LLM judge's model (--verifier llm:URL)");
}

/// set_served_source for a request of verify or ground (whose verifier spec is `request.verifier`
/// and whose output is `out`), copied into the request's served fields and --max-failures; the
/// source is returned for the command's declaration of its inputs and outputs.
template <class Request>
experiment::VerifierSource apply_judge_flags(Request& request, const JudgeFlags& flags, const std::filesystem::path& out) {
  experiment::VerifierSource source;
  source.spec = request.verifier;
  set_served_source(source, flags, out);
  request.served = source.served;
  request.llm_model = source.llm_model;
  request.llm_prompt = source.llm_prompt;
  request.max_failures = flags.max_failures;
  return source;
}

/// What the verifier reads, an input of the command: an LLM judge's prompt file, a checkpoint's
/// folder (whose model files io::OutputPlan counts as inputs), else empty.
inline std::filesystem::path verifier_input(const experiment::VerifierSource& source) {
  if (source.spec.empty()) return {};
  const auto spec = experiment::parse_verifier_spec(source.spec);
  const auto& reads = experiment::verifier_backend(spec.kind).reads;
  return reads ? reads(source, spec) : std::filesystem::path();
}

}  // namespace claimrag::cli
