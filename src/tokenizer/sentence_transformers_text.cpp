// The text settings of a sentence-transformers folder, applied as its Transformer module applies
// them before calling the tokenizer: each text stripped of leading and trailing whitespace
// (Python's str.strip), lowercased whole when sentence_bert_config.json says do_lower_case
// (Python's str.lower: full lowercase mapping, a final capital sigma becoming ς), and tokenised
// to at most max_seq_length tokens when the caller gives no length.
#include <optional>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "json_fields.hpp"
#include "readers.hpp"

namespace claimrag::tokenizer {
namespace {

struct SentenceTextSettings {
  bool lowercase = false;
  std::optional<std::size_t> max_seq_length;
};

SentenceTextSettings read_sentence_text_settings(const std::filesystem::path& folder) {
  SentenceTextSettings text_settings;
  const std::filesystem::path path = folder / "sentence_bert_config.json";
  if (!std::filesystem::exists(path)) return text_settings;  // the module's defaults
  const std::string source = path.string();
  const nlohmann::json config = read_json_object(path);
  text_settings.lowercase = optional_bool(config, "do_lower_case", source).value_or(false);
  if (const auto length = optional_integer(config, "max_seq_length", source)) {
    if (*length <= 0) throw DataError(source, "\"max_seq_length\" should be a positive number of tokens, not " + std::to_string(*length));
    text_settings.max_seq_length = static_cast<std::size_t>(*length);
  }
  return text_settings;
}

std::u32string stripped(const std::u32string& text) {
  std::size_t start = 0;
  std::size_t end = text.size();
  while (start < end && unicode::is_python_space(text[start])) ++start;
  while (end > start && unicode::is_python_space(text[end - 1])) --end;
  return text.substr(start, end - start);
}

class SentenceTransformerTokenizer final : public Tokenizer {
 public:
  SentenceTransformerTokenizer(std::unique_ptr<Tokenizer> inner, SentenceTextSettings settings)
      : inner_(std::move(inner)), settings_(settings) {}

  [[nodiscard]] Encoding encode(std::string_view text, std::optional<std::string_view> text_pair,
                                std::size_t max_length) const override {
    const std::string first = prepared(text, "text");
    std::optional<std::string> second;
    if (text_pair) second = prepared(*text_pair, "text pair");
    return inner_->encode(first, second ? std::optional<std::string_view>(*second) : std::nullopt, max_length);
  }
  // sentence-transformers passes max_seq_length as the length; without one, the tokenizer's.
  [[nodiscard]] std::optional<std::size_t> model_max_length() const override {
    return settings_.max_seq_length ? settings_.max_seq_length : inner_->model_max_length();
  }
  [[nodiscard]] std::int32_t pad_id() const override { return inner_->pad_id(); }
  [[nodiscard]] std::size_t vocabulary_size() const override { return inner_->vocabulary_size(); }
  [[nodiscard]] std::string description() const override {
    std::string text = inner_->description();
    if (settings_.max_seq_length) text += ", max_seq_length " + std::to_string(*settings_.max_seq_length);
    if (settings_.lowercase) text += ", lowercased";
    return text;
  }

 private:
  [[nodiscard]] std::string prepared(std::string_view text, std::string_view what) const {
    std::u32string code_points = stripped(unicode::decode_utf8(text, what));
    if (settings_.lowercase) code_points = unicode::lowercase_text(code_points);
    return unicode::encode_utf8(code_points);
  }

  std::unique_ptr<Tokenizer> inner_;
  SentenceTextSettings settings_;
};

}  // namespace

std::unique_ptr<Tokenizer> with_sentence_transformer_text(std::unique_ptr<Tokenizer> tokenizer,
                                                          const std::filesystem::path& folder) {
  return std::make_unique<SentenceTransformerTokenizer>(std::move(tokenizer), read_sentence_text_settings(folder));
}

}  // namespace claimrag::tokenizer
