#pragma once
// sufficiency and interrogate each run once on a one-item input through a given verifier, for the
// CLI tests that check every subcommand that verifies takes a verifier's flags.

#include <filesystem>
#include <string>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::testing {

/// `sufficiency` on one example (the committed aggregator) with `verifier_flags`, writing `out`.
inline Outcome run_sufficiency_on_one_example(const TempFolder& folder, const std::string& verifier_flags,
                                              const std::filesystem::path& out) {
  const auto examples = folder.write("examples.jsonl", R"({"id": "e1", "claim": "the drug reduces risk", "evidence": ["the drug reduces risk of cancer", "a cat sat"]})"
                                                       "\n");
  return run_claimrag("--quiet sufficiency --examples " + examples.string() +
                          " --aggregator data/fixtures/sufficiency/aggregator.json --out " + out.string() + verifier_flags,
                      folder.path());
}

/// `interrogate` on one pair, two probes and two samples by the built-in responder with
/// `verifier_flags`, writing `out`.
inline Outcome run_interrogate_on_one_pair(const TempFolder& folder, const std::string& verifier_flags,
                                           const std::filesystem::path& out) {
  const auto pairs = folder.write("ipairs.jsonl", R"({"id": "p1", "claim": "the drug reduces risk", "evidence": "the drug reduces risk of cancer"})"
                                                  "\n");
  const auto probes = folder.write("probes.json", R"({"probes": [
      {"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
      {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"}]})");
  return run_claimrag("--quiet interrogate --pairs " + pairs.string() + " --probes " + probes.string() +
                          " --samples 2 --responder builtin --out " + out.string() + verifier_flags,
                      folder.path());
}

}  // namespace claimrag::testing
