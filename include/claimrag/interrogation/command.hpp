#pragma once
// `claimrag interrogate` as one library call: read the pairs and probes, build the responder named
// by its specification, interrogate, write the results, the recording and the claim-level verdicts.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "claimrag/interrogation/http_responder.hpp"
#include "claimrag/interrogation/interrogate.hpp"

namespace claimrag::interrogation {

struct InterrogateCommand {
  std::filesystem::path pairs;
  std::filesystem::path data;        ///< BEIR folder for pairs given by doc_id; may be empty
  std::filesystem::path probes = "configs/probes.json";
  std::string responder;             ///< "builtin", "recorded:FILE" or "http"
  std::filesystem::path model_file;  ///< the built-in verifier's model
  HttpResponderOptions http;         ///< for "http"
  InterrogationOptions interrogation;
  double temperature = 1.0;          ///< sampling temperature, built-in and http responders
  std::uint64_t seed = 42;
  std::filesystem::path out;
  std::filesystem::path record;      ///< every answer in the recorded format; empty: none
  std::filesystem::path claims_out;  ///< claim-level verdicts; empty: none
};

/// Builds the responder `spec` names. "builtin" needs the trained verifier, which this build does
/// not have yet: a UsageError says so. Any other spec is a UsageError listing the valid ones.
std::unique_ptr<Responder> make_responder(const InterrogateCommand& command);

/// The whole subcommand. For the http responder the recording is written even when `record` is
/// empty, to `<out>.responses.jsonl`, so that every external model's run can be replayed.
void run_interrogate(const InterrogateCommand& command);

}  // namespace claimrag::interrogation
