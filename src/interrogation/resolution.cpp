#include "claimrag/interrogation/resolution.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>
#include <vector>

namespace claimrag::interrogation {
namespace {

struct Token {
  std::string text;
  bool word = true;  ///< false for a punctuation mark, which bounds clauses
};

using Words = std::initializer_list<std::string_view>;

bool is_one_of(std::string_view token, Words words) {
  return std::find(words.begin(), words.end(), token) != words.end();
}

/// Lower case, curly quotes and apostrophes made straight.
std::string normalise(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80) {
      const auto third = static_cast<unsigned char>(text[i + 2]);
      if (third == 0x9C || third == 0x9D) {  // “ ”
        out.push_back('"');
        i += 2;
        continue;
      }
      if (third == 0x98 || third == 0x99) {  // ‘ ’
        out.push_back('\'');
        i += 2;
        continue;
      }
    }
    out.push_back(byte < 0x80 ? static_cast<char>(std::tolower(byte)) : static_cast<char>(byte));
  }
  return out;
}

/// A tag such as <html>, </p> or <!DOCTYPE: a model or a proxy answered with a web page.
bool looks_like_markup(std::string_view text) {
  for (std::size_t open = text.find('<'); open != std::string_view::npos; open = text.find('<', open + 1)) {
    if (open + 1 < text.size()) {
      const char next = text[open + 1];
      if ((std::isalpha(static_cast<unsigned char>(next)) != 0 || next == '/' || next == '!') &&
          text.find('>', open) != std::string_view::npos) {
        return true;
      }
    }
  }
  return false;
}

void erase_all(std::string& text, const std::string& part) {
  if (part.empty()) return;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at)) {
    text.replace(at, part.size(), " ");
  }
}

/// Removes every "..." span; an unpaired quote is dropped alone.
std::string without_quoted_spans(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find('"', at);
    if (open == std::string::npos) {
      out.append(text, at);
      break;
    }
    out.append(text, at, open - at);
    const std::size_t close = text.find('"', open + 1);
    out.push_back(' ');
    at = close == std::string::npos ? open + 1 : close + 1;
  }
  return out;
}

std::vector<Token> tokenise(std::string_view text) {
  std::vector<Token> tokens;
  std::string word;
  const auto flush = [&] {
    while (!word.empty() && word.back() == '\'') word.pop_back();
    const auto start = word.find_first_not_of('\'');
    if (start != std::string::npos) tokens.push_back({word.substr(start), true});
    word.clear();
  };
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '\'' || byte >= 0x80) {
      word.push_back(c);
    } else {
      flush();
      if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '(' || c == ')') {
        tokens.push_back({std::string(1, c), false});
      }
    }
  }
  flush();
  return tokens;
}

bool contains_phrase(const std::vector<Token>& tokens, const std::vector<std::string_view>& phrase) {
  const std::size_t length = phrase.size();
  if (tokens.size() < length) return false;
  for (std::size_t i = 0; i + length <= tokens.size(); ++i) {
    std::size_t matched = 0;
    for (const std::string_view part : phrase) {
      if (tokens[i + matched].text != part) break;
      ++matched;
    }
    if (matched == length) return true;
  }
  return false;
}

bool is_hedge(const std::vector<Token>& tokens) {
  // Vectors, not initializer lists: a stored initializer list would outlive its array.
  static const std::vector<std::vector<std::string_view>> hedges = {
      {"not", "sure"}, {"unsure"}, {"uncertain"}, {"unclear"}, {"not", "clear"}, {"inconclusive"},
      {"undetermined"}, {"unknown"}, {"neutral"}, {"cannot", "be", "determined"},
      {"can't", "be", "determined"}, {"cannot", "determine"}, {"can't", "determine"},
      {"unable", "to", "determine"}, {"not", "possible", "to", "determine"},
      {"impossible", "to", "determine"}, {"difficult", "to", "determine"}, {"hard", "to", "say"},
      {"cannot", "be", "verified"}, {"cannot", "verify"}, {"can't", "verify"}, {"cannot", "say"},
      {"can't", "say"}, {"not", "enough", "information"}, {"not", "enough", "evidence"},
      {"insufficient", "information"}, {"insufficient", "evidence"}, {"insufficient", "data"},
      {"no", "information"}, {"does", "not", "provide"}, {"doesn't", "provide"},
      {"do", "not", "provide"}, {"neither", "true", "nor", "false"}, {"i", "don't", "know"},
      {"i", "do", "not", "know"}, {"not", "mentioned"}, {"does", "not", "mention"},
      {"doesn't", "mention"}, {"not", "addressed"}, {"does", "not", "address"}, {"doesn't", "address"}};
  return std::any_of(hedges.begin(), hedges.end(),
                     [&](const std::vector<std::string_view>& phrase) { return contains_phrase(tokens, phrase); });
}

/// Rule 3: +1 affirms the proposition asked, -1 denies it, 0 neutral, nullopt no completion word.
std::optional<int> completion_verdict(const std::vector<Token>& tokens) {
  const auto judge = [](std::string_view word) -> std::optional<int> {
    if (is_one_of(word, {"high", "higher", "likely", "strong", "probable", "certain"})) return 1;
    if (is_one_of(word, {"low", "lower", "unlikely", "weak", "improbable", "small", "slim"})) return -1;
    if (is_one_of(word, {"moderate", "medium"})) return 0;
    return std::nullopt;
  };
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (is_one_of(tokens[i].text, {"relatively", "quite", "very", "fairly"})) {
      if (const auto verdict = judge(tokens[i + 1].text)) return verdict;
    }
  }
  if (!tokens.empty() && tokens.front().word) return judge(tokens.front().text);
  return std::nullopt;
}

bool negates(std::string_view word) {
  return word == "not" || word == "never" || word == "cannot" ||
         (word.size() > 3 && word.ends_with("n't"));
}

/// Rule 4: true when the first statement on the claim's truth affirms it, false when it denies it.
std::optional<bool> truth_statement(const std::vector<Token>& tokens) {
  const Words copulas = {"is", "are", "was", "were", "be", "been", "being", "seems", "seem", "appears",
                         "appear", "remains", "remain", "isn't", "aren't", "wasn't", "weren't"};
  const Words fillers = {"not", "necessarily", "entirely", "completely", "fully", "strictly", "actually",
                         "indeed", "therefore", "thus", "still", "also", "never"};
  const Words positive = {"true", "correct", "accurate", "valid", "right", "supported", "confirmed"};
  const Words negative = {"false", "incorrect", "inaccurate", "invalid", "wrong", "untrue", "refuted",
                          "contradicted", "disproven", "disproved"};
  const Words positive_verbs = {"supports", "confirms", "support", "confirm"};
  const Words negative_verbs = {"refutes", "contradicts", "disproves", "refute", "contradict", "disprove"};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& word = tokens[i].text;
    if (is_one_of(word, copulas)) {
      int negations = negates(word) ? 1 : 0;
      for (std::size_t j = i + 1; j < tokens.size() && j <= i + 4; ++j) {
        const std::string& next = tokens[j].text;
        const bool is_positive = is_one_of(next, positive);
        if (is_positive || is_one_of(next, negative)) return is_positive == (negations % 2 == 0);
        if (!is_one_of(next, fillers)) break;
        if (negates(next)) ++negations;
      }
    }
    const bool positive_verb = is_one_of(word, positive_verbs);
    if (positive_verb || is_one_of(word, negative_verbs)) {
      const bool negated = i > 0 && negates(tokens[i - 1].text);
      // A bare "support" or "refute" without a negation before it is a noun or an imperative.
      const bool inflected = word.ends_with('s');
      if (negated || inflected) return positive_verb != negated;
    }
  }
  return std::nullopt;
}

/// Rules 5 and 6: the sign (+1 yes, -1 no) and the rule that found it.
std::optional<std::pair<int, int>> direct_answer(const std::vector<Token>& tokens) {
  const Words yes = {"yes", "yeah", "yep", "correct", "true", "indeed", "absolutely", "certainly", "definitely"};
  const Words no = {"no", "nope", "incorrect", "false"};
  if (!tokens.empty() && tokens.front().word) {
    if (is_one_of(tokens.front().text, yes)) return std::pair{1, 5};
    if (is_one_of(tokens.front().text, no)) return std::pair{-1, 5};
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const bool alone = (i == 0 || !tokens[i - 1].word) && (i + 1 == tokens.size() || !tokens[i + 1].word);
    const bool announced = i >= 2 && tokens[i - 1].text == "is" && tokens[i - 2].text == "answer";
    if (!alone && !announced) continue;
    if (tokens[i].text == "yes") return std::pair{1, 6};
    if (tokens[i].text == "no") return std::pair{-1, 6};
  }
  return std::nullopt;
}

Answer from_sign(int sign) {
  return sign > 0 ? Answer::support : sign < 0 ? Answer::refute : Answer::neutral;
}

}  // namespace

Resolution resolve_response(const Probe& probe, std::string_view text, std::string_view probe_claim) {
  std::string normalised = normalise(text);
  if (looks_like_markup(normalised)) return {Answer::neutral, false, 1};
  erase_all(normalised, normalise(probe_claim));
  const auto tokens = tokenise(without_quoted_spans(normalised));
  if (tokens.empty() || std::none_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.word; })) {
    return {Answer::neutral, false, 1};
  }
  if (is_hedge(tokens)) return {Answer::neutral, true, 2};
  if (probe.form == ProbeForm::completion) {
    if (const auto verdict = completion_verdict(tokens)) return {from_sign(*verdict), true, 3};
  }
  if (const auto affirmed = truth_statement(tokens)) {
    // The claim affirmed answers "is it true?" with yes and "is it false?" with no.
    return {*affirmed != probe.asks_false ? Answer::support : Answer::refute, true, 4};
  }
  if (const auto answer = direct_answer(tokens)) return {from_sign(answer->first), true, answer->second};
  return {Answer::neutral, false, 7};
}

Answer stance_on_claim(const Probe& probe, Answer answer) {
  return probe.set() == ProbeSet::conflict ? invert(answer) : answer;
}

}  // namespace claimrag::interrogation
