// A stand-in for a served chat model, for the tests and CI of `sufficiency --judge` and
// `ground --generate`: an OpenAI-compatible /v1/chat/completions on 127.0.0.1 whose answers come
// from fixed lexical rules, so that recordings made against it are the same on every machine. It
// stands in for a model; it is not one, and its numbers say nothing about any model.
//
//   stand_in_chat_server PORT [LIFETIME_SECONDS]     (default lifetime 300: it never outlives a CI step)
//
// It reads the one user message and recognises the project's prompts by their lines:
//  - a judge prompt (configs/prompts/sufficiency_judge.txt) by "Claim: ..." and numbered passages
//    "[n] ..." after "Passages:". Rule: the claim's content words are its distinct lowercase
//    alphanumeric tokens of 4 or more characters; coverage is the share of them found in the
//    passages together; the claim is negated when it holds "not", "no", "never", "without" or
//    "cannot", and so is a passage. Coverage below 0.6: {"label": "Insufficient"}. Otherwise
//    "Refuted" when the claim's negation differs from that of the passage holding most of its
//    content words (the first such passage), else "Supported".
//  - an answer prompt (configs/prompts/grounding_answer*.txt) by "Question: ..." and numbered
//    passages after "Context:". Answer: the first sentence of each of the first two passages,
//    then one sentence found in no passage ("kOutsideSentence"), so that grounding has a claim to
//    drop. Asked to say "I don't know" (the refusal prompt) when the question's content words have
//    a coverage below 0.3 in the context, or with no passage at all, it answers "I don't know.".
// Anything else is answered with status 400.

#include "httplib.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char* kOutsideSentence = "The effect was first described in a survey of Antarctic penguin colonies in 1911.";

std::set<std::string> content_words(const std::string& text) {
  std::set<std::string> words;
  std::string word;
  for (const char c : text + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      if (word.size() >= 4) words.insert(word);
      word.clear();
    }
  }
  return words;
}

bool negated(const std::string& text) {
  std::string word;
  for (const char c : text + " ") {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      continue;
    }
    if (word == "not" || word == "no" || word == "never" || word == "without" || word == "cannot") return true;
    word.clear();
  }
  return false;
}

/// Share of `wanted` present in `words` (0 when nothing is wanted).
double coverage(const std::set<std::string>& wanted, const std::set<std::string>& words) {
  if (wanted.empty()) return 0.0;
  std::size_t found = 0;
  for (const auto& word : wanted) found += words.count(word);
  return static_cast<double>(found) / static_cast<double>(wanted.size());
}

/// What a prompt holds: the text after "<key>: " and the numbered passages after `section`.
struct ParsedPrompt {
  std::string subject;  ///< the claim or the question
  std::vector<std::string> passages;
  bool found = false;
};

ParsedPrompt parse_prompt(const std::string& prompt, const std::string& key, const std::string& section) {
  ParsedPrompt parsed;
  std::istringstream lines(prompt);
  bool in_section = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + ": ", 0) == 0) {
      parsed.subject = line.substr(key.size() + 2);
      parsed.found = true;
    } else if (line == section + ":") {
      in_section = true;
    } else if (in_section && line.size() > 3 && line[0] == '[') {
      const auto close = line.find("] ");
      if (close != std::string::npos) parsed.passages.push_back(line.substr(close + 2));
    }
  }
  return parsed;
}

std::string judge(const ParsedPrompt& prompt) {
  const auto claim = content_words(prompt.subject);
  std::set<std::string> all;
  std::size_t best = 0;
  double best_coverage = -1;
  for (std::size_t p = 0; p < prompt.passages.size(); ++p) {
    const auto words = content_words(prompt.passages[p]);
    all.insert(words.begin(), words.end());
    const double c = coverage(claim, words);
    if (c > best_coverage) {
      best_coverage = c;
      best = p;
    }
  }
  std::string label = "Insufficient";
  if (!prompt.passages.empty() && coverage(claim, all) >= 0.6) {
    label = negated(prompt.subject) != negated(prompt.passages[best]) ? "Refuted" : "Supported";
  }
  return nlohmann::json{{"label", label}}.dump();
}

std::string first_sentence(const std::string& passage) {
  for (std::size_t i = 0; i + 1 < passage.size(); ++i) {
    if ((passage[i] == '.' || passage[i] == '!' || passage[i] == '?') && passage[i + 1] == ' ') return passage.substr(0, i + 1);
  }
  return passage;
}

std::string answer(const ParsedPrompt& prompt, bool may_refuse) {
  std::set<std::string> context;
  for (const auto& passage : prompt.passages) {
    const auto words = content_words(passage);
    context.insert(words.begin(), words.end());
  }
  if (may_refuse && (prompt.passages.empty() || coverage(content_words(prompt.subject), context) < 0.3)) return "I don't know.";
  std::string text;
  for (std::size_t p = 0; p < prompt.passages.size() && p < 2; ++p) {
    std::string sentence = first_sentence(prompt.passages[p]);
    if (!sentence.empty() && std::string(".!?").find(sentence.back()) == std::string::npos) sentence += '.';
    text += sentence + " ";
  }
  return text + kOutsideSentence;
}

void respond(const httplib::Request& request, httplib::Response& response) {
  const auto body = nlohmann::json::parse(request.body, nullptr, false);
  std::string prompt;
  if (body.is_object() && body.contains("messages") && body["messages"].is_array() && !body["messages"].empty() &&
      body["messages"].back().value("content", nlohmann::json()).is_string()) {
    prompt = body["messages"].back()["content"].get<std::string>();
  }
  std::string content;
  if (const auto claim = parse_prompt(prompt, "Claim", "Passages"); claim.found) {
    content = judge(claim);
  } else if (const auto question = parse_prompt(prompt, "Question", "Context"); question.found) {
    content = answer(question, prompt.find("I don't know") != std::string::npos);
  } else {
    response.status = 400;
    response.set_content(R"({"error": {"message": "the stand-in answers only the project's judge and answer prompts"}})",
                         "application/json");
    return;
  }
  const nlohmann::json reply{
      {"object", "chat.completion"},
      {"model", body.value("model", "")},
      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", "stop"}}}}};
  response.set_content(reply.dump(), "application/json");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: stand_in_chat_server PORT [LIFETIME_SECONDS]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const int lifetime = argc == 3 ? std::atoi(argv[2]) : 300;
  if (port <= 0 || port > 65535 || lifetime <= 0) {
    std::fprintf(stderr, "stand_in_chat_server: bad port or lifetime\n");
    return 2;
  }
  httplib::Server server;
  server.Post("/v1/chat/completions", respond);
  server.Post("/chat/completions", respond);
  std::atomic<bool> stopped{false};
  std::thread watchdog([&server, &stopped, lifetime] {
    for (int waited = 0; waited < lifetime * 10 && !stopped; ++waited) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.stop();
  });
  std::fprintf(stderr, "stand_in_chat_server: listening on 127.0.0.1:%d\n", port);
  const bool listened = server.listen("127.0.0.1", port);
  stopped = true;
  watchdog.join();
  if (!listened) {
    std::fprintf(stderr, "stand_in_chat_server: cannot listen on 127.0.0.1:%d\n", port);
    return 1;
  }
  return 0;
}
