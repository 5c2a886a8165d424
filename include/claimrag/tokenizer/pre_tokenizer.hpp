#pragma once
// The pre-tokenisers of tokenizer.json that encoder checkpoints use: BertPreTokenizer (split on
// whitespace, each punctuation character its own word), ByteLevel (GPT-2's split pattern, then
// every UTF-8 byte written as one printable character), Whitespace, WhitespaceSplit and
// SentencePiece's Metaspace (alone, or after a WhitespaceSplit).

#include <string>
#include <vector>

namespace claimrag::tokenizer {

/// Metaspace: every space becomes `replacement`, which is written before a piece of text (per
/// `prepend`) unless it starts with one; with `split`, a word starts at each replacement. With
/// `after_whitespace_split` it runs on each word of a WhitespaceSplit before it (the Sequence T5's
/// and ALBERT's tokenizer.json hold), so whitespace is dropped and every word gets the replacement.
struct MetaspaceOptions {
  enum class Prepend { always, first, never };
  char32_t replacement = U'\u2581';
  Prepend prepend = Prepend::always;
  bool split = true;
  bool after_whitespace_split = false;
};

class PreTokenizer {
 public:
  enum class Kind { none, bert, byte_level, whitespace, whitespace_split, metaspace };
  PreTokenizer() = default;
  explicit PreTokenizer(Kind kind, bool add_prefix_space = false, bool use_regex = true)
      : kind_(kind), add_prefix_space_(add_prefix_space), use_regex_(use_regex) {}
  explicit PreTokenizer(MetaspaceOptions metaspace) : kind_(Kind::metaspace), metaspace_(metaspace) {}

  /// The words of one normalised piece of text (never an empty word). For ByteLevel, each word is
  /// already in the byte-to-character alphabet the vocabulary is written in. `at_text_start`: the
  /// piece begins the text (no added token before it), which Metaspace's "first" scheme asks.
  [[nodiscard]] std::vector<std::u32string> split(const std::u32string& text, bool at_text_start = true) const;
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  Kind kind_ = Kind::none;
  bool add_prefix_space_ = false;
  bool use_regex_ = true;
  MetaspaceOptions metaspace_;
};

/// Metaspace's words of `text`.
std::vector<std::u32string> metaspace_split(const std::u32string& text, const MetaspaceOptions& options,
                                            bool at_text_start);

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
