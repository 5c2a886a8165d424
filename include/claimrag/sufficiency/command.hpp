#pragma once
// The library side of `claimrag sufficiency` and `claimrag sufficiency-bench`.
//
// sufficiency: examples {"id", "claim", "evidence": [...]} (JSON Lines) are judged by SURE: each
// (claim, passage) pair by the verifier in `model` (a file of `claimrag verify --save-model`), or
// read from `scores`, then the aggregator in `aggregator` (models/sufficiency_aggregator.json of
// a reproduction). One output line per example, in input order:
//   {"id", "label", "probabilities": {"Supported", "Refuted", "Insufficient"}, "score" (s),
//    "uncertainty" (u), "decision": "answer"|"abstain", "reason" (only when unjudged),
//    "passages", "duplicates_removed", "blank_removed", "features": {name: value},
//    "failed" (only when the verifier could not judge a passage): [{"passage": index, "reason"}]}
// More pairs the verifier could not judge than `max_failures` allows fail the command, nothing
// written (verification/verdict_failures.hpp).
// `scores`: JSON Lines {"id", "pairs": [[support, refute, neutral(, rationale)], ...]}, one pair
// per evidence passage in order, for every example id; each distribution finite, in [0, 1] and
// summing to 1 within 1e-6 (a NaN or infinity is not JSON and fails as such): DataError
// `file:line: reason` otherwise.
//
// With a run instead (the command line's --data, --run, --split | --queries, --k): each claim's top k
// documents are its passages, one passage per document.
//
// With a judge instead (`judge`, llm_judge.hpp): each example is sent to a served chat model, one
// request each, and its answer is the decision: the same output format, probabilities one-hot,
// "features" empty, and a failed example written with "label": null and "failure". When more
// than `max_failures` (a share of the requests) fail, nothing is written: DataError naming the
// count and the first failure. No aggregator is read.
//
// `evaluation`, when set: every example must carry a gold label (UsageError otherwise); the
// system's numbers on them (evaluation.hpp's method_numbers: macro-F1, per-class F1, safe/unsafe
// F1, risk-coverage, ECE) are written there as JSON {"system", "examples", "evaluated",
// "failures", "numbers"}; failed examples are left out of the numbers and counted.
//
// sufficiency-bench: builds the SciFact benchmark (benchmark.hpp) from SciFact's original layout.

#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "claimrag/served/chat.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/shard/shard_selection.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::sufficiency {

/// Opens the verifier that scores the pairs when no --scores are given (the command line's
/// --model / --verifier, through experiment::open_verifier); called after the inputs are read.
using VerifierOpener = std::function<std::unique_ptr<verification::ClaimVerifier>()>;

/// Opens the transport to the judge's endpoint (live, recording or replaying); called after the
/// inputs are read.
using TransportOpener = std::function<std::unique_ptr<served::Transport>()>;

/// The served judge of `sufficiency --judge llm:URL`.
struct JudgeCommand {
  TransportOpener open_transport;     ///< set: the examples are judged by the served model
  std::string model;                  ///< --llm-model (required with a judge)
  std::filesystem::path prompt = "configs/prompts/sufficiency_judge.txt";  ///< the prompt file (llm_judge.hpp)
  double max_failures = 0;            ///< share of requests that may fail, in [0, 1]
};

struct SufficiencyCommand {
  std::filesystem::path examples;
  std::filesystem::path model;       ///< verifier file (used when `open_verifier` is not set); or
  VerifierOpener open_verifier;      ///< the verifier; or
  std::filesystem::path scores;      ///< precomputed pair scores
  std::filesystem::path aggregator;  ///< SURE's aggregator (not with a judge)
  JudgeCommand judge = {};           ///< or a served judge
  std::filesystem::path out;
  double max_failures = 0.0;         ///< share of pairs the verifier may fail to judge
  std::string verifier_spec = {};    ///< --verifier, for the failure message
  std::filesystem::path evaluation = {};  ///< optional: the numbers on gold labels (see above)
  shard::ShardSelection* shard = nullptr;  ///< the shard of the examples to decide (shard_selection.hpp); nullptr: all
};

/// Runs `sufficiency` on `command.examples`: inputs are read and checked before any model is
/// loaded; the output is written atomically. UsageError unless exactly one of a verifier (model or
/// open_verifier), scores and a judge is given, and unless a judge comes without an aggregator.
void run_sufficiency(const SufficiencyCommand& command);

/// The same on examples already built (e.g. from a run: examples_from_inputs); `command.examples`
/// is not read. Only `command.shard`'s block of them is decided, when it is set.
void run_sufficiency(const SufficiencyCommand& command, const std::vector<Example>& examples);

/// Claims with retrieved documents (verification/verify_inputs.hpp's inputs_from_run) as examples:
/// id and claim_id the claim's id, one passage per document (its sentences joined by a space),
/// in rank order; a claim with no document has empty evidence (Insufficient, "no evidence").
std::vector<Example> examples_from_inputs(std::span<const verification::VerificationInput> inputs);

struct SufficiencyBenchCommand {
  std::filesystem::path original;  ///< SciFact's original layout (corpus.jsonl, claims_train.jsonl, claims_dev.jsonl)
  std::filesystem::path out;       ///< the benchmark, JSON Lines
  BenchmarkOptions options;
};

/// Runs `sufficiency-bench`; prints the counts per split and label to the log.
void run_sufficiency_bench(const SufficiencyBenchCommand& command);

}  // namespace claimrag::sufficiency
