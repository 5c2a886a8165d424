#pragma once
// The seam behind `--verifier SPEC`: one registry of verifier backends. A backend owns its name
// (the SPEC's prefix), how it opens its verifier from a VerifierSource, its options and refusals,
// and what the record beside a command's output says about it. open_verifier and verifier_record
// (verifier_factory.hpp) look the backend up by name and never branch on it.
//
// The shipped backends (builtin, checkpoint, llm, tei) each live in their own file and are listed
// once in the registry (shipped_verifier_backends in verifier_backend_registry.cpp: a file of a
// static library that nothing calls would not be linked). Code linked as an object, such as a
// test, adds one by one line: `const bool added = register_verifier_backend(my_backend());`.

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/verification/verifier_source.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/verifier_spec.hpp"

namespace claimrag::experiment {

/// What follows a backend's name in SPEC.
enum class SpecLocation {
  none,    ///< the name alone ("builtin")
  folder,  ///< NAME:DIR, a non-empty path
  url,     ///< NAME:URL, starting with http:// or https://
};

/// One verifier backend.
struct VerifierBackend {
  using Opener = std::function<std::unique_ptr<verification::ClaimVerifier>(
      const VerifierSource&, const verification::VerifierSpec&, const ExperimentConfig&)>;
  using Describer = std::function<void(nlohmann::ordered_json& record, const VerifierSource&,
                                       const verification::VerifierSpec&, const ExperimentConfig&)>;
  using Reader = std::function<std::filesystem::path(const VerifierSource&, const verification::VerifierSpec&)>;

  std::string kind;                                ///< the SPEC's name: letters, digits, '_' or '-'
  SpecLocation location = SpecLocation::none;      ///< what follows "kind:"
  /// The verifier (not yet behind guard_wordless_claims, which open_verifier adds); refuses the
  /// flags that do not apply to it with a UsageError.
  Opener open;
  /// Adds the backend's fields to its record after "spec" (verifier_record); empty: none.
  Describer describe = {};
  /// Whether its record is written beside the command's output (verifier_meta_output).
  bool records_beside = false;
  /// Whether it reaches a served model (the command's served flags and recording apply).
  bool served = false;
  /// What it reads that the command must count among its inputs (a folder, a prompt); empty
  /// function or path: nothing.
  Reader reads = {};
};

/// Adds `backend` after those already registered (the order parse_verifier_spec lists them in).
/// InternalError when its kind is empty, holds a character other than letters, digits, '_' and
/// '-', or is taken, or when it has no opener. Returns true, for a one-line registration.
bool register_verifier_backend(VerifierBackend backend);

/// Every registered backend: the shipped ones first, in the order builtin, checkpoint, llm, tei.
const std::vector<VerifierBackend>& verifier_backends();

/// The backend named `kind`. UsageError when none is (parse_verifier_spec refuses such a SPEC first).
const VerifierBackend& verifier_backend(std::string_view kind);

/// Parses SPEC against the registered backends: "NAME" for a backend without location,
/// "NAME:LOCATION" otherwise. UsageError quoting the text and listing the registered forms
/// ("builtin, checkpoint:DIR, llm:URL or tei:URL") when it is none of them, or when DIR / URL is
/// empty; a URL must start with http:// or https://.
verification::VerifierSpec parse_verifier_spec(std::string_view text);

/// The spec `source` names (parse_verifier_spec of source.spec, "builtin" when empty).
verification::VerifierSpec source_spec(const VerifierSource& source);

/// For backends that read no built-in verifier's file: UsageError when source names --model or
/// --save-model, "--model and --save-model name a built-in verifier's file; --verifier SPEC " +
/// `what_it_reads`.
void refuse_builtin_model_files(const VerifierSource& source, const verification::VerifierSpec& spec,
                                std::string_view what_it_reads);

/// How a served backend's log line ends: ", replayed from FILE", ", recorded to FILE" or nothing.
std::string served_mode_note(const served::ServedOptions& served);

/// Writes {"program", "version", "verifier": record} to verifier_meta_path(source.record_beside)
/// (atomically); nothing when record_beside is empty.
void write_verifier_record(const VerifierSource& source, const nlohmann::ordered_json& record);

}  // namespace claimrag::experiment
