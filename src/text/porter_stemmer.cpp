#include "claimrag/text/porter_stemmer.hpp"

#include <initializer_list>

#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {
namespace {

/// Porter's consonant: not a, e, i, o, u, and not a y that follows a consonant.
bool is_consonant(std::string_view word, std::size_t i) {
  switch (word[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return false;
    case 'y': return i == 0 || !is_consonant(word, i - 1);
    default: return true;
  }
}

/// m, the number of vowel-consonant sequences of `stem` ([C](VC)^m[V]).
int measure(std::string_view stem) {
  int m = 0;
  std::size_t i = 0;
  while (i < stem.size() && is_consonant(stem, i)) ++i;
  while (i < stem.size()) {
    while (i < stem.size() && !is_consonant(stem, i)) ++i;
    if (i == stem.size()) break;
    while (i < stem.size() && is_consonant(stem, i)) ++i;
    ++m;
  }
  return m;
}

bool has_vowel(std::string_view stem) {
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (!is_consonant(stem, i)) return true;
  }
  return false;
}

bool ends_double_consonant(std::string_view word) {
  const std::size_t n = word.size();
  return n >= 2 && word[n - 1] == word[n - 2] && is_consonant(word, n - 1);
}

/// *o: the stem ends consonant-vowel-consonant, the last not w, x or y.
bool ends_cvc(std::string_view word) {
  const std::size_t n = word.size();
  if (n < 3 || !is_consonant(word, n - 1) || is_consonant(word, n - 2) || !is_consonant(word, n - 3)) return false;
  const char last = word[n - 1];
  return last != 'w' && last != 'x' && last != 'y';
}

bool ends_with(std::string_view word, std::string_view suffix) {
  return word.size() >= suffix.size() && word.substr(word.size() - suffix.size()) == suffix;
}

void step1a(std::string& word) {
  if (ends_with(word, "sses") || ends_with(word, "ies")) {
    word.resize(word.size() - 2);
  } else if (!ends_with(word, "ss") && ends_with(word, "s")) {
    word.pop_back();
  }
}

/// After -ed or -ing is removed: restore an e or undouble a consonant where Porter says.
void tidy_after_1b(std::string& word) {
  if (ends_with(word, "at") || ends_with(word, "bl") || ends_with(word, "iz")) {
    word.push_back('e');
  } else if (ends_double_consonant(word) && !ends_with(word, "l") && !ends_with(word, "s") && !ends_with(word, "z")) {
    word.pop_back();
  } else if (measure(word) == 1 && ends_cvc(word)) {
    word.push_back('e');
  }
}

void step1b(std::string& word) {
  if (ends_with(word, "eed")) {
    if (measure(std::string_view(word).substr(0, word.size() - 3)) > 0) word.pop_back();
    return;
  }
  for (const std::string_view suffix : {std::string_view("ed"), std::string_view("ing")}) {
    if (!ends_with(word, suffix)) continue;
    const std::string_view stem = std::string_view(word).substr(0, word.size() - suffix.size());
    if (!has_vowel(stem)) return;
    word.resize(stem.size());
    tidy_after_1b(word);
    return;
  }
}

void step1c(std::string& word) {
  if (ends_with(word, "y") && has_vowel(std::string_view(word).substr(0, word.size() - 1))) word.back() = 'i';
}

struct Rule {
  std::string_view suffix;
  std::string_view replacement;
};

/// The first rule whose suffix ends `word` decides: its replacement is applied when the stem
/// before the suffix has measure > `minimum`, and no other rule is tried (Porter's rule order).
void apply_first(std::string& word, std::initializer_list<Rule> rules, int minimum) {
  for (const auto& rule : rules) {
    if (!ends_with(word, rule.suffix)) continue;
    const std::string_view stem = std::string_view(word).substr(0, word.size() - rule.suffix.size());
    if (measure(stem) > minimum) word = std::string(stem) + std::string(rule.replacement);
    return;
  }
}

void step2(std::string& word) {
  apply_first(word,
              {{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
               {"abli", "able"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
               {"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
               {"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
              0);
}

void step3(std::string& word) {
  apply_first(word,
              {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""}},
              0);
}

void step4(std::string& word) {
  // -ion goes only after s or t; checked before the generic list, where it cannot clash.
  if (ends_with(word, "ion")) {
    const std::string_view stem = std::string_view(word).substr(0, word.size() - 3);
    if (measure(stem) > 1 && (ends_with(stem, "s") || ends_with(stem, "t"))) word.resize(stem.size());
    return;
  }
  apply_first(word,
              {{"al", ""}, {"ance", ""}, {"ence", ""}, {"er", ""}, {"ic", ""}, {"able", ""}, {"ible", ""}, {"ant", ""},
               {"ement", ""}, {"ment", ""}, {"ent", ""}, {"ou", ""}, {"ism", ""}, {"ate", ""}, {"iti", ""},
               {"ous", ""}, {"ive", ""}, {"ize", ""}},
              1);
}

void step5(std::string& word) {
  if (ends_with(word, "e")) {
    const std::string_view stem = std::string_view(word).substr(0, word.size() - 1);
    const int m = measure(stem);
    if (m > 1 || (m == 1 && !ends_cvc(stem))) word.pop_back();
  }
  if (measure(word) > 1 && ends_double_consonant(word) && ends_with(word, "l")) word.pop_back();
}

bool keeps_token(std::string_view word) {
  if (word.size() <= 2) return true;
  for (const char c : word) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

}  // namespace

std::string stem_porter(std::string_view token) {
  std::string word = stem_inflection(token);
  if (keeps_token(token)) return word;
  step2(word);
  step3(word);
  step4(word);
  step5(word);
  return word;
}

std::string stem_inflection(std::string_view token) {
  std::string word(token);
  if (keeps_token(word)) return word;
  step1a(word);
  step1b(word);
  step1c(word);
  return word;
}

std::string stem_text(std::string_view text, Stemmer stemmer) {
  std::string stemmed;
  for_each_token(text, [&](std::string_view token) {
    if (!stemmed.empty()) stemmed.push_back(' ');
    switch (stemmer) {
      case Stemmer::none: stemmed += token; break;
      case Stemmer::inflection: stemmed += stem_inflection(token); break;
      case Stemmer::porter: stemmed += stem_porter(token); break;
    }
  });
  return stemmed;
}

}  // namespace claimrag::text
