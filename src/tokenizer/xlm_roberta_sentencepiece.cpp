// sentencepiece.bpe.model read as XLMRobertaTokenizer (the slow class) reads it. Despite its name
// the file is a SentencePiece Unigram model; fairseq's dictionary puts <s>, <pad>, </s>, <unk> at
// ids 0 to 3 and every SentencePiece id one higher (fairseq_offset 1), SentencePiece's own unknown
// id becoming 3, and <mask> takes the id after the last piece. The special tokens written in the
// text are cut out first; each piece between them is encoded by SentencePiece with the model's
// own normalisation (which drops whitespace at either end, so <mask>'s lstrip changes nothing).
// The template is <s> A </s></s> B </s>, every segment id 0, and pairs are truncated one token at
// a time from the longer text, as the Python tokenizer classes do.
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "readers.hpp"
#include "sentencepiece_class.hpp"

namespace claimrag::tokenizer {
namespace {

// fairseq's dictionary ids of its own special tokens, and the shift of every SentencePiece id.
constexpr std::int32_t kBos = 0;
constexpr std::int32_t kPad = 1;
constexpr std::int32_t kEos = 2;
constexpr std::int32_t kUnk = 3;
constexpr std::int32_t kFairseqOffset = 1;

class XlmRobertaSentencePiece final : public SentencePieceClassTokenizer {
 public:
  XlmRobertaSentencePiece(const std::filesystem::path& file, const FolderSettings& settings)
      : SentencePieceClassTokenizer(file, "SentencePiece with fairseq ids", settings) {
    mask_id_ = processor_.GetPieceSize() + kFairseqOffset;
    vocabulary_size_ = static_cast<std::size_t>(mask_id_) + 1;
    std::vector<AddedToken> specials;
    std::set<std::string> seen;
    const std::pair<const char*, const char*> names[] = {{"bos_token", "<s>"},   {"eos_token", "</s>"},
                                                         {"unk_token", "<unk>"}, {"sep_token", "</s>"},
                                                         {"pad_token", "<pad>"}, {"cls_token", "<s>"},
                                                         {"mask_token", "<mask>"}};
    for (const auto& [name, fallback] : names) {
      AddedToken token;
      token.content = settings.token(name, fallback);
      if (token.content.empty() || !seen.insert(token.content).second) continue;
      token.id = token_id(token.content);
      token.special = true;
      token.normalized = false;
      specials.push_back(token);
    }
    set_special_tokens(std::move(specials), file.string());
    template_ = PairTemplate::roberta(token_id(settings.token("cls_token", "<s>")), token_id(settings.token("sep_token", "</s>")));
    pad_id_ = token_id(settings.token("pad_token", "<pad>"));
  }

 private:
  // XLMRobertaTokenizer's _convert_token_to_id: fairseq's own tokens, <mask>, else the
  // SentencePiece id shifted by one, the unknown piece (id 0) becoming fairseq's <unk>.
  [[nodiscard]] std::int32_t token_id(const std::string& token) const {
    if (token == "<s>") return kBos;
    if (token == "<pad>") return kPad;
    if (token == "</s>") return kEos;
    if (token == "<unk>") return kUnk;
    if (token == "<mask>") return mask_id_;
    return shifted(processor_.PieceToId(token));
  }

  [[nodiscard]] static std::int32_t shifted(int sentencepiece_id) {
    return sentencepiece_id == 0 ? kUnk : sentencepiece_id + kFairseqOffset;
  }

  void encode_piece(const std::u32string& piece, std::vector<std::int32_t>& ids) const override {
    std::vector<int> pieces;
    const auto status = processor_.Encode(unicode::encode_utf8(piece), &pieces);
    if (!status.ok()) throw InternalError("SentencePiece could not encode a text: " + status.ToString());
    for (int id : pieces) ids.push_back(shifted(id));
  }

  std::int32_t mask_id_ = 0;
};

}  // namespace

std::unique_ptr<Tokenizer> read_xlm_roberta_sentencepiece(const std::filesystem::path& file, const FolderSettings& settings) {
  return std::make_unique<XlmRobertaSentencePiece>(file, settings);
}

}  // namespace claimrag::tokenizer
