#include "claimrag/tokenizer/sentencepiece_normalizers.hpp"

#include <unicode/regex.h>
#include <unicode/unistr.h>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

icu::UnicodeString to_icu(const std::u32string& text) {
  return icu::UnicodeString::fromUTF8(unicode::encode_utf8(text));
}

std::u32string from_icu(const icu::UnicodeString& text) {
  std::string utf8;
  text.toUTF8String(utf8);
  return unicode::decode_utf8(utf8, "normalised text");
}

}  // namespace

std::u32string PrecompiledNormalizer::apply(const std::u32string& text) const {
  return charsmap_->normalize_like_tokenizers(text);
}

// The compiled pattern; a matcher is made from it per call, so one normaliser serves many threads.
struct ReplaceNormalizer::Compiled {
  std::unique_ptr<icu::RegexPattern> pattern;
};

ReplaceNormalizer::ReplaceNormalizer(const std::string& pattern, bool is_regex, const std::string& content,
                                     const std::string& source)
    : content_(unicode::decode_utf8(content, source + ": Replace content")), source_(source) {
  if (pattern.empty()) throw DataError(source, "a Replace normalizer has an empty pattern");
  const std::u32string decoded = unicode::decode_utf8(pattern, source + ": Replace pattern");
  if (!is_regex) {
    literal_ = decoded;
    return;
  }
  UErrorCode status = U_ZERO_ERROR;
  UParseError where{};
  regex_ = std::make_unique<Compiled>();
  regex_->pattern.reset(icu::RegexPattern::compile(to_icu(decoded), 0, where, status));
  if (U_FAILURE(status))
    throw DataError(source, "the Replace normalizer's pattern \"" + pattern + "\" is not a regular expression (" +
                                u_errorName(status) + ")");
}

ReplaceNormalizer::~ReplaceNormalizer() = default;

std::u32string ReplaceNormalizer::apply(const std::u32string& text) const {
  if (!regex_) {
    std::u32string out;
    std::size_t at = 0;
    while (true) {
      const std::size_t found = text.find(literal_, at);
      out.append(text, at, found == std::u32string::npos ? std::u32string::npos : found - at);
      if (found == std::u32string::npos) return out;
      out += content_;
      at = found + literal_.size();
    }
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString input = to_icu(text);
  std::unique_ptr<icu::RegexMatcher> matcher(regex_->pattern->matcher(input, status));
  if (U_FAILURE(status)) throw InternalError(std::string("ICU regex matcher: ") + u_errorName(status));
  // A pattern such as (a+)+$ backtracks exponentially in the text's length: each search is
  // bounded in steps and in backtracking memory, and a pattern that needs more is refused.
  matcher->setTimeLimit(kReplaceRegexTimeLimit, status);
  matcher->setStackLimit(kReplaceRegexStackBytes, status);
  if (U_FAILURE(status)) throw InternalError(std::string("ICU regex limits: ") + u_errorName(status));
  // Literal replacement: content is not a replacement template (no $1 or backslashes read).
  icu::UnicodeString out;
  std::int32_t copied = 0;
  while (matcher->find(status) && U_SUCCESS(status)) {
    const std::int32_t start = matcher->start(status);
    const std::int32_t end = matcher->end(status);
    out.append(input, copied, start - copied);
    out.append(to_icu(content_));
    copied = end;
  }
  if (status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW) {
    throw DataError(source_, "the Replace normalizer's pattern needs more than " +
                                 (status == U_REGEX_TIME_OUT ? std::to_string(kReplaceRegexTimeLimit) + " steps of ICU's regex engine"
                                                             : std::to_string(kReplaceRegexStackBytes) + " bytes of backtracking") +
                                 " on a text of " + std::to_string(text.size()) +
                                 " characters (a pattern that backtracks without bound, such as (a+)+$)");
  }
  if (U_FAILURE(status)) throw InternalError(std::string("ICU regex search: ") + u_errorName(status));
  out.append(input, copied, input.length() - copied);
  return from_icu(out);
}

std::u32string StripNormalizer::apply(const std::u32string& text) const {
  std::size_t begin = 0;
  std::size_t end = text.size();
  if (left_)
    while (begin < end && unicode::is_white_space(text[begin])) ++begin;
  if (right_)
    while (end > begin && unicode::is_white_space(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

}  // namespace claimrag::tokenizer
