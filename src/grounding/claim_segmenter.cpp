#include "claimrag/grounding/claim_segmenter.hpp"

#include <algorithm>
#include <array>

#include "claimrag/error.hpp"

namespace claimrag::grounding {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_terminator(char c) { return c == '.' || c == '!' || c == '?'; }
bool is_closer(char c) { return c == '"' || c == '\'' || c == ')' || c == ']' || c == '}'; }
bool is_opener(char c) { return c == '"' || c == '\'' || c == '(' || c == '[' || c == '{'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr std::array<std::string_view, 29> kAbbreviations{
    "e.g", "i.e", "al",  "fig", "figs", "eq", "eqs", "ref", "refs", "vs",   "cf", "approx", "ca",   "dr", "mr",
    "mrs", "ms",  "prof", "vol", "pp",   "jr", "sr",  "inc", "ltd",  "tab", "sec", "resp",  "viz", "incl"};

/// The word that ends just before `dot` (rule 2a), lowercased.
std::string word_before(std::string_view text, std::size_t dot) {
  std::size_t start = dot;
  while (start > 0 && !is_space(text[start - 1]) && !is_opener(text[start - 1])) --start;
  std::string word(text.substr(start, dot - start));
  std::transform(word.begin(), word.end(), word.begin(), lower);
  return word;
}

/// True when the position `at` starts a blank line break: '\n', spaces or tabs (or '\r'), '\n'.
std::size_t blank_line_end(std::string_view text, std::size_t at) {
  if (text[at] != '\n') return 0;
  std::size_t next = at + 1;
  while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r')) ++next;
  return next < text.size() && text[next] == '\n' ? next + 1 : 0;
}

void add_claim(std::string_view text, std::size_t begin, std::size_t end, std::vector<ClaimSpan>& claims) {
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  if (begin < end) claims.push_back({std::string(text.substr(begin, end - begin)), begin, end});
}

}  // namespace

std::span<const std::string_view> abbreviation_list() { return kAbbreviations; }

std::vector<ClaimSpan> segment_claims(std::string_view text) {
  std::vector<ClaimSpan> claims;
  std::size_t begin = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    if (const std::size_t after_blank = blank_line_end(text, at); after_blank > 0) {  // rule 3
      add_claim(text, begin, at, claims);
      begin = at = after_blank;
      continue;
    }
    if (!is_terminator(text[at])) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && is_terminator(text[end])) ++end;
    const bool single_period = end - at == 1 && text[at] == '.';
    while (end < text.size() && is_closer(text[end])) ++end;
    if (end < text.size() && !is_space(text[end])) {  // rule 1: not followed by whitespace
      at = end;
      continue;
    }
    if (single_period) {  // rule 2
      const std::string word = word_before(text, at);
      const bool abbreviation = std::find(kAbbreviations.begin(), kAbbreviations.end(), word) != kAbbreviations.end();
      std::size_t next = end;
      while (next < text.size() && is_space(text[next])) ++next;
      const bool continues = next < text.size() && (is_lower(text[next]) || is_digit(text[next]) || text[next] == ',' ||
                                                    text[next] == ';' || text[next] == ':' || text[next] == '%');
      if (abbreviation || continues) {
        at = end;
        continue;
      }
    }
    add_claim(text, begin, end, claims);
    begin = at = end;
  }
  add_claim(text, begin, text.size(), claims);
  return claims;
}

std::string join_claims(std::string_view answer, std::span<const ClaimSpan> claims, const std::vector<bool>& keep) {
  if (keep.size() != claims.size()) throw InternalError("join_claims: one keep flag per claim");
  std::string joined;
  std::string separator;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    if (!keep[c]) continue;
    joined += separator;
    joined += answer.substr(claims[c].begin, claims[c].end - claims[c].begin);
    const std::size_t gap_end = c + 1 < claims.size() ? claims[c + 1].begin : claims[c].end;
    separator = gap_end > claims[c].end ? std::string(answer.substr(claims[c].end, gap_end - claims[c].end)) : " ";
  }
  return joined;
}

}  // namespace claimrag::grounding
