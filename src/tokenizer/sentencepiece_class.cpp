#include "sentencepiece_class.hpp"

#include "claimrag/error.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/tokenizer/pipeline.hpp"
#include "claimrag/tokenizer/precompiled_charsmap.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "claimrag/tokenizer/visible_text.hpp"
#include "sentencepiece_charsmaps.hpp"

namespace claimrag::tokenizer {

SentencePieceClassTokenizer::SentencePieceClassTokenizer(const std::filesystem::path& file, std::string kind,
                                                         const FolderSettings& settings)
    : source_(file.filename().string()),
      kind_(std::move(kind)),
      model_max_length_(settings.model_max_length),
      truncation_side_(settings.truncation_side == "left" ? TruncationSide::left : TruncationSide::right) {
  // Read by claimrag's bounded reader, not libsentencepiece's own (which reads a FIFO or a device to its end).
  const std::string model = io::read_file(file, io::kVocabularyInput);
  const auto status = processor_.LoadFromSerializedProto(model);
  if (!status.ok()) throw DataError(file.string(), "not a SentencePiece model (" + status.ToString() + ")");
  // libsentencepiece walks a model's character maps without bounds checks and applies any
  // replacement whatever its length: a damaged map would send the walk outside it when a text is
  // encoded, so each is read here first, its replacements bounded as a tokenizer.json's are
  // (PrecompiledCharsmap's constructor) and every walk checked.
  for (const std::string_view charsmap : sentencepiece_charsmaps(model, file.string())) {
    PrecompiledCharsmap(charsmap, file.string()).check_every_walk();
  }
}

void SentencePieceClassTokenizer::set_special_tokens(std::vector<AddedToken> tokens, const std::string& source) {
  std::vector<std::u32string> patterns;
  for (const AddedToken& token : tokens) patterns.push_back(unicode::decode_utf8(token.content, source));
  specials_ = AddedTokenMatcher(std::move(tokens), std::move(patterns));
}

std::vector<std::int32_t> SentencePieceClassTokenizer::encode_text(std::string_view text, std::string_view what) const {
  std::vector<std::int32_t> ids;
  for (const TextPiece& piece : specials_.split(unicode::decode_utf8(text, what))) {
    if (piece.id) {
      ids.push_back(*piece.id);
    } else if (!piece.text.empty()) {
      encode_piece(piece.text, ids);
    }
  }
  return ids;
}

Encoding SentencePieceClassTokenizer::encode(std::string_view text, std::optional<std::string_view> text_pair,
                                             std::size_t max_length) const {
  // What lies beyond the characters the model can see is never tokenised.
  std::vector<std::int32_t> first = encode_text(visible_text(text, max_length, truncation_side_, "text"), "text");
  // The Python classes keep an empty second text as an empty segment.
  std::optional<std::vector<std::int32_t>> second;
  if (text_pair) second = encode_text(visible_text(*text_pair, max_length, truncation_side_, "text pair"), "text pair");
  return template_.fit_and_apply(std::move(first), std::move(second), max_length, PairTruncation::slow, truncation_side_);
}

std::string SentencePieceClassTokenizer::description() const {
  return source_ + ": " + kind_ + ", " + std::to_string(vocabulary_size_) + " tokens";
}

}  // namespace claimrag::tokenizer
