#include "sentencepiece_json.hpp"

#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/sentencepiece_normalizers.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "claimrag/tokenizer/unigram.hpp"
#include "json_fields.hpp"

namespace claimrag::tokenizer {

std::unique_ptr<SubwordModel> read_unigram_model(const nlohmann::json& model, const std::string& source) {
  const nlohmann::json& vocab = required(model, "vocab", source);
  if (!vocab.is_array()) throw DataError(source, "\"model.vocab\" of a Unigram model should be a list of [piece, score]");
  std::vector<std::pair<std::string, double>> pieces;
  pieces.reserve(vocab.size());
  for (std::size_t i = 0; i < vocab.size(); ++i) {
    const nlohmann::json& entry = vocab[i];
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_number())
      throw DataError(source, "\"model.vocab\"[" + std::to_string(i) + "] should be [piece, score]");
    pieces.emplace_back(entry[0].get<std::string>(), entry[1].get<double>());
  }
  std::optional<std::int32_t> unk_id;
  if (const auto id = optional_integer(model, "unk_id", source)) {
    if (*id < 0 || *id > std::numeric_limits<std::int32_t>::max())
      throw DataError(source, "\"model.unk_id\" should be a non-negative id");
    unk_id = static_cast<std::int32_t>(*id);
  }
  const bool byte_fallback = optional_bool(model, "byte_fallback", source).value_or(false);
  return std::make_unique<Unigram>(std::move(pieces), unk_id, byte_fallback, source);
}

bool add_sentencepiece_normalizer(const nlohmann::json& spec, const std::string& type, const std::string& source,
                                  std::vector<NormalizerStep>& steps) {
  NormalizerStep step;
  step.kind = NormalizerStep::Kind::rule;
  if (type == "Precompiled") {
    const std::string encoded = optional_string(spec, "precompiled_charsmap", source).value_or("");
    if (encoded.empty()) return true;
    auto charsmap = std::make_shared<const PrecompiledCharsmap>(decode_base64(encoded, source), source);
    step.rule = std::make_shared<const PrecompiledNormalizer>(std::move(charsmap));
    steps.push_back(step);
    return true;
  }
  if (type == "Replace") {
    const nlohmann::json& pattern = required(spec, "pattern", source);
    const std::string content = required_string(spec, "content", source);
    if (pattern.is_object() && pattern.size() == 1 && pattern.begin().value().is_string() &&
        (pattern.contains("String") || pattern.contains("Regex"))) {
      const bool is_regex = pattern.contains("Regex");
      step.rule = std::make_shared<const ReplaceNormalizer>(pattern.begin().value().get<std::string>(), is_regex, content, source);
      steps.push_back(step);
      return true;
    }
    throw DataError(source, "a Replace normalizer's \"pattern\" should be {\"String\": ...} or {\"Regex\": ...}");
  }
  if (type == "Strip") {
    step.rule = std::make_shared<const StripNormalizer>(optional_bool(spec, "strip_left", source).value_or(true),
                                                        optional_bool(spec, "strip_right", source).value_or(true));
    steps.push_back(step);
    return true;
  }
  return false;
}

PreTokenizer read_metaspace(const nlohmann::json& spec, const std::string& source, bool after_whitespace_split) {
  MetaspaceOptions options;
  options.after_whitespace_split = after_whitespace_split;
  const std::u32string replacement = unicode::decode_utf8(required_string(spec, "replacement", source), source);
  if (replacement.size() != 1) throw DataError(source, "Metaspace's \"replacement\" should be one character");
  options.replacement = replacement.front();
  const std::string scheme = optional_string(spec, "prepend_scheme", source).value_or("always");
  if (scheme == "always") {
    options.prepend = MetaspaceOptions::Prepend::always;
  } else if (scheme == "first") {
    options.prepend = MetaspaceOptions::Prepend::first;
  } else if (scheme == "never") {
    options.prepend = MetaspaceOptions::Prepend::never;
  } else {
    throw DataError(source, "Metaspace's \"prepend_scheme\" should be always, first or never, not \"" + scheme + "\"");
  }
  // The older add_prefix_space: false means never, and the reference refuses it beside another scheme.
  if (optional_bool(spec, "add_prefix_space", source) == false) {
    if (options.prepend != MetaspaceOptions::Prepend::never)
      throw DataError(source, "Metaspace's add_prefix_space false does not match its prepend_scheme \"" + scheme + "\"");
    options.prepend = MetaspaceOptions::Prepend::never;
  }
  options.split = optional_bool(spec, "split", source).value_or(true);
  return PreTokenizer(options);
}

}  // namespace claimrag::tokenizer
