// Punkt's sentence boundaries (punkt_sentences.hpp). The function names follow the steps of
// NLTK's PunktSentenceTokenizer so that each can be read beside it: the candidate pattern
// (period_context), the words of a context (punkt_words), the two annotation passes and the
// realignment of closing punctuation. Text is handled as code points with their byte offsets,
// because Punkt's patterns are Unicode patterns (\s, \w, \d, isupper).
#include "claimrag/text/punkt_sentences.hpp"

#include <unicode/uchar.h>

#include <algorithm>
#include <optional>
#include <string>

#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::text {

const std::vector<std::string_view> kPunktAbbreviations = {
    // titles and names
    "mr", "mrs", "ms", "dr", "prof", "rev", "gen", "col", "lt", "sgt", "capt", "gov", "sen", "rep", "st", "jr", "sr",
    "messrs", "mme",
    // companies and places
    "inc", "co", "corp", "ltd", "bros", "dept", "univ", "assn", "ave", "blvd", "rd", "mt", "ft", "u.s", "u.k", "u.n",
    "calif", "mass", "conn", "ill", "fla", "penn", "wash",
    // months and days
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "tues", "wed",
    "thu", "thurs", "fri", "sat", "sun",
    // Latin and writing
    "e.g", "i.e", "etc", "al", "cf", "vs", "viz", "ca", "approx", "resp", "ibid", "op", "et",
    // references and measures in scientific text
    "fig", "figs", "eq", "eqs", "ref", "refs", "vol", "vols", "no", "nos", "pp", "ch", "sec", "suppl", "ed", "eds",
    "spp", "sp", "var", "subsp", "min", "max", "avg", "est", "wt", "temp", "conc", "std"};

namespace {

namespace unicode = tokenizer::unicode;

// A line as code points, with the byte offset of each (and of the end) to report spans in bytes.
struct CodePoints {
  std::u32string points;
  std::vector<std::size_t> offsets;  // offsets[i]: byte of points[i]; offsets[size]: the line's size
};

CodePoints decode(std::string_view line) {
  CodePoints text;
  text.points = unicode::decode_utf8(line, "a document's sentence");
  std::size_t byte = 0;
  for (const char32_t c : text.points) {
    text.offsets.push_back(byte);
    byte += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  text.offsets.push_back(byte);
  return text;
}

bool is_space(char32_t c) { return unicode::is_python_space(c); }
bool is_sentence_end(char32_t c) { return c == U'.' || c == U'?' || c == U'!'; }
// Punkt's NonWord: punctuation that ends a word.
bool is_non_word(char32_t c) { return std::u32string_view(U")\";}]*:@'({[!?").find(c) != std::u32string_view::npos; }
// Punkt's WordStart excludes these.
bool starts_no_word(char32_t c) { return std::u32string_view(U"(\"`{[:;&#*@)}]-,").find(c) != std::u32string_view::npos; }
bool is_decimal(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_DECIMAL_DIGIT_NUMBER; }
// Python's [^\W\d]: a word character that is not a decimal digit.
bool is_word_letter(char32_t c) { return (unicode::is_letter(c) || unicode::is_number(c) || c == U'_') && !is_decimal(c); }

// The length of Punkt's MultiChar at `at` (--+, ..+, or ". . ." with at least two ". "), or 0.
std::size_t multi_char_at(std::u32string_view text, std::size_t at) {
  const auto run_of = [&](char32_t c) {
    std::size_t end = at;
    while (end < text.size() && text[end] == c) ++end;
    return end - at;
  };
  if (const std::size_t dashes = run_of(U'-'); dashes >= 2) return dashes;
  if (const std::size_t periods = run_of(U'.'); periods >= 2) return periods;
  std::size_t pairs = 0;
  while (at + 2 * pairs + 1 < text.size() && text[at + 2 * pairs] == U'.' && is_space(text[at + 2 * pairs + 1])) ++pairs;
  for (std::size_t k = pairs; k >= 2; --k) {
    if (at + 2 * k < text.size() && text[at + 2 * k] == U'.') return 2 * k + 1;
  }
  return 0;
}

// Whether a word may end before `at`: whitespace, the end, NonWord, MultiChar, or a comma that
// itself ends the word.
bool word_ends_at(std::u32string_view text, std::size_t at) {
  if (at >= text.size() || is_space(text[at]) || is_non_word(text[at]) || multi_char_at(text, at) > 0) return true;
  if (text[at] != U',') return false;
  const std::size_t next = at + 1;
  return next >= text.size() || is_space(text[next]) || is_non_word(text[next]) || multi_char_at(text, next) > 0;
}

// Punkt's word tokenizer (its _word_tokenize_fmt) over one line.
std::vector<std::u32string> punkt_words(std::u32string_view text) {
  std::vector<std::u32string> words;
  std::size_t at = 0;
  while (at < text.size()) {
    if (is_space(text[at])) {
      ++at;
      continue;
    }
    std::size_t length = multi_char_at(text, at);
    if (length == 0 && !starts_no_word(text[at])) {
      std::size_t end = at + 1;
      while (end < text.size() && !is_space(text[end]) && !word_ends_at(text, end)) ++end;
      length = end - at;
    }
    if (length == 0) length = 1;  // \S: one character
    words.emplace_back(text.substr(at, length));
    at += length;
  }
  return words;
}

std::u32string lower(std::u32string_view text) { return unicode::lowercase_text(text); }

bool is_abbreviation(std::u32string_view lowered) {
  const std::string word = unicode::encode_utf8(lowered);
  return std::find(kPunktAbbreviations.begin(), kPunktAbbreviations.end(), word) != kPunktAbbreviations.end();
}

// Punkt's ##number## type: -?[.,]?\d[\d,.-]*\.?
bool is_number_type(std::u32string_view word) {
  std::size_t at = 0;
  if (at < word.size() && word[at] == U'-') ++at;
  if (at < word.size() && (word[at] == U'.' || word[at] == U',')) ++at;
  if (at >= word.size() || !is_decimal(word[at])) return false;
  ++at;
  while (at < word.size() && (is_decimal(word[at]) || word[at] == U',' || word[at] == U'.' || word[at] == U'-')) ++at;
  if (at < word.size() && word[at] == U'.') ++at;
  return at == word.size();
}

struct Token {
  std::u32string word;
  bool sentence_break = false;
  bool abbreviation = false;
  bool ellipsis = false;
};

bool period_final(const Token& token) { return !token.word.empty() && token.word.back() == U'.'; }
bool is_initial(const Token& token) {
  return token.word.size() == 2 && is_word_letter(token.word[0]) && token.word[1] == U'.';
}
bool first_upper(const Token& token) { return u_isupper(static_cast<UChar32>(token.word[0])) != 0; }
bool first_lower(const Token& token) { return u_islower(static_cast<UChar32>(token.word[0])) != 0; }

// Punkt's first pass: sentence-ending punctuation breaks; a period-final word breaks unless it is
// an abbreviation (or ends in "..").
void annotate_first_pass(Token& token) {
  const std::u32string& word = token.word;
  if (word == U"." || word == U"?" || word == U"!") {
    token.sentence_break = true;
  } else if (word.size() >= 2 && std::all_of(word.begin(), word.end(), [](char32_t c) { return c == U'.'; })) {
    token.ellipsis = true;
  } else if (period_final(token) && !(word.size() >= 2 && word[word.size() - 2] == U'.')) {
    const std::u32string stem = lower(std::u32string_view(word).substr(0, word.size() - 1));
    const std::size_t dash = stem.rfind(U'-');
    const std::u32string_view last_part = dash == std::u32string::npos ? stem : std::u32string_view(stem).substr(dash + 1);
    if (is_abbreviation(stem) || is_abbreviation(last_part)) {
      token.abbreviation = true;
    } else {
      token.sentence_break = true;
    }
  }
}

// Punkt's orthographic heuristic with no learned context: false before a lowercase word or a
// punctuation mark, unknown otherwise.
enum class Starter { no, unknown };
Starter orthographic_heuristic(const Token& next) {
  if (std::u32string_view(U";:,.!?").find(next.word) != std::u32string_view::npos) return Starter::no;
  return first_lower(next) ? Starter::no : Starter::unknown;
}

// Punkt's second pass over (token, next): with no learned collocations or sentence starters, an
// abbreviation or ellipsis never becomes a break; an initial or a number stops being one before a
// word the heuristic says does not start a sentence, and an initial also before a capitalised one.
void annotate_second_pass(Token& token, const Token& next) {
  if (!period_final(token)) return;
  const bool initial = is_initial(token);
  if (!(initial || is_number_type(lower(token.word)))) return;
  const Starter starter = orthographic_heuristic(next);
  if (starter == Starter::no || (initial && first_upper(next))) {
    token.sentence_break = false;
    token.abbreviation = true;
  }
}

// Punkt's text_contains_sentbreak: a break on any token but the last.
bool contains_break(std::u32string_view context) {
  std::vector<Token> tokens;
  for (auto& word : punkt_words(context)) tokens.push_back({std::move(word)});
  for (auto& token : tokens) annotate_first_pass(token);
  for (std::size_t t = 0; t + 1 < tokens.size(); ++t) {
    annotate_second_pass(tokens[t], tokens[t + 1]);
    if (tokens[t].sentence_break) return true;
  }
  return false;
}

// One match of Punkt's period context: sentence-ending punctuation at `at`, followed by NonWord
// or by whitespace and a word.
struct PeriodContext {
  std::size_t at = 0;
  std::size_t after_end = 0;                // end of after_tok
  std::optional<std::size_t> next_word;     // start of next_tok, when after_tok is whitespace + a word
};

std::vector<PeriodContext> period_contexts(std::u32string_view text) {
  std::vector<PeriodContext> matches;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!is_sentence_end(text[at])) continue;
    const std::size_t after = at + 1;
    if (after < text.size() && is_non_word(text[after])) {
      matches.push_back({at, after + 1, std::nullopt});
      continue;
    }
    std::size_t word = after;
    while (word < text.size() && is_space(text[word])) ++word;
    if (word == after || word == text.size()) continue;
    std::size_t end = word;
    while (end < text.size() && !is_space(text[end])) ++end;
    matches.push_back({at, end, word});
  }
  return matches;
}

// Punkt's _match_potential_end_contexts and _slices_from_text: each candidate's context is the
// word before it, the punctuation and what follows; a candidate whose preceding word overlaps the
// previous candidate's replaces it.
std::vector<std::pair<std::size_t, std::size_t>> break_slices(std::u32string_view text) {
  struct Candidate {
    PeriodContext match;
    std::size_t word_begin;
  };
  std::vector<Candidate> candidates;
  std::size_t previous_begin = 0, previous_end = 0;
  for (const auto& match : period_contexts(text)) {
    std::size_t last_space = 0;
    for (std::size_t i = match.at; i > previous_end; --i) {
      if (is_space(text[i - 1])) {
        last_space = i - 1 - previous_end;
        break;
      }
    }
    const std::size_t word_begin = last_space != 0 ? previous_end + last_space + 1 : previous_begin;
    if (!candidates.empty() && previous_end > word_begin) candidates.pop_back();
    candidates.push_back({match, word_begin});
    previous_begin = word_begin;
    previous_end = match.at;
  }
  std::vector<std::pair<std::size_t, std::size_t>> slices;
  std::size_t last_break = 0;
  for (const auto& [match, word_begin] : candidates) {
    if (!contains_break(text.substr(word_begin, match.after_end - word_begin))) continue;
    slices.emplace_back(last_break, match.at + 1);
    last_break = match.next_word.value_or(match.at + 1);
  }
  std::size_t end = text.size();
  while (end > 0 && is_space(text[end - 1])) --end;
  slices.emplace_back(last_break, end);
  return slices;
}

// The length of Punkt's boundary realignment at the start of `text`: closing quotes or brackets
// (as few as possible) followed by whitespace, "--" or the end; 0 when none match. `kept` is the
// part that moves back (without the whitespace).
std::size_t realignment(std::u32string_view text, std::size_t& kept) {
  const std::u32string_view closing = U"\"')]}";
  for (std::size_t n = 1; n <= text.size() && closing.find(text[n - 1]) != std::u32string_view::npos; ++n) {
    std::size_t end = n;
    while (end < text.size() && is_space(text[end])) ++end;
    if (end > n || n == text.size() || text.substr(n, 2) == U"--" || text[n] == U'\n') {
      kept = n;
      return end;
    }
  }
  return 0;
}

}  // namespace

std::vector<Sentence> punkt_sentences(std::string_view line) {
  const CodePoints text = decode(line);
  const std::u32string_view points = text.points;
  const auto slices = break_slices(points);
  std::vector<Sentence> sentences;
  auto emit = [&](std::size_t begin, std::size_t end) {
    if (end <= begin) return;
    const std::size_t first = text.offsets[begin], last = text.offsets[end];
    sentences.push_back({std::string(line.substr(first, last - first)), first, last});
  };
  std::size_t realign = 0;
  for (std::size_t s = 0; s < slices.size(); ++s) {
    const std::size_t begin = slices[s].first + realign;
    if (s + 1 == slices.size()) {
      emit(begin, slices[s].second);
      continue;
    }
    const auto [next_begin, next_end] = slices[s + 1];
    std::size_t kept = 0;
    const std::size_t moved = next_end > next_begin ? realignment(points.substr(next_begin, next_end - next_begin), kept) : 0;
    if (moved > 0) {
      emit(begin, next_begin + kept);
      realign = moved;
    } else {
      realign = 0;
      emit(begin, slices[s].second);
    }
  }
  return sentences;
}

}  // namespace claimrag::text
