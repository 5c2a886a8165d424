#pragma once
// The parts of tokenizer.json that SentencePiece-based tokenizers use: the Unigram model, the
// Precompiled / Replace / Strip normalisers and the Metaspace pre-tokeniser.

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "claimrag/tokenizer/model.hpp"
#include "claimrag/tokenizer/normalizer.hpp"
#include "claimrag/tokenizer/pre_tokenizer.hpp"

namespace claimrag::tokenizer {

/// "model": {"type": "Unigram", "vocab": [[piece, score], ...], "unk_id", "byte_fallback"}.
std::unique_ptr<SubwordModel> read_unigram_model(const nlohmann::json& model, const std::string& source);

/// Appends the step of a normaliser of type `type` ("Precompiled", "Replace", "Strip") to `steps`
/// and returns true; false for another type. A Precompiled normaliser with no character map is
/// the identity (no step).
bool add_sentencepiece_normalizer(const nlohmann::json& spec, const std::string& type, const std::string& source,
                                  std::vector<NormalizerStep>& steps);

/// {"type": "Metaspace", "replacement", "prepend_scheme" / "add_prefix_space", "split"}; with
/// `after_whitespace_split`, as the second of a Sequence whose first is WhitespaceSplit.
PreTokenizer read_metaspace(const nlohmann::json& spec, const std::string& source, bool after_whitespace_split = false);

}  // namespace claimrag::tokenizer
