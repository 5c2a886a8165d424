#pragma once
// Claim-level grounding's first step with a served model: an answer written by a chat model from a
// question and its retrieved context, before it is grounded (ground.hpp).
//
// The prompt is a file holding {question} and {context} once each (text/prompt_template.hpp):
// configs/prompts/grounding_answer.txt, or grounding_answer_refusal.txt for the prompt-level
// refusal baseline ("answer only if the context supports it, otherwise say I don't know"). The
// context is shown as numbered passages, one per document, each its sentences joined by a space
// (the sentences grounding judges against; titles are left out for that reason).
//
// One request per question, temperature 0, no JSON schema (the answer is free text), all through
// one exchange_chat call. The answer is the reply's content without surrounding whitespace. A
// failed exchange (connection, status, refusal, no content) or an answer with nothing but
// whitespace is a failure: counted and written as failed, never passed on as an empty answer.

#include <string>
#include <vector>

#include "claimrag/grounding/answers_file.hpp"
#include "claimrag/served/chat.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/text/prompt_template.hpp"

namespace claimrag::grounding {

/// The placeholders an answer prompt must hold.
inline const std::vector<std::string> kAnswerPlaceholders{"question", "context"};

/// The chat options of answer generation: `model`, temperature 0, free text.
served::ChatOptions answer_chat_options(const std::string& model);

/// The context as the prompt shows it (see above).
std::string context_text(const std::vector<verification::EvidenceDocument>& context);

/// The prompt for one question.
std::string answer_prompt(const text::PromptTemplate& prompt, const QuestionWithContext& question);

/// What the model wrote for one question.
struct GeneratedAnswer {
  std::string text;     ///< the answer, trimmed; empty exactly when failed
  std::string failure;  ///< why there is no answer; "" when written
  [[nodiscard]] bool failed() const { return !failure.empty(); }
};

/// An answer from a reply's content: trimmed, or a failure when nothing is left.
GeneratedAnswer answer_from_content(const std::string& content);

/// One answer per question, in order.
std::vector<GeneratedAnswer> generate_answers(served::Transport& transport, const text::PromptTemplate& prompt,
                                              const served::ChatOptions& chat, const std::vector<QuestionWithContext>& questions);

}  // namespace claimrag::grounding
