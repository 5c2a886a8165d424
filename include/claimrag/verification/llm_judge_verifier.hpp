#pragma once
// A served chat model as a judge (`--verifier llm:URL --llm-model NAME`): per (claim, document)
// one chat request, the prompt filled from a template (configs/prompts/verifier_judge.txt), sent
// at temperature 0 with the answer's JSON schema as response_format (served::exchange_chat sends it
// again without the schema to a server that refuses it with 400 or 422).
//
// The prompt template holds `{claim}` and `{evidence}`; the evidence is the document's sentences
// numbered from 1, one a line: "[1] First sentence.". The model is asked to answer only with
//   {"label": "SUPPORT" | "CONTRADICT" | "NOT_ENOUGH_INFO", "sentences": [numbers]}
//
// Reading an answer (read_judge_answer), in order:
//  1. The JSON object in the content (served::json_in_content with "label": the last object
//     holding it, after a reasoning model's thinking): "label" must be one of the three names (any
//     letter case); "sentences", when present, an array. A cited number that is not one of the
//     document's sentences (0, 99, 2.5, "3") is dropped and counted (logged, and reported through
//     LlmJudgeOptions::report_dropped_citations); the label stands. Anything else is a failure.
//  2. No JSON object (and no '{': a JSON object begun and not finished is a failure), in the text
//     after the thinking: a label word denied by a negation among the three words before it in
//     its clause ("does not SUPPORT", "NOT supported", "doesn't contradict") is a failure, never
//     read as that label or its opposite. Else the label names as the prompt spells them
//     (SUPPORT, CONTRADICT, NOT_ENOUGH_INFO, whole words): exactly one distinct name present
//     decides ("Answer: CONTRADICT"). Then the caller's free-text resolution
//     (LlmJudgeOptions::resolve_text; the command line uses the project's response resolution).
//     A label read from text cites no sentence.
//  3. Still nothing: a failure.
// A readable answer's probabilities are one-hot on its label: a chat reply carries no calibrated
// distribution (no log-probabilities are asked for). The rationale is the cited sentences (their
// 0-based indices, in the order cited, repeats dropped, at most three; none for NOT_ENOUGH_INFO),
// each scored 1 in sentence_scores and every other sentence 0; nei_threshold is empty.
//
// A failure — an exchange that failed (connection, timeout, HTTP status, a refusal, a reply that is
// not a chat completion) or an answer that cannot be read as above — is never a silent
// NOT_ENOUGH_INFO: the verdict is NOT_ENOUGH_INFO with probabilities (0, 0, 1) and carries the
// reason in DocumentVerdict::failure, which every writer of verdicts writes as "failed" and every
// command counts against its --max-failures (verification/verdict_failures.hpp).

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "claimrag/served/exchange.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/verdict_failures.hpp"

namespace claimrag::verification {

/// Reads a label out of an answer's free text; nullopt when the text gives none.
using JudgeTextResolver = std::function<std::optional<Label>(std::string_view text, std::string_view claim)>;

struct LlmJudgeOptions {
  std::string model;             ///< the model name sent to the endpoint (required)
  std::string prompt_template;   ///< with {claim} and {evidence} (load_judge_prompt)
  double temperature = 0.0;
  JudgeTextResolver resolve_text;  ///< step 2's free-text resolution; empty: the label names only
  /// Called after a verify() that dropped citations, with the total dropped so far (the command
  /// line writes it to the verifier's record); may be empty.
  std::function<void(std::size_t total)> report_dropped_citations = {};
};

/// The prompt file's text, checked: UsageError naming the file when it cannot be read, or lacks
/// `{claim}` or `{evidence}`.
std::string load_judge_prompt(const std::filesystem::path& file);

/// The JSON schema of an answer, sent as response_format.
nlohmann::json judge_answer_schema();

/// The document's sentences numbered from 1, one a line: "[1] ...\n[2] ...".
std::string numbered_evidence(const EvidenceDocument& document);

/// `prompt_template` with every `{claim}` and `{evidence}` filled (the evidence numbered), in one
/// pass: a claim holding "{evidence}" is sent as written.
std::string judge_prompt(std::string_view prompt_template, std::string_view claim, const EvidenceDocument& document);

/// The verdict on `document` read from the answer `content` as described above; a verdict with
/// `failure` set when it cannot be read. Dropped citations are added to `*dropped_citations`.
DocumentVerdict read_judge_answer(std::string_view content, std::string_view claim, const EvidenceDocument& document,
                                  const JudgeTextResolver& resolve_text, std::size_t* dropped_citations = nullptr);

class LlmJudgeVerifier final : public ClaimVerifier {
 public:
  /// UsageError for an empty model name or a template without {claim} or {evidence}.
  LlmJudgeVerifier(std::unique_ptr<served::Transport> transport, LlmJudgeOptions options);
  /// All pairs in one batch through the transport (at most its concurrency in flight); verdicts
  /// in input order. Calls are serialised: the transport records in call order.
  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override;
  /// UsageError: a served judge has no model file to save.
  void save(const std::filesystem::path& file) const override;

 private:
  std::unique_ptr<served::Transport> transport_;
  LlmJudgeOptions options_;
  mutable std::mutex mutex_;
  mutable std::size_t dropped_citations_ = 0;  ///< over every verify() so far
};

}  // namespace claimrag::verification
