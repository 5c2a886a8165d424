#pragma once
// The pre-tokenisers of tokenizer.json that encoder checkpoints use: BertPreTokenizer (split on
// whitespace, each punctuation character its own word), ByteLevel (GPT-2's split pattern, then
// every UTF-8 byte written as one printable character), Whitespace and WhitespaceSplit.

#include <string>
#include <vector>

namespace claimrag::tokenizer {

class PreTokenizer {
 public:
  enum class Kind { none, bert, byte_level, whitespace, whitespace_split };
  PreTokenizer() = default;
  explicit PreTokenizer(Kind kind, bool add_prefix_space = false, bool use_regex = true)
      : kind_(kind), add_prefix_space_(add_prefix_space), use_regex_(use_regex) {}

  /// The words of one normalised piece of text (never an empty word). For ByteLevel, each word is
  /// already in the byte-to-character alphabet the vocabulary is written in.
  [[nodiscard]] std::vector<std::u32string> split(const std::u32string& text) const;
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  Kind kind_ = Kind::none;
  bool add_prefix_space_ = false;
  bool use_regex_ = true;
};

/// BertPreTokenizer's punctuation: ASCII punctuation (which includes symbols such as $ + < = > ^ `
/// | ~) or a character of general category P*.
bool is_bert_punctuation(char32_t c);

/// GPT-2's split of `text` ('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+).
std::vector<std::u32string> gpt2_split(const std::u32string& text);

/// The printable character GPT-2's byte-level alphabet writes byte `byte` as.
char32_t byte_to_symbol(unsigned char byte);
/// `text`'s UTF-8 bytes, each as its byte-level character.
std::u32string to_byte_symbols(const std::u32string& text);

}  // namespace claimrag::tokenizer
