#include "claimrag/text/negation.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "claimrag/text/direction_words.hpp"
#include "claim_verbs.hpp"
#include "english_words.hpp"

namespace claimrag::text {

namespace {

using detail::Word;

struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

struct Rewrite {
  std::vector<Edit> edits;
  NegationRule rule;
};

// Reads the claim and collects edits; every rule is a method so that each sees the same
// words and text without passing them around.
class Rewriter {
 public:
  explicit Rewriter(std::string_view text) : text_(text), words_(detail::split_words(text)) {}

  std::optional<Rewrite> remove_negation() const;
  std::optional<Rewrite> swap_direction() const;
  std::optional<Rewrite> insert_negation() const;

 private:
  std::string_view original(std::size_t i) const { return text_.substr(words_[i].begin, words_[i].end - words_[i].begin); }
  const std::string& lower(std::size_t i) const { return words_[i].lower; }
  std::string_view lower_or_empty(std::size_t i) const { return i < words_.size() ? std::string_view(lower(i)) : ""; }

  Edit replace(std::size_t i, std::string_view replacement) const {
    return {words_[i].begin, words_[i].end, detail::match_case(original(i), replacement)};
  }
  // Removes words [first, last) with the spaces after them (or before them at the end of a
  // clause), moving a capital on the first word of the claim to the word that follows.
  void remove(std::size_t first, std::size_t last, std::vector<Edit>& edits) const;
  std::optional<Rewrite> remove_do_support(std::size_t aux, std::size_t verb, std::string_view aux_word) const;
  std::optional<Rewrite> remove_no(std::size_t i) const;
  // The last word of the noun phrase that starts at `first` (at most four words, up to a
  // preposition, an auxiliary or punctuation).
  std::size_t noun_phrase_head(std::size_t first) const;
  std::optional<Rewrite> remove_fail_to(std::size_t i) const;
  std::optional<Rewrite> insert_at(std::size_t i) const;
  // Index of the first auxiliary or main verb after the first word (the size when none).
  std::size_t predicate_start() const;

  std::string_view text_;
  std::vector<Word> words_;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool starts_with_vowel(std::string_view word) {
  return !word.empty() && std::string_view("aeiou").find(word.front()) != std::string_view::npos;
}

bool is_modal_or_be(std::string_view w) {
  for (const std::string_view aux : {"is", "are", "was", "were", "am", "can", "could", "will", "would", "should",
                                     "may", "might", "must", "shall", "does", "do", "did"}) {
    if (w == aux) return true;
  }
  return false;
}

bool is_auxiliary(std::string_view w) { return is_modal_or_be(w) || w == "has" || w == "have" || w == "had"; }

std::string inflect_like(std::string_view aux, std::string_view base) {
  if (aux == "does" || aux == "doesn't" || aux == "fails") return detail::third_person(base);
  if (aux == "did" || aux == "didn't" || aux == "failed") return detail::past_tense(base);
  return std::string(base);
}

void Rewriter::remove(std::size_t first, std::size_t last, std::vector<Edit>& edits) const {
  std::size_t begin = words_[first].begin;
  std::size_t end = words_[last - 1].end;
  std::size_t after = end;
  while (after < text_.size() && is_blank(text_[after])) ++after;
  if (after > end && last < words_.size() && after == words_[last].begin) {
    end = after;
  } else {
    while (begin > 0 && is_blank(text_[begin - 1])) --begin;
  }
  if (first == 0 && detail::starts_upper(original(0)) && last < words_.size() && end == words_[last].begin) {
    edits.push_back({begin, words_[last].end, detail::capitalise(original(last))});
    return;
  }
  edits.push_back({begin, end, ""});
}

std::optional<Rewrite> Rewriter::remove_do_support(std::size_t aux, std::size_t verb, std::string_view aux_word) const {
  // Adverbs between "not" and the verb ("does not significantly increase") stay in place.
  const std::size_t after_cue = verb;
  while (verb < words_.size() && lower(verb).ends_with("ly") && !detail::is_claim_verb(lower(verb))) ++verb;
  if (verb >= words_.size()) return std::nullopt;
  std::vector<Edit> edits;
  edits.push_back({words_[aux].begin, words_[after_cue].begin, ""});
  std::string inflected = detail::match_case(original(verb), inflect_like(aux_word, lower(verb)));
  if (aux == 0 && detail::starts_upper(original(0))) {
    if (verb == after_cue) {
      inflected = detail::capitalise(inflected);
    } else {
      edits.push_back({words_[after_cue].begin, words_[after_cue].end, detail::capitalise(original(after_cue))});
    }
  }
  edits.push_back({words_[verb].begin, words_[verb].end, std::move(inflected)});
  return Rewrite{std::move(edits), NegationRule::remove_do_not};
}

std::size_t Rewriter::noun_phrase_head(std::size_t first) const {
  std::size_t head = first;
  for (std::size_t j = first + 1; j < words_.size() && j < first + 4; ++j) {
    const std::string_view gap = text_.substr(words_[j - 1].end, words_[j].begin - words_[j - 1].end);
    const std::string& w = lower(j);
    if (gap.find_first_not_of(" ") != std::string_view::npos || detail::is_determiner_or_preposition(w) ||
        is_auxiliary(w) || w == "and" || w == "or" || w == "between") {
      break;
    }
    head = j;
  }
  return head;
}

std::optional<Rewrite> Rewriter::remove_no(std::size_t i) const {
  if (i + 1 >= words_.size()) return std::nullopt;
  const std::string& next = lower(i + 1);
  if (next == "longer" || next == "one") return std::nullopt;  // "no longer", "no one": not a cue to drop
  // The article agrees with the head noun of the phrase: "no side effects" -> "side effects",
  // "no significant effect" -> "a significant effect".
  const std::string& head = lower(noun_phrase_head(i + 1));
  const bool plural = head.size() > 2 && head.back() == 's' && !head.ends_with("ss") && !head.ends_with("us") &&
                      !head.ends_with("is");
  std::vector<Edit> edits;
  if (plural || detail::is_mass_noun(head) || next == "more" || next == "less") {
    remove(i, i + 1, edits);
  } else {
    edits.push_back(replace(i, starts_with_vowel(next) ? "an" : "a"));
  }
  return Rewrite{std::move(edits), NegationRule::remove_no};
}

std::optional<Rewrite> Rewriter::remove_fail_to(std::size_t i) const {
  if (lower_or_empty(i + 1) != "to" || i + 2 >= words_.size()) return std::nullopt;
  std::vector<Edit> edits;
  std::string inflected = inflect_like(lower(i), lower(i + 2));
  if (i == 0 && detail::starts_upper(original(0))) inflected = detail::capitalise(inflected);
  edits.push_back({words_[i].begin, words_[i + 2].begin, ""});
  edits.push_back({words_[i + 2].begin, words_[i + 2].end, std::move(inflected)});
  return Rewrite{std::move(edits), NegationRule::remove_fail_to};
}

std::optional<Rewrite> Rewriter::remove_negation() const {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::string& w = lower(i);
    const std::string_view next = lower_or_empty(i + 1);
    // A cue in capitals is an acronym ("NO" for nitric oxide), not a negation.
    if (detail::all_capitals(original(i))) continue;
    // Negations without a rule to remove them: the claim is reported as not negatable rather
    // than given a second negation ("Nothing is not known").
    if (w == "nothing" || w == "none" || w == "neither" || w == "nor" || w == "nobody") {
      return Rewrite{{}, NegationRule::none};
    }
    if ((w == "does" || w == "do" || w == "did") && next == "not") {
      if (auto r = remove_do_support(i, i + 2, w)) return r;
    } else if (w == "doesn't" || w == "don't" || w == "didn't") {
      if (auto r = remove_do_support(i, i + 1, w)) return r;
    } else if (w == "cannot" || w == "can't") {
      return Rewrite{{replace(i, "can")}, NegationRule::remove_not};
    } else if (w == "won't") {
      return Rewrite{{replace(i, "will")}, NegationRule::remove_not};
    } else if (w.size() > 3 && w.ends_with("n't")) {
      return Rewrite{{replace(i, std::string_view(w).substr(0, w.size() - 3))}, NegationRule::remove_not};
    } else if (w == "not") {
      const std::string_view previous = i > 0 ? std::string_view(lower(i - 1)) : "";
      // "not only", "or not" and a contrast ("in X, not Y", "X but not Y") negate nothing
      // the claim asserts.
      const bool contrast = previous == "but" || (i > 0 && text_.substr(words_[i - 1].end, words_[i].begin - words_[i - 1].end).find(',') != std::string_view::npos);
      if (next == "only" || next == "just" || previous == "or" || previous == "if" || previous == "whether" || contrast) {
        continue;
      }
      std::vector<Edit> edits;
      remove(i, i + 1, edits);
      return Rewrite{std::move(edits), NegationRule::remove_not};
    } else if (w == "no") {
      if (auto r = remove_no(i)) return r;
    } else if (w == "never") {
      std::vector<Edit> edits;
      remove(i, i + 1, edits);
      return Rewrite{std::move(edits), NegationRule::remove_never};
    } else if (w == "without") {
      return Rewrite{{replace(i, "with")}, NegationRule::remove_without};
    } else if (w == "lack" && next == "of") {
      return Rewrite{{replace(i, "presence")}, NegationRule::remove_lack};
    } else if (w == "lacks" || w == "lack" || w == "lacked" || w == "lacking") {
      const std::string_view has = w == "lacks" ? "has" : w == "lack" ? "have" : w == "lacked" ? "had" : "having";
      return Rewrite{{replace(i, has)}, NegationRule::remove_lack};
    } else if (w == "fails" || w == "fail" || w == "failed") {
      if (auto r = remove_fail_to(i)) return r;
    } else if (w == "unable") {
      return Rewrite{{replace(i, "able")}, NegationRule::remove_fail_to};
    }
  }
  return std::nullopt;
}

std::optional<Rewrite> Rewriter::swap_direction() const {
  // A direction word in the predicate carries the claim ("X increases Y", "X is more
  // effective"); one in the subject only qualifies it ("Higher levels of X are ..."). The
  // first direction word from the main verb on is swapped, else the first one anywhere.
  // Swapping every direction word instead matched fewer SciFact siblings (78 against 82 of 326).
  const std::size_t predicate = predicate_start();
  std::size_t chosen = words_.size();
  for (std::size_t i = 0; i < words_.size(); ++i) {
    // The paraphrase families inform the relation features only: the rewriter's swaps stay those
    // chosen on SciFact's sibling claims.
    const auto direction = find_direction_word(lower(i));
    if (!direction || direction->paraphrase) continue;
    if (chosen == words_.size()) chosen = i;
    if (i >= predicate) {
      chosen = i;
      break;
    }
  }
  if (chosen == words_.size()) return std::nullopt;
  const std::string_view opposite = find_direction_word(lower(chosen))->opposite;
  std::vector<Edit> edits{replace(chosen, opposite)};
  if (chosen > 0 && (lower(chosen - 1) == "a" || lower(chosen - 1) == "an")) {
    edits.push_back(replace(chosen - 1, starts_with_vowel(opposite) ? "an" : "a"));  // "an increased" -> "a decreased"
  }
  return Rewrite{std::move(edits), NegationRule::swap_direction};
}

std::size_t Rewriter::predicate_start() const {
  for (std::size_t i = 1; i < words_.size(); ++i) {
    if (insert_at(i)) return i;
  }
  return words_.size();
}

std::optional<Rewrite> Rewriter::insert_at(std::size_t i) const {
  const std::string& w = lower(i);
  const std::string_view next = lower_or_empty(i + 1);
  const Word& word = words_[i];
  const std::string& previous = lower(i - 1);
  // The verb of a relative clause ("cytokines that are produced by ...") is not the claim's.
  if (previous == "that" || previous == "which" || previous == "who") return std::nullopt;
  if (w == "can") return Rewrite{{replace(i, "cannot")}, NegationRule::insert_after_auxiliary};
  if ((w == "is" || w == "are" || w == "was" || w == "were") && previous == "there" &&
      (next == "a" || next == "an")) {
    return Rewrite{{replace(i + 1, "no")}, NegationRule::insert_after_auxiliary};  // "there is no relation"
  }
  if (is_modal_or_be(w)) return Rewrite{{{word.end, word.end, " not"}}, NegationRule::insert_after_auxiliary};
  if (w == "has" || w == "have" || w == "had") {
    if (detail::is_past_participle(next)) return Rewrite{{{word.end, word.end, " not"}}, NegationRule::insert_after_auxiliary};
    const std::string_view aux = w == "has" ? "does not have" : w == "have" ? "do not have" : "did not have";
    return Rewrite{{replace(i, aux)}, NegationRule::insert_before_verb};
  }
  // A main verb must be written in lower case (not an acronym) and must not follow a word
  // that only a noun can follow ("the results", "of cells").
  if (detail::starts_upper(original(i)) || detail::is_determiner_or_preposition(previous)) return std::nullopt;
  if (w.size() > 2 && w.back() == 's' && !w.ends_with("ss")) {
    const std::string base = detail::base_form(w);
    // A plural noun followed by a verb ("changes cause") is the subject, not the verb.
    const bool next_is_verb = !next.empty() && detail::is_claim_verb(next);
    if (detail::is_claim_verb(base) && !next_is_verb) {
      return Rewrite{{{word.begin, word.end, "does not " + base}}, NegationRule::insert_before_verb};
    }
  }
  if (detail::is_claim_verb(w)) {
    return Rewrite{{{word.begin, word.end, "do not " + w}}, NegationRule::insert_before_verb};
  }
  // A past form is taken for the verb only before an article ("X required the ..."): before
  // anything else it is far more often a participle ("genes involved in", "controlled trials").
  const bool article_follows = next == "the" || next == "a" || next == "an" || next == "its" || next == "their";
  if (const std::string base = detail::past_to_base(w); !base.empty() && article_follows) {
    return Rewrite{{{word.begin, word.end, "did not " + base}}, NegationRule::insert_before_verb};
  }
  return std::nullopt;
}

std::optional<Rewrite> Rewriter::insert_negation() const {
  // The first word is skipped: a claim that opens with "Is" or "Can" is a question, and a
  // first word is the subject far more often than a verb.
  const std::size_t i = predicate_start();
  if (i == words_.size()) return std::nullopt;
  return insert_at(i);
}

std::string apply(std::string_view text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t at = 0;
  for (const Edit& edit : edits) {
    out.append(text.substr(at, edit.begin - at));
    out.append(edit.text);
    at = edit.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace

std::string_view negation_rule_name(NegationRule rule) {
  switch (rule) {
    case NegationRule::none: return "none";
    case NegationRule::remove_do_not: return "remove_do_not";
    case NegationRule::remove_not: return "remove_not";
    case NegationRule::remove_no: return "remove_no";
    case NegationRule::remove_never: return "remove_never";
    case NegationRule::remove_without: return "remove_without";
    case NegationRule::remove_lack: return "remove_lack";
    case NegationRule::remove_fail_to: return "remove_fail_to";
    case NegationRule::swap_direction: return "swap_direction";
    case NegationRule::insert_after_auxiliary: return "insert_after_auxiliary";
    case NegationRule::insert_before_verb: return "insert_before_verb";
  }
  return "none";
}

NegationResult negate_claim(std::string_view claim, const NegationOptions& options) {
  const Rewriter rewriter(claim);
  std::optional<Rewrite> rewrite = rewriter.remove_negation();
  if (rewrite && rewrite->rule == NegationRule::none) return {std::string(claim), NegationRule::none, false};
  if (!rewrite && options.swap_before_insert) rewrite = rewriter.swap_direction();
  if (!rewrite) rewrite = rewriter.insert_negation();
  if (!rewrite && !options.swap_before_insert) rewrite = rewriter.swap_direction();
  if (!rewrite) return {std::string(claim), NegationRule::none, false};
  return {apply(claim, std::move(rewrite->edits)), rewrite->rule, true};
}

}  // namespace claimrag::text
