// spm.model read as DebertaV2Tokenizer reads it: the special tokens written in the text are cut
// out first (with no whitespace taken beside them), each remaining piece is lowercased when
// do_lower_case, optionally split at punctuation, and encoded by SentencePiece with its own
// normalisation; pieces outside the vocabulary are the unknown token. The template is
// [CLS] A [SEP] B [SEP] with segment ids 0 then 1, and pairs are truncated as the Python
// tokenizer classes do (one token at a time from the longer text).
#include <sentencepiece_processor.h>

#include <set>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/added_tokens.hpp"
#include "claimrag/tokenizer/pipeline.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"
#include "claimrag/tokenizer/template.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "readers.hpp"

namespace claimrag::tokenizer {
namespace {

class SentencePieceTokenizer final : public Tokenizer {
 public:
  SentencePieceTokenizer(const std::filesystem::path& file, const FolderSettings& settings)
      : source_(file.filename().string()),
        lowercase_(settings.do_lower_case.value_or(false)),
        split_by_punct_(settings.split_by_punct.value_or(false)),
        model_max_length_(settings.model_max_length),
        truncation_side_(settings.truncation_side == "left" ? TruncationSide::left : TruncationSide::right) {
    const auto status = processor_.Load(file.string());
    if (!status.ok()) throw DataError(file.string(), "not a SentencePiece model (" + status.ToString() + ")");
    vocabulary_size_ = static_cast<std::size_t>(processor_.GetPieceSize());
    std::vector<AddedToken> specials;
    std::vector<std::u32string> patterns;
    std::set<std::string> seen;
    // DebertaV2Tokenizer's special tokens and their defaults.
    const std::pair<const char*, const char*> names[] = {
        {"cls_token", "[CLS]"}, {"sep_token", "[SEP]"}, {"unk_token", "[UNK]"}, {"pad_token", "[PAD]"}, {"mask_token", "[MASK]"}};
    for (const auto& [name, fallback] : names) {
      AddedToken token;
      token.content = settings.token(name, fallback);
      if (!seen.insert(token.content).second) continue;
      token.id = id_of(token.content);
      token.special = true;
      token.normalized = false;
      specials.push_back(token);
      patterns.push_back(unicode::decode_utf8(token.content, file.string()));
    }
    for (const AddedToken& token : specials) {
      if (token.content == settings.token("unk_token", "[UNK]")) unk_id_ = token.id;
      if (token.content == settings.token("cls_token", "[CLS]")) cls_id_ = token.id;
      if (token.content == settings.token("sep_token", "[SEP]")) sep_id_ = token.id;
      if (token.content == settings.token("pad_token", "[PAD]")) pad_id_ = token.id;
    }
    specials_ = AddedTokenMatcher(std::move(specials), std::move(patterns));
    template_ = PairTemplate::bert(cls_id_, sep_id_);
  }

  [[nodiscard]] Encoding encode(std::string_view text, std::optional<std::string_view> text_pair,
                                std::size_t max_length) const override {
    std::vector<std::int32_t> first = encode_text(text, "text");
    std::optional<std::vector<std::int32_t>> second;
    if (text_pair) second = encode_text(*text_pair, "text pair");
    std::size_t truncated = 0;
    if (max_length != 0) {
      const std::size_t added = template_.added_tokens(second.has_value());
      check_room_for_special_tokens(max_length, added);
      truncated = truncate_one_at_a_time(first, second, max_length - added, truncation_side_);
    }
    Encoding encoding = template_.apply(first, second);
    encoding.truncated_tokens = truncated;
    return encoding;
  }

  [[nodiscard]] std::optional<std::size_t> model_max_length() const override { return model_max_length_; }
  [[nodiscard]] std::int32_t pad_id() const override { return pad_id_; }
  [[nodiscard]] std::size_t vocabulary_size() const override { return vocabulary_size_; }
  [[nodiscard]] std::string description() const override {
    return source_ + ": SentencePiece, " + std::to_string(vocabulary_size_) + " tokens";
  }

 private:
  // A special token the model lacks gets the next id after the vocabulary, as the reference adds it.
  std::int32_t id_of(const std::string& token) {
    if (in_vocabulary(token)) return processor_.PieceToId(token);
    return static_cast<std::int32_t>(vocabulary_size_++);
  }

  [[nodiscard]] bool in_vocabulary(const std::string& piece) const {
    const int id = processor_.PieceToId(piece);
    return id != processor_.unk_id() || processor_.IdToPiece(id) == piece;
  }

  void encode_piece(const std::string& text, std::vector<std::int32_t>& ids) const {
    std::vector<std::string> pieces;
    const auto status = processor_.Encode(text, &pieces);
    if (!status.ok()) throw InternalError("SentencePiece could not encode a text: " + status.ToString());
    for (const std::string& piece : pieces)
      ids.push_back(piece == "<unk>" || !in_vocabulary(piece) ? unk_id_ : processor_.PieceToId(piece));
  }

  std::vector<std::int32_t> encode_text(std::string_view text, std::string_view what) const {
    std::vector<std::int32_t> ids;
    for (const TextPiece& piece : specials_.split(unicode::decode_utf8(text, what))) {
      if (piece.id) {
        ids.push_back(*piece.id);
        continue;
      }
      if (piece.text.empty()) continue;
      const std::u32string chunk = lowercase_ ? unicode::lowercase_text(piece.text) : piece.text;
      if (!split_by_punct_) {
        encode_piece(unicode::encode_utf8(chunk), ids);
        continue;
      }
      // Each punctuation character on its own, the runs between them as words.
      std::u32string word;
      for (char32_t c : chunk) {
        if (is_bert_punctuation(c)) {
          if (!word.empty()) encode_piece(unicode::encode_utf8(word), ids);
          word.clear();
          encode_piece(unicode::encode_utf8(std::u32string(1, c)), ids);
        } else {
          word.push_back(c);
        }
      }
      if (!word.empty()) encode_piece(unicode::encode_utf8(word), ids);
    }
    return ids;
  }

  std::string source_;
  bool lowercase_;
  bool split_by_punct_;
  std::optional<std::size_t> model_max_length_;
  TruncationSide truncation_side_;
  sentencepiece::SentencePieceProcessor processor_;
  std::size_t vocabulary_size_ = 0;
  std::int32_t unk_id_ = 0;
  std::int32_t cls_id_ = 0;
  std::int32_t sep_id_ = 0;
  std::int32_t pad_id_ = 0;
  AddedTokenMatcher specials_;
  PairTemplate template_;
};

}  // namespace

std::unique_ptr<Tokenizer> read_sentencepiece_model(const std::filesystem::path& file, const FolderSettings& settings) {
  return std::make_unique<SentencePieceTokenizer>(file, settings);
}

}  // namespace claimrag::tokenizer
