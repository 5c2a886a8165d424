#include "claimrag/tokenizer/pipeline.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "claimrag/tokenizer/visible_text.hpp"

namespace claimrag::tokenizer {

PipelineTokenizer::PipelineTokenizer(PipelineParts parts) : parts_(std::move(parts)) {
  std::vector<AddedToken> raw_tokens;
  std::vector<std::u32string> raw_patterns;
  std::vector<AddedToken> normalized_tokens;
  std::vector<std::u32string> normalized_patterns;
  for (const AddedToken& token : parts_.added_tokens) {
    const std::u32string content = unicode::decode_utf8(token.content, "added token");
    if (token.normalized) {
      normalized_tokens.push_back(token);
      normalized_patterns.push_back(parts_.normalizer.apply(content));
    } else {
      raw_tokens.push_back(token);
      raw_patterns.push_back(content);
    }
  }
  raw_matcher_ = AddedTokenMatcher(std::move(raw_tokens), std::move(raw_patterns));
  normalized_matcher_ = AddedTokenMatcher(std::move(normalized_tokens), std::move(normalized_patterns));
}

std::vector<std::int32_t> PipelineTokenizer::encode_text(std::string_view text, std::string_view what) const {
  std::vector<std::int32_t> ids;
  bool at_text_start = true;  // no added token and no text before this piece
  std::u32string code_points = unicode::decode_utf8(text, what);
  if (parts_.prefix_space_once && !code_points.empty() && !unicode::is_python_space(code_points.front()))
    code_points.insert(code_points.begin(), U' ');
  for (const TextPiece& raw : raw_matcher_.split(code_points)) {
    if (raw.id) {
      ids.push_back(*raw.id);
      at_text_start = false;
      continue;
    }
    for (const TextPiece& piece : normalized_matcher_.split(parts_.normalizer.apply(raw.text))) {
      if (piece.id) {
        ids.push_back(*piece.id);
        at_text_start = false;
        continue;
      }
      for (const std::u32string& word : parts_.pre_tokenizer.split(piece.text, at_text_start)) parts_.model->tokenize(word, ids);
      if (!piece.text.empty()) at_text_start = false;
    }
    if (!raw.text.empty()) at_text_start = false;
  }
  return ids;
}

Encoding PipelineTokenizer::encode(std::string_view text, std::optional<std::string_view> text_pair,
                                   std::size_t max_length) const {
  // What lies beyond the characters the model can see is never tokenised.
  const TruncationSide side = parts_.truncation_side;
  std::vector<std::int32_t> first = encode_text(visible_text(text, max_length, side, "text"), "text");
  // An empty second text is an empty segment (`[CLS] A [SEP] [SEP]`), as the slow classes encode
  // it and the fast ones do for a batch of pairs (a cross-encoder's call); only a fast
  // tokenizer's single-pair call, `tokenizer(a, "")`, drops it.
  std::optional<std::vector<std::int32_t>> second;
  if (text_pair) second = encode_text(visible_text(*text_pair, max_length, side, "text pair"), "text pair");
  return parts_.pair_template.fit_and_apply(std::move(first), std::move(second), max_length, parts_.pair_truncation,
                                            parts_.truncation_side);
}

std::size_t PipelineTokenizer::vocabulary_size() const {
  // The reference counts the model's ids and the added tokens beyond them.
  std::size_t size = parts_.model->size();
  for (const AddedToken& token : parts_.added_tokens) size = std::max(size, static_cast<std::size_t>(token.id) + 1);
  return size;
}

std::string PipelineTokenizer::description() const {
  return parts_.source + ": " + parts_.model->name() + ", " + std::to_string(vocabulary_size()) + " tokens";
}

}  // namespace claimrag::tokenizer
