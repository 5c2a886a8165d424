#pragma once
// `claimrag interrogate` as one library call: read the pairs and probes, build the responder named
// by its specification, interrogate, write the results, the recording and the claim-level verdicts.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "claimrag/interrogation/http_responder.hpp"
#include "claimrag/interrogation/interrogate.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/shard/shard_selection.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::interrogation {

struct InterrogateCommand {
  std::filesystem::path pairs;       ///< the pairs file; or, when empty, split + run + k:
  std::string split;                 ///< a qrels split of `data` whose claims are interrogated
  std::filesystem::path run;         ///< each claim's ranking
  std::size_t k = 3;                 ///< documents per claim from `run`
  std::filesystem::path data;        ///< BEIR folder for pairs given by doc_id and for `split`
  std::filesystem::path probes = "configs/probes.json";
  std::string responder;             ///< "builtin", "recorded:FILE" or "http"
  std::filesystem::path model_file;  ///< the built-in verifier's model (used when `open_verifier` is not set)
  /// Opens the built-in responder's verifier (the command line's --model / --verifier, through
  /// experiment::open_verifier); when set, model_file is not read here.
  std::function<std::unique_ptr<verification::ClaimVerifier>()> open_verifier;
  HttpResponderOptions http;         ///< for "http"
  InterrogationOptions interrogation;
  double temperature = 1.0;          ///< sampling temperature, built-in and http responders
  std::uint64_t seed = 42;
  std::filesystem::path out;
  std::filesystem::path record;      ///< every answer in the recorded format; empty: none
  std::filesystem::path claims_out;  ///< claim-level verdicts; empty: none
  double max_failures = 0.0;         ///< the share of answers that may not be obtained, in [0, 1]
  shard::ShardSelection* shard = nullptr;  ///< the shard of the pairs to interrogate (shard_selection.hpp); nullptr: all
};

/// Builds the responder `spec` names. "builtin" needs `model_file` (UsageError without it). Any
/// other spec is a UsageError listing the valid ones.
std::unique_ptr<Responder> make_responder(const InterrogateCommand& command);

/// The pairs the command asks about: the pairs file, or each of the split's claims with its top k
/// documents of the run (a claim without a ranking is warned about, by count and first ids).
/// UsageError when neither or both are given, or the split lacks --data.
std::vector<InterrogationPair> command_pairs(const InterrogateCommand& command);

/// What the command reads (pairs, run, data, probes, model, recording to replay) and writes (out,
/// the recording, claim verdicts), for the io::OutputPlan the command runs under.
io::OutputDeclaration command_files(const InterrogateCommand& command);

/// The whole subcommand. When more than `max_failures` of the answers could not be obtained (every
/// attempt refused, timed out, cut or malformed), nothing is written and a DataError names the
/// responder, the count and the first reason; fewer are warned about, written to the recording as
/// failures and counted as Neutral. For the http responder the recording is written even when `record` is
/// empty, to `<out>.responses.jsonl`, so that every external model's run can be replayed.
void run_interrogate(const InterrogateCommand& command);

}  // namespace claimrag::interrogation
