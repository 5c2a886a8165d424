#pragma once
// A served chat model as a sufficiency judge: SURE-RAG's LLM-judge baseline. The model sees the
// claim and the example's passages, numbered, and nothing else (no gold label, no other system's
// output); it answers with a JSON label {"label": "Supported" | "Refuted" | "Insufficient"}, asked
// at temperature 0 with that JSON schema (served/chat.hpp falls back without it where a server
// refuses schemas), one request per example.
//
// The prompt is a file (default configs/prompts/sufficiency_judge.txt) holding {claim} and
// {passages} once each (text/prompt_template.hpp); passages are shown as numbered_passages.
//
// Passages go through the same bad-input rules as SURE's pair scoring (pair_scoring.hpp):
// duplicates and blank passages are removed and counted, and an example with no evidence or a
// claim without words is not sent: Insufficient with a reason, as SURE decides it.
//
// Reading the answer: served::json_in_content finds the JSON object in the reply's content; its
// "label" must be one of the three names (compared without regard to case or surrounding
// whitespace). A failed exchange (connection, status, refusal, no content), content without a
// JSON object, or an object without a known label is a failure: counted, written as a failure,
// never read as Insufficient.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/served/chat.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/sufficiency/example.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/text/prompt_template.hpp"

namespace claimrag::sufficiency {

/// The placeholders a judge prompt must hold.
inline const std::vector<std::string> kJudgePlaceholders{"claim", "passages"};

/// The JSON schema of the judge's answer: an object with one required "label", one of the three.
nlohmann::json judge_label_schema();

/// The chat options of the judge: `model`, temperature 0, the schema above.
served::ChatOptions judge_chat_options(const std::string& model);

/// The prompt for a claim and its (kept) passages.
std::string judge_prompt(const text::PromptTemplate& prompt, const std::string& claim, const std::vector<std::string>& passages);

/// The label in a model's reply content, or nullopt with `why` set ("no JSON object in the answer",
/// "the answer's \"label\" is \"Maybe\", not Supported, Refuted or Insufficient").
std::optional<SufficiencyLabel> read_judge_label(std::string_view content, std::string& why);

/// What the judge gave one example.
struct JudgeDecision {
  std::optional<SufficiencyLabel> label;  ///< nullopt exactly when `failure` is set
  std::string failure;                    ///< why no label could be read; "" when judged
  std::string reason;                     ///< set when not sent (no evidence, claim without words): Insufficient
  bool sent = false;                      ///< a request was made for it
  [[nodiscard]] bool failed() const { return !failure.empty(); }
};

/// Judges every example, one request each, all through one exchange_chat call (so the transport
/// runs them concurrently); `prepared` receives the bad-input bookkeeping of pair_scoring.hpp
/// (kept passages, removed counts, reasons), parallel to `examples`.
std::vector<JudgeDecision> judge_examples(served::Transport& transport, const text::PromptTemplate& prompt,
                                          const served::ChatOptions& chat, const std::vector<Example>& examples,
                                          std::vector<ScoredExample>& prepared);

/// One output line in `sufficiency`'s format (command.hpp) for a judged example: the label, its
/// probabilities one-hot, score = P(Supported), uncertainty 0, decision "answer" when Supported,
/// "features" empty (the judge has none). A failed example: "label", "probabilities" and "score"
/// null, decision "abstain", and "failure": the reason.
nlohmann::ordered_json judge_output_line(const Example& example, const ScoredExample& prepared, const JudgeDecision& decision);

}  // namespace claimrag::sufficiency
