// spm.model read as DebertaV2Tokenizer reads it: the special tokens written in the text are cut
// out first (with no whitespace taken beside them), each remaining piece is lowercased when
// do_lower_case, optionally split at punctuation, and encoded by SentencePiece with its own
// normalisation; pieces outside the vocabulary are the unknown token. The template is
// [CLS] A [SEP] B [SEP] with segment ids 0 then 1, and pairs are truncated as the Python
// tokenizer classes do (one token at a time from the longer text).
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "readers.hpp"
#include "sentencepiece_class.hpp"

namespace claimrag::tokenizer {
namespace {

class SentencePieceTokenizer final : public SentencePieceClassTokenizer {
 public:
  SentencePieceTokenizer(const std::filesystem::path& file, const FolderSettings& settings)
      : SentencePieceClassTokenizer(file, "SentencePiece", settings),
        lowercase_(settings.do_lower_case.value_or(false)),
        split_by_punct_(settings.split_by_punct.value_or(false)) {
    vocabulary_size_ = static_cast<std::size_t>(processor_.GetPieceSize());
    std::vector<AddedToken> specials;
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
    }
    for (const AddedToken& token : specials) {
      if (token.content == settings.token("unk_token", "[UNK]")) unk_id_ = token.id;
      if (token.content == settings.token("cls_token", "[CLS]")) cls_id_ = token.id;
      if (token.content == settings.token("sep_token", "[SEP]")) sep_id_ = token.id;
      if (token.content == settings.token("pad_token", "[PAD]")) pad_id_ = token.id;
    }
    set_special_tokens(std::move(specials), file.string());
    template_ = PairTemplate::bert(cls_id_, sep_id_);
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

  void encode_with_model(const std::string& text, std::vector<std::int32_t>& ids) const {
    std::vector<std::string> pieces;
    const auto status = processor_.Encode(text, &pieces);
    if (!status.ok()) throw InternalError("SentencePiece could not encode a text: " + status.ToString());
    for (const std::string& piece : pieces)
      ids.push_back(piece == "<unk>" || !in_vocabulary(piece) ? unk_id_ : processor_.PieceToId(piece));
  }

  void encode_piece(const std::u32string& piece, std::vector<std::int32_t>& ids) const override {
    const std::u32string chunk = lowercase_ ? unicode::lowercase_text(piece) : piece;
    if (!split_by_punct_) {
      encode_with_model(unicode::encode_utf8(chunk), ids);
      return;
    }
    // Each punctuation character on its own, the runs between them as words.
    std::u32string word;
    for (char32_t c : chunk) {
      if (is_bert_punctuation(c)) {
        if (!word.empty()) encode_with_model(unicode::encode_utf8(word), ids);
        word.clear();
        encode_with_model(unicode::encode_utf8(std::u32string(1, c)), ids);
      } else {
        word.push_back(c);
      }
    }
    if (!word.empty()) encode_with_model(unicode::encode_utf8(word), ids);
  }

  bool lowercase_;
  bool split_by_punct_;
  std::int32_t unk_id_ = 0;
  std::int32_t cls_id_ = 0;
  std::int32_t sep_id_ = 0;
};

}  // namespace

std::unique_ptr<Tokenizer> read_sentencepiece_model(const std::filesystem::path& file, const FolderSettings& settings) {
  return std::make_unique<SentencePieceTokenizer>(file, settings);
}

}  // namespace claimrag::tokenizer
