#pragma once
// `claimrag ground` as one library call: reads an answers file (grounding/answers_file.hpp),
// checks every line before any model is loaded, grounds every answer with the verifier
// open_verifier gives (verification/verifier_factory.hpp: --model, else the free-text one) at
// the thresholds of the configuration's "grounding" section (or the request's), and writes one
// output line per answer, in input order (grounding/ground.hpp), atomically.
//
// With `questions` instead of `answers` (`ground --generate llm:URL`): each question's answer is
// first written by a served chat model from the question and its context
// (grounding/answer_generation.hpp), then grounded as above. Each output line then also holds
// "question" and "generated_answer" (the model's answer before grounding; "answer" stays the
// grounded one). A question whose generation failed is written as
//   {"id", "question", "generated_answer": null, "generation_failure": reason}
// and is not grounded; when more than `max_failures` (a share of the questions) fail, nothing is
// written: DataError naming the count and the first failure.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::experiment {

/// The served answer writer of `ground --generate`.
struct AnswerGeneration {
  std::function<std::unique_ptr<served::Transport>()> open_transport;  ///< called after the inputs are read
  std::string model;                                                   ///< --llm-model
  std::filesystem::path prompt = "configs/prompts/grounding_answer.txt";  ///< holds {question} and {context}
  double max_failures = 0;                                             ///< share of questions that may fail, in [0, 1]
};

struct GroundRequest {
  std::filesystem::path answers;   ///< JSON Lines of {"id", "answer", "context"?}; or
  std::filesystem::path questions = {};  ///< JSON Lines of {"id", "question", "context"?}, answered by `generation`
  AnswerGeneration generation = {};
  std::filesystem::path out;       ///< JSON Lines, one grounded answer a line
  std::filesystem::path data;      ///< BEIR folder: context document ids are looked up in its corpus
  std::filesystem::path original;  ///< SciFact release layout: its documents' sentences
  std::filesystem::path run;       ///< TREC run giving contexts to lines without one (by answer id)
  std::size_t k = 10;              ///< documents taken from the run
  std::string verifier;            ///< --verifier SPEC; empty: builtin
  std::filesystem::path model;     ///< a verifier saved by `verify --save-model` or the reproduction; empty: the free-text one
  std::optional<double> support_threshold;   ///< τ_s; absent: grounding.support_threshold
  std::optional<double> conflict_threshold;  ///< τ_c; absent: grounding.conflict_threshold
  std::optional<double> contradict_ratio;    ///< γ; absent: grounding.contradict_ratio
  served::ServedOptions served = {};         ///< a served --verifier's endpoint rules, recording, replay
  std::string llm_model = {};                ///< --verifier llm:URL: the model name
  std::filesystem::path llm_prompt = {};     ///< --verifier llm:URL: the prompt template; empty: the default
  double max_failures = 0.0;                 ///< share of (claim, passage) pairs the verifier may fail to judge
  shard::ShardSelection* shard = nullptr;    ///< --answers: the shard of the answers to ground; nullptr: all
};

/// What grounding did.
struct GroundSummary {
  std::size_t answers = 0;
  std::size_t claims = 0;
  std::size_t kept_claims = 0;         ///< claims labelled supported
  std::size_t conflicting_claims = 0;  ///< claims dropped as conflicting; the rest were irrelevant
  std::size_t refused = 0;
  std::size_t partial_before = 0;
  std::size_t partial_after = 0;
  std::size_t failed_passages = 0;       ///< (claim, passage) pairs the verifier could not judge
  std::size_t generation_failures = 0;  ///< questions whose answer could not be generated
};

/// UsageError for not exactly one of --answers and --questions (the latter with a generation
/// transport and model), a missing --out, a --run without --data, --k 0 or a threshold outside
/// [0, 1]; DataError (file:line) for bad input, and when more (claim, passage) pairs than
/// max_failures allows could not be judged (nothing written).
GroundSummary run_ground(const GroundRequest& request, const ExperimentConfig& config);

}  // namespace claimrag::experiment
