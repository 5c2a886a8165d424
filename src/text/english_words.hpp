#pragma once
// Internal to the text module: words with their byte positions, case transfer and the few
// rules of English verb inflection that claim negation needs. Not a public header: the
// negation rewriter and the relation features are the only users.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text::detail {

/// A word of a text: bytes [begin, end) of the original and their ASCII lower-case form.
struct Word {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string lower;
};

/// The words of `text`: maximal runs of ASCII letters and digits, where a single '-' or '\''
/// between two such bytes stays inside the word, so "up-regulates", "IL-6" and "doesn't" are
/// one word each while "not," and "(no)" are "not" and "no".
std::vector<Word> split_words(std::string_view text);

/// `replacement` written in the case pattern of `original`: all capitals (two or more
/// letters) give all capitals, a capital first letter gives a capital first letter.
std::string match_case(std::string_view original, std::string_view replacement);

/// `word` with its first byte upper-cased (ASCII).
std::string capitalise(std::string_view word);

/// True when `word` has two or more letters and every letter is an ASCII capital ("NO", "IL-6").
bool all_capitals(std::string_view word);

/// True when the first byte of `word` is an ASCII capital.
bool starts_upper(std::string_view word);

/// The base form of a third-person singular present verb, by rule: "-ies" -> "-y"
/// (except "dies", "lies", "ties"), "-es" dropped after "ss", "x", "zz", "ch", "sh" and "o",
/// otherwise "-s" dropped; "has" -> "have", "does" -> "do", "is" -> "be".
/// Precondition: `verb` is lower-case and ends in 's'.
std::string base_form(std::string_view verb);

/// The third-person singular present of a base form, the inverse of base_form:
/// consonant + "y" -> "ies", "s", "x", "z", "ch", "sh", "o" -> "+es", else "+s"; "have" -> "has".
std::string third_person(std::string_view base);

/// The simple past of a base form: irregular verbs of a short table, "-e" -> "+d",
/// consonant + "y" -> "ied", else "+ed".
std::string past_tense(std::string_view base);

}  // namespace claimrag::text::detail
