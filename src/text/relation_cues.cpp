#include "relation_cues.hpp"

#include "word_list.hpp"


namespace claimrag::text::detail {

namespace {

constexpr std::string_view kNegation[] = {
    "absence", "absent", "cannot", "lack", "lacked", "lacking", "lacks", "neither", "never",
    "no", "none", "nor", "not", "nothing", "unable", "without",
};

constexpr std::string_view kNullWords[] = {
    "comparable", "insignificant", "non-significant", "nonsignificant", "similar", "unaffected", "unchanged",
    "unrelated",
};

constexpr std::string_view kNullObjects[] = {
    "affect", "affected", "alter", "altered", "associated", "association", "associations", "benefit", "change",
    "changed", "changes", "correlated", "correlation", "differ", "differed", "difference", "differences",
    "effect", "effects", "impact", "influence", "related", "relationship", "significant", "significantly",
};

constexpr std::string_view kHedges[] = {
    "appear", "appears", "could", "likely", "may", "might", "perhaps", "possible", "possibly", "potential",
    "potentially", "presumably", "putative", "suggest", "suggested", "suggesting", "suggests", "unclear",
    "unlikely",
};

constexpr std::string_view kStopWords[] = {
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as",
    "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "either", "et", "etc", "few", "for", "from",
    "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "however",
    "i", "if", "in", "into", "is", "it", "its", "itself", "may", "me", "might", "must", "my", "of", "off",
    "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "per", "same", "shall", "she",
    "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there",
    "these", "they", "this", "those", "through", "thus", "to", "too", "under", "until", "up", "upon", "us",
    "very", "via", "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
    "why", "will", "with", "within", "would", "you", "your",
};

}  // namespace

bool is_negation_word(std::string_view lower_word) {
  static const WordList list(kNegation);
  return list.contains(lower_word) || (lower_word.size() > 3 && lower_word.ends_with("n't"));
}

bool is_null_word(std::string_view lower_word) {
  static const WordList list(kNullWords);
  return list.contains(lower_word);
}

bool is_null_object(std::string_view lower_word) {
  static const WordList list(kNullObjects);
  return list.contains(lower_word);
}

bool is_hedge_word(std::string_view lower_word) {
  static const WordList list(kHedges);
  return list.contains(lower_word);
}

bool is_stop_word(std::string_view lower_word) {
  static const WordList list(kStopWords);
  return list.contains(lower_word);
}

}  // namespace claimrag::text::detail
