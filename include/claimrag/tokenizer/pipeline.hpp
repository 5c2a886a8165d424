#pragma once
// The tokenizers library's pipeline, whatever file it was read from: added tokens found in the
// raw text, normalisation, pre-tokenisation, the subword model, truncation, the pair template.

#include <memory>
#include <string>
#include <vector>

#include "claimrag/tokenizer/added_tokens.hpp"
#include "claimrag/tokenizer/model.hpp"
#include "claimrag/tokenizer/normalizer.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"
#include "claimrag/tokenizer/template.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::tokenizer {

/// Everything a pipeline is made of, as a reader fills it in.
struct PipelineParts {
  Normalizer normalizer;
  PreTokenizer pre_tokenizer;
  std::unique_ptr<SubwordModel> model;
  std::vector<AddedToken> added_tokens;
  PairTemplate pair_template;
  TruncationSide truncation_side = TruncationSide::right;
  /// The fast tokenizers' arithmetic, or the slow classes' one token at a time.
  PairTruncation pair_truncation = PairTruncation::fast;
  std::optional<std::size_t> model_max_length;
  /// The slow RobertaTokenizer's add_prefix_space: one space before the whole text (unless it
  /// starts with whitespace), where the fast ByteLevel pre-tokeniser adds one to each piece
  /// between added tokens.
  bool prefix_space_once = false;
  std::int32_t pad_id = 0;
  std::string source;  ///< the file(s) read, for description()
};

class PipelineTokenizer final : public Tokenizer {
 public:
  explicit PipelineTokenizer(PipelineParts parts);
  [[nodiscard]] Encoding encode(std::string_view text, std::optional<std::string_view> text_pair,
                                std::size_t max_length) const override;
  [[nodiscard]] std::optional<std::size_t> model_max_length() const override { return parts_.model_max_length; }
  [[nodiscard]] std::int32_t pad_id() const override { return parts_.pad_id; }
  [[nodiscard]] std::size_t vocabulary_size() const override;
  [[nodiscard]] std::string description() const override;

 private:
  [[nodiscard]] std::vector<std::int32_t> encode_text(std::string_view text, std::string_view what) const;

  PipelineParts parts_;
  AddedTokenMatcher raw_matcher_;         // tokens matched in the raw text
  AddedTokenMatcher normalized_matcher_;  // tokens matched in the normalised text
};

}  // namespace claimrag::tokenizer
