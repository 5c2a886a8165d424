// spiece.model read as a T5 folder's tokenizer reads it with the legacy behaviour flan-t5's files
// have (tokenizer_config.json without "legacy"): the special tokens written in the text (<pad>,
// </s>, <unk> and the sentinels <extra_id_0> ... <extra_id_99>) are cut out first, and each piece
// between them is encoded by SentencePiece on its own, with the model's normalisation and its
// dummy prefix: the word after a "</s>" in the text starts with "▁", as in the reference (whose
// fast tokenizer, converted from this file, prepends "▁" to every piece between special tokens).
// The ids are SentencePiece's (<pad> 0, </s> 1, <unk> 2 in T5's models); the sentinels follow the
// pieces, <extra_id_0> last. There is no BOS: a text becomes `A </s>`, a pair `A </s> B </s>`,
// every segment id 0, and the end-of-sequence token is appended even after a text that ends with
// "</s>", as the reference's TemplateProcessing appends it (the slow class alone would not).
// Truncation keeps max_length - 1 tokens of the text, then appends </s>.
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "readers.hpp"
#include "sentencepiece_class.hpp"

namespace claimrag::tokenizer {
namespace {

// T5Tokenizer's default number of sentinels, and a bound far past any real file's.
constexpr std::int64_t kDefaultExtraIds = 100;
constexpr std::int64_t kMostExtraIds = 100000;

PairTemplate t5_template(std::int32_t eos_id) {
  const TemplatePart eos{std::nullopt, {eos_id}, 0};
  PairTemplate result;
  result.single = {TemplatePart{0, {}, 0}, eos};
  result.pair = {TemplatePart{0, {}, 0}, eos, TemplatePart{1, {}, 0}, eos};
  return result;
}

class T5SentencePiece final : public SentencePieceClassTokenizer {
 public:
  T5SentencePiece(const std::filesystem::path& file, const FolderSettings& settings)
      : SentencePieceClassTokenizer(file, "SentencePiece (T5)", settings) {
    const std::string config = (file.parent_path() / "tokenizer_config.json").string();
    if (settings.legacy == false) {
      throw DataError(config, "\"legacy\": false (no \"▁\" after a special token) is not supported; T5 folders such as "
                              "flan-t5's have the legacy behaviour");
    }
    const std::int64_t extra_ids = settings.extra_ids.value_or(kDefaultExtraIds);
    if (extra_ids < 0 || extra_ids > kMostExtraIds) {
      throw DataError(config, "\"extra_ids\" should be a count of sentinel tokens from 0 to " + std::to_string(kMostExtraIds));
    }
    const auto pieces = static_cast<std::int64_t>(processor_.GetPieceSize());
    vocabulary_size_ = static_cast<std::size_t>(pieces + extra_ids);
    std::vector<AddedToken> specials;
    std::set<std::string> seen;
    for (const auto& [name, fallback] : {std::pair{"eos_token", "</s>"}, std::pair{"unk_token", "<unk>"}, std::pair{"pad_token", "<pad>"}}) {
      AddedToken token;
      token.content = settings.token(name, fallback);
      if (token.content.empty() || !seen.insert(token.content).second) continue;
      token.id = piece_id(token.content, file);
      token.special = true;
      token.normalized = false;
      specials.push_back(token);
    }
    // T5Tokenizer's sentinels take the whitespace on either side (lstrip, rstrip).
    for (std::int64_t i = 0; i < extra_ids; ++i) {
      AddedToken token;
      token.content = "<extra_id_" + std::to_string(i) + ">";
      token.id = static_cast<std::int32_t>(pieces + extra_ids - 1 - i);
      token.special = true;
      token.normalized = false;
      token.lstrip = true;
      token.rstrip = true;
      specials.push_back(token);
    }
    set_special_tokens(std::move(specials), file.string());
    template_ = t5_template(piece_id(settings.token("eos_token", "</s>"), file));
    pad_id_ = piece_id(settings.token("pad_token", "<pad>"), file);
  }

 private:
  // A special token must be a piece of the model: T5's are its control pieces.
  [[nodiscard]] std::int32_t piece_id(const std::string& token, const std::filesystem::path& file) const {
    const int id = processor_.PieceToId(token);
    if (id == processor_.unk_id() && token != processor_.IdToPiece(id)) {
      throw DataError(file.string(), "the model has no piece \"" + token + "\", which T5's tokenizer needs");
    }
    return id;
  }

  void encode_piece(const std::u32string& piece, std::vector<std::int32_t>& ids) const override {
    std::vector<int> pieces;
    const auto status = processor_.Encode(unicode::encode_utf8(piece), &pieces);
    if (!status.ok()) throw InternalError("SentencePiece could not encode a text: " + status.ToString());
    ids.insert(ids.end(), pieces.begin(), pieces.end());
  }
};

}  // namespace

std::unique_ptr<Tokenizer> read_t5_sentencepiece(const std::filesystem::path& file, const FolderSettings& settings) {
  return std::make_unique<T5SentencePiece>(file, settings);
}

}  // namespace claimrag::tokenizer
