#include "claim_verbs.hpp"

#include <string>

#include "word_list.hpp"

namespace claimrag::text::detail {

namespace {

// Main verbs of SciFact-style claims. Nouns that are also verbs ("form", "change", "level")
// are left out where the plural noun is frequent in claims, because insertion before a noun
// would produce nonsense; a verb missing here only makes insertion skip to a later verb or
// report that no rule applies.
constexpr std::string_view kClaimVerbs[] = {
    "abolish", "abrogate", "accelerate", "accompany", "account", "accumulate", "achieve", "activate",
    "affect", "aggravate", "alleviate", "alter", "ameliorate", "amplify", "antagonize", "appear", "arise",
    "associate", "attenuate", "augment", "bind", "block", "boost", "bypass", "carry", "cause", "confer",
    "constitute", "contain", "contribute", "control", "correlate", "counteract", "cross", "cure",
    "decrease", "degrade", "delay", "depend", "deplete", "destabilize", "determine", "develop", "differ",
    "diminish", "direct", "disrupt", "drive", "elevate", "elicit", "eliminate", "enable", "encode",
    "encourage", "enhance", "ensure", "exacerbate", "exceed", "exert", "exhibit", "exist", "explain",
    "express", "extend", "facilitate", "generate", "govern", "harbor", "help", "hinder", "impair",
    "impede", "improve", "include", "increase", "induce", "influence", "inhibit", "initiate", "interact",
    "interfere", "involve", "lead", "lengthen", "lessen", "limit", "localize", "lower", "maintain",
    "mediate", "mimic", "mitigate", "modify", "modulate", "need", "occur", "offer", "outperform",
    "permit", "persist", "play", "possess", "potentiate", "precede", "predict", "predispose", "prevent",
    "produce", "prolong", "promote", "protect", "provide", "raise", "recruit", "reduce", "reflect",
    "regulate", "relieve", "remain", "repair", "represent", "repress", "require", "rescue", "resist",
    "respond", "restore", "restrict", "result", "reverse", "sensitize", "shorten", "show", "slow",
    "stabilize", "stimulate", "strengthen", "suppress", "sustain", "target", "tend", "trigger",
    "underlie", "upregulate", "downregulate", "up-regulate", "down-regulate", "weaken", "worsen", "yield",
    "act", "aid", "allow", "apply", "multiply", "rely", "supply", "become", "benefit", "catalyze", "compensate", "compete", "consist", "create",
    "deactivate", "deregulate", "double", "give", "go", "identify", "metabolize", "participate", "range",
    "reach", "reinvigorate", "remove", "reproduce", "rise", "specify", "speed", "struggle", "suggest",
    "transmit", "translate", "vary",
};

constexpr std::string_view kDeterminersAndPrepositions[] = {
    "a", "about", "above", "across", "after", "against", "all", "along", "among", "an", "any", "as", "at",
    "before", "behind", "below", "between", "both", "by", "during", "each", "either", "every", "few",
    "for", "from", "her", "his", "in", "into", "its", "many", "most", "my", "neither", "no", "of", "on",
    "onto", "our", "over", "per", "several", "some", "such", "than", "that", "the", "their", "these",
    "this", "those", "through", "to", "toward", "towards", "under", "upon", "versus", "via", "what",
    "which", "with", "within", "without", "your",
};

constexpr std::string_view kMassNouns[] = {
    "advice", "benefit", "data", "evidence", "harm", "information", "knowledge", "progress", "research",
};

constexpr std::string_view kIrregularParticiples[] = {
    "been", "begun", "become", "done", "found", "given", "grown", "known", "led", "made", "seen", "shown",
    "taken", "undergone", "won",
};

}  // namespace

bool is_claim_verb(std::string_view lower_base) {
  static const WordList list(kClaimVerbs);
  return list.contains(lower_base);
}

bool is_determiner_or_preposition(std::string_view lower_word) {
  static const WordList list(kDeterminersAndPrepositions);
  return list.contains(lower_word);
}

bool is_mass_noun(std::string_view lower_word) {
  static const WordList list(kMassNouns);
  return list.contains(lower_word);
}

std::string past_to_base(std::string_view past) {
  if (past.size() < 4 || !past.ends_with("ed")) return {};
  const std::string_view stem = past.substr(0, past.size() - 2);
  if (stem.ends_with("i")) {  // identified -> identify
    std::string base(stem.substr(0, stem.size() - 1));
    return is_claim_verb(base + "y") ? base + "y" : std::string();
  }
  for (std::string base : {std::string(stem) + "e", std::string(stem)}) {  // required, showed
    if (is_claim_verb(base)) return base;
  }
  if (stem.size() >= 2 && stem.back() == stem[stem.size() - 2]) {  // occurred -> occur
    const std::string base(stem.substr(0, stem.size() - 1));
    if (is_claim_verb(base)) return base;
  }
  return {};
}

bool is_past_participle(std::string_view lower_word) {
  static const WordList irregular(kIrregularParticiples);
  // "un-" adjectives ("have unwanted effects") end like participles but are not.
  return (lower_word.size() > 3 && !lower_word.starts_with("un") &&
          (lower_word.ends_with("ed") || lower_word.ends_with("en"))) ||
         irregular.contains(lower_word);
}

}  // namespace claimrag::text::detail
