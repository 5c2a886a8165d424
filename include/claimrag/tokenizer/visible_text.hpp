#pragma once
// The part of a text a model can see, cut before the text is tokenised: a text is truncated to
// max_length tokens anyway, and a token covers at most a few dozen characters in any real
// vocabulary, so what lies beyond a generous number of characters per token can never reach the
// model. Cutting there bounds what tokenising costs (a one-word line of megabytes, a run of a
// million combining marks) whatever the tokenizer file says.

#include <cstddef>
#include <string_view>

#include "claimrag/tokenizer/template.hpp"

namespace claimrag::tokenizer {

/// Characters kept per token of the maximum length: far above the longest piece of a real
/// vocabulary (SentencePiece and WordPiece trainers write pieces of at most 16 characters, and
/// WordPiece reads a word of more than 100 characters as one unknown token).
inline constexpr std::size_t kVisibleCharactersPerToken = 128;

/// `text` (UTF-8, checked whole: DataError "<what>: invalid UTF-8 at byte N" as decode_utf8
/// says) cut to at most kVisibleCharactersPerToken × `max_length` characters on the side that
/// truncation keeps (the start when truncating on the right, the end when on the left); whole when
/// `max_length` is 0 (no limit) or the text is shorter.
std::string_view visible_text(std::string_view text, std::size_t max_length, TruncationSide side, std::string_view what);

}  // namespace claimrag::tokenizer
