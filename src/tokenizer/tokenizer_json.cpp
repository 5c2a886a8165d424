// tokenizer.json: the tokenizers library's serialised pipeline.
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/bpe.hpp"
#include "claimrag/tokenizer/pipeline.hpp"
#include "claimrag/tokenizer/wordpiece.hpp"
#include "fast_class_settings.hpp"
#include "json_fields.hpp"
#include "readers.hpp"
#include "sentencepiece_json.hpp"

namespace claimrag::tokenizer {
namespace {

std::string type_of(const nlohmann::json& object, const std::string& what, const std::string& source) {
  if (!object.is_object()) throw DataError(source, "\"" + what + "\" should be an object");
  return required_string(object, "type", source);
}

[[noreturn]] void unsupported(const std::string& source, const std::string& what, const std::string& type,
                              const std::string& supported) {
  throw DataError(source, "unsupported " + what + " \"" + type + "\" (supported: " + supported + ")");
}

void add_normalizer_steps(const nlohmann::json& spec, const std::string& source, std::vector<NormalizerStep>& steps) {
  const std::string type = type_of(spec, "normalizer", source);
  NormalizerStep step;
  if (type == "BertNormalizer") {
    step.kind = NormalizerStep::Kind::bert;
    step.bert.clean_text = optional_bool(spec, "clean_text", source).value_or(true);
    step.bert.handle_chinese_chars = optional_bool(spec, "handle_chinese_chars", source).value_or(true);
    step.bert.lowercase = optional_bool(spec, "lowercase", source).value_or(true);
    // strip_accents null follows lowercase.
    step.bert.strip_accents = optional_bool(spec, "strip_accents", source).value_or(step.bert.lowercase);
  } else if (type == "Sequence") {
    const nlohmann::json& list = required(spec, "normalizers", source);
    if (!list.is_array()) throw DataError(source, "\"normalizers\" should be a list");
    for (const nlohmann::json& item : list) add_normalizer_steps(item, source, steps);
    return;
  } else if (type == "Lowercase") {
    step.kind = NormalizerStep::Kind::lowercase;
  } else if (type == "NFD") {
    step.kind = NormalizerStep::Kind::nfd;
  } else if (type == "NFC") {
    step.kind = NormalizerStep::Kind::nfc;
  } else if (type == "NFKD") {
    step.kind = NormalizerStep::Kind::nfkd;
  } else if (type == "NFKC") {
    step.kind = NormalizerStep::Kind::nfkc;
  } else if (type == "StripAccents") {
    step.kind = NormalizerStep::Kind::strip_accents;
  } else if (add_sentencepiece_normalizer(spec, type, source, steps)) {
    return;
  } else {
    unsupported(source, "normalizer", type,
                "BertNormalizer, Lowercase, NFD, NFC, NFKD, NFKC, StripAccents, Precompiled, Replace, Strip, Sequence");
  }
  steps.push_back(step);
}

PreTokenizer read_pre_tokenizer(const nlohmann::json& spec, const std::string& source) {
  if (spec.is_null()) return PreTokenizer();
  const std::string type = type_of(spec, "pre_tokenizer", source);
  if (type == "BertPreTokenizer") return PreTokenizer(PreTokenizer::Kind::bert);
  if (type == "Whitespace") return PreTokenizer(PreTokenizer::Kind::whitespace);
  if (type == "WhitespaceSplit") return PreTokenizer(PreTokenizer::Kind::whitespace_split);
  if (type == "ByteLevel")
    return PreTokenizer(PreTokenizer::Kind::byte_level, optional_bool(spec, "add_prefix_space", source).value_or(true),
                        optional_bool(spec, "use_regex", source).value_or(true));
  if (type == "Metaspace") return read_metaspace(spec, source);
  if (type == "Sequence") {
    const nlohmann::json& list = required(spec, "pretokenizers", source);
    if (list.is_array() && list.size() == 1) return read_pre_tokenizer(list[0], source);
    // T5's and ALBERT's: WhitespaceSplit, then Metaspace on each word.
    if (list.is_array() && list.size() == 2 && type_of(list[0], "pre_tokenizer", source) == "WhitespaceSplit" &&
        type_of(list[1], "pre_tokenizer", source) == "Metaspace") {
      return read_metaspace(list[1], source, true);
    }
    throw DataError(source, "a Sequence pre-tokenizer is read only when it holds one pre-tokenizer, or WhitespaceSplit then Metaspace");
  }
  unsupported(source, "pre_tokenizer", type, "BertPreTokenizer, ByteLevel, Metaspace, Whitespace, WhitespaceSplit");
}

Vocabulary read_vocabulary(const nlohmann::json& model, const std::string& source) {
  const nlohmann::json& vocab = required(model, "vocab", source);
  if (!vocab.is_object()) throw DataError(source, "\"model.vocab\" should be an object of token → id");
  Vocabulary vocabulary;
  for (const auto& [token, id] : vocab.items()) {
    if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())
      throw DataError(source, "\"model.vocab\": the id of \"" + abbreviated(token, 80) + "\" should be a non-negative integer");
    vocabulary[token] = static_cast<std::int32_t>(id.get<std::int64_t>());
  }
  return vocabulary;
}

std::vector<std::pair<std::string, std::string>> read_merges(const nlohmann::json& model, const std::string& source) {
  const nlohmann::json& list = required(model, "merges", source);
  if (!list.is_array()) throw DataError(source, "\"model.merges\" should be a list");
  std::vector<std::pair<std::string, std::string>> merges;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& merge = list[i];
    // Two forms: "a b" (split at the first space), or ["a", "b"].
    if (merge.is_string()) {
      const std::string text = merge.get<std::string>();
      const std::size_t space = text.find(' ');
      if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos)
        throw DataError(source, "\"model.merges\"[" + std::to_string(i) + "] should be two tokens separated by one space");
      merges.emplace_back(text.substr(0, space), text.substr(space + 1));
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
      merges.emplace_back(merge[0].get<std::string>(), merge[1].get<std::string>());
    } else {
      throw DataError(source, "\"model.merges\"[" + std::to_string(i) + "] should be \"a b\" or [\"a\", \"b\"]");
    }
  }
  return merges;
}

std::unique_ptr<SubwordModel> read_model(const nlohmann::json& model, const std::string& source) {
  if (!model.is_object()) throw DataError(source, "\"model\" should be an object");
  std::string type = optional_string(model, "type", source).value_or("");
  if (type.empty()) {  // files older than the tag
    const bool listed = model.contains("vocab") && model["vocab"].is_array();
    type = model.contains("merges") ? "BPE" : listed ? "Unigram" : "WordPiece";
  }
  if (type == "WordPiece") {
    WordPieceOptions options;
    options.unk_token = optional_string(model, "unk_token", source).value_or("[UNK]");
    options.continuing_subword_prefix = optional_string(model, "continuing_subword_prefix", source).value_or("##");
    const auto longest = optional_integer(model, "max_input_chars_per_word", source);
    if (longest && *longest < 0) throw DataError(source, "\"max_input_chars_per_word\" should not be negative");
    options.max_input_chars_per_word = static_cast<std::size_t>(longest.value_or(100));
    return std::make_unique<WordPiece>(read_vocabulary(model, source), options, source);
  }
  if (type == "BPE") {
    if (optional_bool(model, "byte_fallback", source).value_or(false))
      throw DataError(source, "BPE with byte_fallback is not supported (encoder checkpoints do not use it)");
    BpeOptions options;
    options.unk_token = optional_string(model, "unk_token", source);
    options.fuse_unk = optional_bool(model, "fuse_unk", source).value_or(false);
    options.continuing_subword_prefix = optional_string(model, "continuing_subword_prefix", source).value_or("");
    options.end_of_word_suffix = optional_string(model, "end_of_word_suffix", source).value_or("");
    options.ignore_merges = optional_bool(model, "ignore_merges", source).value_or(false);
    return std::make_unique<Bpe>(read_vocabulary(model, source), read_merges(model, source), options, source);
  }
  if (type == "Unigram") return read_unigram_model(model, source);
  unsupported(source, "model", type, "WordPiece, BPE, Unigram");
}

std::vector<AddedToken> read_added_tokens(const nlohmann::json& root, const std::string& source) {
  std::vector<AddedToken> tokens;
  const auto found = root.find("added_tokens");
  if (found == root.end() || found->is_null()) return tokens;
  if (!found->is_array()) throw DataError(source, "\"added_tokens\" should be a list");
  for (const nlohmann::json& item : *found) {
    if (!item.is_object()) throw DataError(source, "each of \"added_tokens\" should be an object");
    AddedToken token = read_added_token_flags(item, source);
    token.id = required_id(item, "id", source);
    if (!token.content.empty()) tokens.push_back(token);
  }
  return tokens;
}

std::vector<TemplatePart> read_template(const nlohmann::json& parts, const nlohmann::json& special_tokens,
                                        const std::string& key, const std::string& source) {
  if (!parts.is_array()) throw DataError(source, "\"post_processor." + key + "\" should be a list");
  std::vector<TemplatePart> result;
  for (const nlohmann::json& part : parts) {
    TemplatePart piece;
    if (part.contains("Sequence")) {
      const nlohmann::json& sequence = part["Sequence"];
      const std::string id = required_string(sequence, "id", source);
      if (id != "A" && id != "B") throw DataError(source, "\"post_processor." + key + "\": a sequence should be A or B, not " + id);
      piece.sequence = id == "A" ? 0 : 1;
      piece.type_id = required_id(sequence, "type_id", source);
    } else if (part.contains("SpecialToken")) {
      const nlohmann::json& special = part["SpecialToken"];
      const std::string id = required_string(special, "id", source);
      piece.type_id = required_id(special, "type_id", source);
      const auto found = special_tokens.find(id);
      if (found == special_tokens.end())
        throw DataError(source, "\"post_processor." + key + "\" uses special token \"" + id + "\", which \"special_tokens\" does not define");
      const nlohmann::json& ids = required(*found, "ids", source);
      if (!ids.is_array()) throw DataError(source, "\"post_processor.special_tokens." + id + ".ids\" should be a list");
      for (const nlohmann::json& value : ids) {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
          throw DataError(source, "\"post_processor.special_tokens." + id + ".ids\" should hold token ids");
        piece.ids.push_back(static_cast<std::int32_t>(value.get<std::int64_t>()));
      }
    } else {
      throw DataError(source, "\"post_processor." + key + "\": each part should be a Sequence or a SpecialToken");
    }
    result.push_back(piece);
  }
  return result;
}

std::int32_t pair_id(const nlohmann::json& spec, const std::string& key, const std::string& source) {
  const nlohmann::json& value = required(spec, key, source);
  if (!value.is_array() || value.size() != 2 || !value[1].is_number_integer() || value[1].get<std::int64_t>() < 0)
    throw DataError(source, "\"post_processor." + key + "\" should be [token, id]");
  return static_cast<std::int32_t>(value[1].get<std::int64_t>());
}

PairTemplate read_post_processor(const nlohmann::json& spec, const std::string& source) {
  if (spec.is_null()) return PairTemplate();
  const std::string type = type_of(spec, "post_processor", source);
  if (type == "TemplateProcessing") {
    PairTemplate result;
    const nlohmann::json& special_tokens = spec.contains("special_tokens") ? spec["special_tokens"] : nlohmann::json::object();
    result.single = read_template(required(spec, "single", source), special_tokens, "single", source);
    result.pair = read_template(required(spec, "pair", source), special_tokens, "pair", source);
    return result;
  }
  if (type == "BertProcessing") return PairTemplate::bert(pair_id(spec, "cls", source), pair_id(spec, "sep", source));
  if (type == "RobertaProcessing") return PairTemplate::roberta(pair_id(spec, "cls", source), pair_id(spec, "sep", source));
  if (type == "ByteLevel") return PairTemplate();  // offsets only
  if (type == "Sequence") {
    const nlohmann::json& list = required(spec, "processors", source);
    if (!list.is_array()) throw DataError(source, "\"post_processor.processors\" should be a list");
    PairTemplate result;
    for (const nlohmann::json& item : list) {
      PairTemplate one = read_post_processor(item, source);
      if (!one.single.empty() || !one.pair.empty()) result = std::move(one);
    }
    return result;
  }
  unsupported(source, "post_processor", type, "TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence");
}

std::optional<std::int32_t> id_of(const PipelineParts& parts, const std::string& token) {
  for (const AddedToken& added : parts.added_tokens)
    if (added.content == token) return added.id;
  return parts.model->token_to_id(token);
}

}  // namespace

std::unique_ptr<Tokenizer> read_tokenizer_json(const std::filesystem::path& file, const FolderSettings& settings,
                                               std::string_view model_type) {
  const std::string source = file.string();
  const nlohmann::json root = read_json_object(file);
  PipelineParts parts;
  parts.source = file.filename().string();
  parts.model = read_model(required(root, "model", source), source);
  std::vector<NormalizerStep> steps;
  if (root.contains("normalizer") && !root["normalizer"].is_null()) add_normalizer_steps(root["normalizer"], source, steps);
  parts.normalizer = Normalizer(std::move(steps));
  parts.pre_tokenizer = read_pre_tokenizer(root.value("pre_tokenizer", nlohmann::json()), source);
  parts.added_tokens = read_added_tokens(root, source);
  parts.pair_template = read_post_processor(root.value("post_processor", nlohmann::json()), source);

  // tokenizer.json's own "truncation" is not read: transformers replaces it on every call.
  apply_fast_class_settings(root, settings, model_type, parts, source);

  const nlohmann::json padding = root.value("padding", nlohmann::json());
  if (padding.is_object() && padding.contains("pad_id")) {
    parts.pad_id = required_id(padding, "pad_id", source);
  } else {
    std::optional<std::int32_t> pad;
    for (const std::string& name : {settings.token("pad_token", "[PAD]"), std::string("[PAD]"), std::string("<pad>")})
      if (!pad) pad = id_of(parts, name);
    parts.pad_id = pad.value_or(0);
  }
  return std::make_unique<PipelineTokenizer>(std::move(parts));
}

}  // namespace claimrag::tokenizer
