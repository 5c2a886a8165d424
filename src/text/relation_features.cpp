#include "claimrag/text/relation_features.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "claimrag/text/direction_words.hpp"
#include "claimrag/text/token_set.hpp"
#include "english_words.hpp"
#include "relation_cues.hpp"

namespace claimrag::text {

namespace {

using detail::Word;

constexpr std::array<std::string_view, kRelationFeatureCount> kNames{
    "claim_negation_count", "evidence_negation_count", "negation_mismatch",
    "claim_null_count",     "evidence_null_count",     "null_mismatch",
    "claim_polarity",       "evidence_polarity",       "polarity_agreement",
    "both_have_polarity",   "claim_number_count",      "claim_numbers_missing",
    "evidence_hedge_count", "token_jaccard",           "claim_content_coverage",
};

// What one side contributes, read once from its words.
struct SideCues {
  std::vector<Word> words;
  std::vector<bool> is_cue;  // negation, null or direction word: never a shared word
  double negations = 0;
  double nulls = 0;
  double hedges = 0;
};

bool is_negator(std::string_view w) { return w == "no" || w == "not" || w == "nor"; }

std::optional<DirectionWord> direction_of(std::string_view word, const RelationFeatureOptions& options) {
  auto found = find_direction_word(word);
  if (found && found->paraphrase && !options.paraphrased_directions) return std::nullopt;
  return found;
}

SideCues read_cues(std::string_view text, const RelationFeatureOptions& options) {
  SideCues side;
  side.words = detail::split_words(text);
  const std::vector<Word>& words = side.words;
  side.is_cue.assign(words.size(), false);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].lower;
    // A cue in capitals is an acronym ("NO" for nitric oxide), as in the negation rewriter.
    const bool acronym = detail::all_capitals(text.substr(words[i].begin, words[i].end - words[i].begin));
    const bool fail_to = (w == "fail" || w == "fails" || w == "failed" || w == "failing") && i + 1 < words.size() &&
                         words[i + 1].lower == "to";
    if (!acronym && (detail::is_negation_word(w) || fail_to)) {
      side.negations += 1;
      side.is_cue[i] = true;
    }
    if (detail::is_null_word(w)) {
      side.nulls += 1;
      side.is_cue[i] = true;
    } else if (!acronym && is_negator(w)) {
      for (std::size_t j = i + 1; j < words.size() && j <= i + 2; ++j) {
        if (detail::is_null_object(words[j].lower)) {
          side.nulls += 1;
          break;
        }
      }
    }
    if (detail::is_hedge_word(w)) side.hedges += 1;
    if (direction_of(w, options)) side.is_cue[i] = true;
  }
  return side;
}

bool is_content(const SideCues& side, std::size_t i) {
  return !side.is_cue[i] && !detail::is_stop_word(side.words[i].lower);
}

std::vector<std::string> content_words(const SideCues& side) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < side.words.size(); ++i) {
    if (is_content(side, i)) words.push_back(side.words[i].lower);
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

// True when one of the three words before word `i` is a negation cue ("did not increase",
// "no longer increases"): such a direction word counts with the opposite sign.
bool negated_before(const SideCues& side, std::size_t i) {
  for (std::size_t j = i >= 3 ? i - 3 : 0; j < i; ++j) {
    if (side.is_cue[j] && detail::is_negation_word(side.words[j].lower)) return true;
  }
  return false;
}

// Sign of the summed polarity of the direction words within `window` words of a shared word.
double polarity_near_shared(const SideCues& side, const std::vector<std::string>& shared, const RelationFeatureOptions& options) {
  const std::size_t window = options.window;
  std::vector<std::size_t> anchors;
  for (std::size_t i = 0; i < side.words.size(); ++i) {
    if (is_content(side, i) && std::binary_search(shared.begin(), shared.end(), side.words[i].lower)) anchors.push_back(i);
  }
  int sum = 0;
  for (std::size_t i = 0; i < side.words.size(); ++i) {
    const auto direction = direction_of(side.words[i].lower, options);
    if (!direction) continue;
    const bool near = std::any_of(anchors.begin(), anchors.end(), [&](std::size_t a) {
      return (a > i ? a - i : i - a) <= window;
    });
    if (near) sum += negated_before(side, i) ? -direction->polarity : direction->polarity;
  }
  return sum > 0 ? 1.0 : sum < 0 ? -1.0 : 0.0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Numbers as documented in the header: digit runs joined by '.' or ',' between digits, with
// no letter on either side and not after "letter-" (gene names such as "IL-6").
std::vector<std::string> numbers(std::string_view text) {
  std::vector<std::string> found;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_digit(text[i])) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < text.size() &&
           (is_digit(text[i]) || ((text[i] == '.' || text[i] == ',') && i + 1 < text.size() && is_digit(text[i + 1])))) {
      ++i;
    }
    const bool glued_before = begin > 0 && (is_letter(text[begin - 1]) ||
                                            (text[begin - 1] == '-' && begin > 1 && is_letter(text[begin - 2])));
    const bool glued_after = i < text.size() && is_letter(text[i]);
    if (!glued_before && !glued_after) found.emplace_back(text.substr(begin, i - begin));
  }
  return found;
}

double fraction_missing(std::vector<std::string> claim_numbers, std::vector<std::string> evidence_numbers) {
  std::sort(claim_numbers.begin(), claim_numbers.end());
  claim_numbers.erase(std::unique(claim_numbers.begin(), claim_numbers.end()), claim_numbers.end());
  if (claim_numbers.empty()) return 0.0;
  std::sort(evidence_numbers.begin(), evidence_numbers.end());
  const auto missing = std::count_if(claim_numbers.begin(), claim_numbers.end(), [&](const std::string& n) {
    return !std::binary_search(evidence_numbers.begin(), evidence_numbers.end(), n);
  });
  return static_cast<double>(missing) / static_cast<double>(claim_numbers.size());
}

double content_coverage(const TokenSet& claim_tokens, const TokenSet& evidence_tokens) {
  std::size_t content = 0;
  std::size_t found = 0;
  for (const std::string& token : claim_tokens) {
    if (detail::is_stop_word(token)) continue;
    ++content;
    found += std::binary_search(evidence_tokens.begin(), evidence_tokens.end(), token) ? 1 : 0;
  }
  return content == 0 ? 0.0 : static_cast<double>(found) / static_cast<double>(content);
}

// Counts stop at kRelationCountCap: a long evidence text repeats its cues, and a linear model
// reading the raw count would extrapolate far past anything it was trained on.
double capped(double count) { return std::min(count, static_cast<double>(kRelationCountCap)); }

}  // namespace

std::span<const std::string_view, kRelationFeatureCount> relation_feature_names() { return kNames; }

std::vector<double> relation_features(std::string_view claim, std::string_view evidence,
                                      const RelationFeatureOptions& options) {
  const SideCues c = read_cues(claim, options);
  const SideCues e = read_cues(evidence, options);
  const std::vector<std::string> claim_content = content_words(c);
  const std::vector<std::string> evidence_content = content_words(e);
  std::vector<std::string> shared;
  std::set_intersection(claim_content.begin(), claim_content.end(), evidence_content.begin(), evidence_content.end(),
                        std::back_inserter(shared));
  const double claim_polarity = polarity_near_shared(c, shared, options);
  const double evidence_polarity = polarity_near_shared(e, shared, options);
  const std::vector<std::string> claim_numbers = numbers(claim);
  const TokenSet claim_tokens = token_set(claim);
  const TokenSet evidence_tokens = token_set(evidence);

  std::vector<double> f(kRelationFeatureCount, 0.0);
  auto at = [&](RelationFeature feature) -> double& { return f[static_cast<std::size_t>(feature)]; };
  at(RelationFeature::claim_negation_count) = capped(c.negations);
  at(RelationFeature::evidence_negation_count) = capped(e.negations);
  at(RelationFeature::negation_mismatch) = (c.negations > 0) != (e.negations > 0) ? 1.0 : 0.0;
  at(RelationFeature::claim_null_count) = capped(c.nulls);
  at(RelationFeature::evidence_null_count) = capped(e.nulls);
  at(RelationFeature::null_mismatch) = (c.nulls > 0) != (e.nulls > 0) ? 1.0 : 0.0;
  at(RelationFeature::claim_polarity) = claim_polarity;
  at(RelationFeature::evidence_polarity) = evidence_polarity;
  at(RelationFeature::polarity_agreement) = claim_polarity * evidence_polarity;
  at(RelationFeature::both_have_polarity) = claim_polarity != 0.0 && evidence_polarity != 0.0 ? 1.0 : 0.0;
  at(RelationFeature::claim_number_count) = capped(static_cast<double>(claim_numbers.size()));
  at(RelationFeature::claim_numbers_missing) = fraction_missing(claim_numbers, numbers(evidence));
  at(RelationFeature::evidence_hedge_count) = capped(e.hedges);
  at(RelationFeature::token_jaccard) = jaccard(claim_tokens, evidence_tokens);
  at(RelationFeature::claim_content_coverage) = content_coverage(claim_tokens, evidence_tokens);
  return f;
}

}  // namespace claimrag::text
