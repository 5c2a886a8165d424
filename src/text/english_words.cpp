#include "english_words.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace claimrag::text::detail {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
char to_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }
char to_lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

}  // namespace

std::vector<Word> split_words(std::string_view text) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_alnum(text[i])) {
      ++i;
      continue;
    }
    Word word;
    word.begin = i;
    while (i < text.size()) {
      if (is_alnum(text[i])) {
        word.lower.push_back(to_lower(text[i]));
        ++i;
      } else if ((text[i] == '-' || text[i] == '\'') && i + 1 < text.size() && is_alnum(text[i + 1])) {
        word.lower.push_back(text[i]);
        ++i;
      } else {
        break;
      }
    }
    word.end = i;
    words.push_back(std::move(word));
  }
  return words;
}

bool starts_upper(std::string_view word) { return !word.empty() && is_upper(word.front()); }

std::string capitalise(std::string_view word) {
  std::string out(word);
  if (!out.empty()) out.front() = to_upper(out.front());
  return out;
}

bool all_capitals(std::string_view word) {
  std::size_t letters = 0;
  bool all_upper = true;
  for (const char c : word) {
    if ((c >= 'a' && c <= 'z') || is_upper(c)) {
      ++letters;
      all_upper = all_upper && is_upper(c);
    }
  }
  return letters >= 2 && all_upper;
}

std::string match_case(std::string_view original, std::string_view replacement) {
  std::string out(replacement);
  if (all_capitals(original)) {
    std::transform(out.begin(), out.end(), out.begin(), to_upper);
  } else if (starts_upper(original) && !out.empty()) {
    out.front() = to_upper(out.front());
  }
  return out;
}

std::string base_form(std::string_view verb) {
  if (verb == "has") return "have";
  if (verb == "does") return "do";
  if (verb == "is") return "be";
  if (verb == "dies" || verb == "lies" || verb == "ties") return std::string(verb.substr(0, verb.size() - 1));
  if (verb.ends_with("ies") && verb.size() > 3) return std::string(verb.substr(0, verb.size() - 3)) + "y";
  for (const std::string_view stem_end : {"sses", "xes", "zzes", "ches", "shes", "oes"}) {
    if (verb.ends_with(stem_end)) return std::string(verb.substr(0, verb.size() - 2));
  }
  return std::string(verb.substr(0, verb.size() - 1));
}

std::string third_person(std::string_view base) {
  if (base == "have") return "has";
  if (base == "be") return "is";
  const std::string b(base);
  if (b.size() >= 2 && b.back() == 'y' && !is_vowel(b[b.size() - 2])) return b.substr(0, b.size() - 1) + "ies";
  for (const std::string_view stem_end : {"s", "x", "z", "ch", "sh", "o"}) {
    if (b.ends_with(stem_end)) return b + "es";
  }
  return b + "s";
}

std::string past_tense(std::string_view base) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> irregular{{
      {"be", "was"}, {"become", "became"}, {"do", "did"}, {"drive", "drove"}, {"find", "found"},
      {"give", "gave"}, {"have", "had"}, {"lead", "led"}, {"make", "made"}, {"rise", "rose"},
      {"show", "showed"}, {"take", "took"}, {"undergo", "underwent"}, {"fall", "fell"},
  }};
  for (const auto& [from, to] : irregular) {
    if (from == base) return std::string(to);
  }
  const std::string b(base);
  if (!b.empty() && b.back() == 'e') return b + "d";
  if (b.size() >= 2 && b.back() == 'y' && !is_vowel(b[b.size() - 2])) return b.substr(0, b.size() - 1) + "ied";
  return b + "ed";
}

}  // namespace claimrag::text::detail
