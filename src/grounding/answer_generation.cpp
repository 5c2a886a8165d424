#include "claimrag/grounding/answer_generation.hpp"

#include "claimrag/error.hpp"

namespace claimrag::grounding {

served::ChatOptions answer_chat_options(const std::string& model) {
  served::ChatOptions options;
  options.model = model;
  options.temperature = 0.0;
  return options;
}

std::string context_text(const std::vector<verification::EvidenceDocument>& context) {
  std::vector<std::string> passages;
  for (const auto& document : context) {
    std::string passage;
    for (const auto& sentence : document.sentences) passage += (passage.empty() ? "" : " ") + sentence;
    passages.push_back(std::move(passage));
  }
  return text::numbered_passages(passages);
}

std::string answer_prompt(const text::PromptTemplate& prompt, const QuestionWithContext& question) {
  return prompt.render({{"question", question.question}, {"context", context_text(question.context)}});
}

GeneratedAnswer answer_from_content(const std::string& content) {
  const auto begin = content.find_first_not_of(" \t\r\n\f\v");
  if (begin == std::string::npos) return {"", "the model wrote an empty answer"};
  const auto end = content.find_last_not_of(" \t\r\n\f\v");
  return {content.substr(begin, end - begin + 1), ""};
}

std::vector<GeneratedAnswer> generate_answers(served::Transport& transport, const text::PromptTemplate& prompt,
                                              const served::ChatOptions& chat, const std::vector<QuestionWithContext>& questions) {
  std::vector<served::JsonRequest> requests;
  requests.reserve(questions.size());
  for (const auto& question : questions) requests.push_back(served::chat_request(answer_prompt(prompt, question), chat));
  const auto replies = served::exchange_chat(transport, requests);
  if (replies.size() != requests.size()) throw InternalError("the transport answered a different number of requests");
  std::vector<GeneratedAnswer> answers;
  answers.reserve(replies.size());
  for (const auto& reply : replies) {
    answers.push_back(reply.ok() ? answer_from_content(served::chat_content(reply.body)) : GeneratedAnswer{"", reply.failure});
  }
  return answers;
}

}  // namespace claimrag::grounding
