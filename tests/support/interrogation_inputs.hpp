#pragma once
// A one-pair interrogation for command-line tests: the pairs file, two probes (original and
// asks-false) and a recording to replay, in a fresh folder. No data set is needed.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::testing {

struct InterrogationInputs {
  /// `recording`: JSON Lines of answers for pair p1, probes "o" and "f".
  explicit InterrogationInputs(const std::string& recording_text)
      : recording(folder.write("rec.jsonl", recording_text)) {}
  TempFolder folder;
  std::filesystem::path pairs = folder.write(
      "pairs.jsonl",
      R"({"id": "p1", "claim_id": "c1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk."})"
      "\n");
  std::filesystem::path probes = folder.write("probes.json", R"({"probes": [
      {"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
      {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"}]})");
  std::filesystem::path recording;
  std::filesystem::path out = folder.path() / "out.jsonl";
  /// `interrogate` over the pairs and probes, replaying the recording, with `more` flags.
  [[nodiscard]] std::string command(const std::string& more) const {
    return "interrogate --pairs " + pairs.string() + " --probes " + probes.string() + " --responder recorded:" +
           recording.string() + " " + more;
  }
};

}  // namespace claimrag::testing
