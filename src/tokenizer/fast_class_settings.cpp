// tokenizer_config.json's settings over tokenizer.json, as transformers' fast tokenizer classes
// apply them when they load: the BERT family rebuilds its BertNormalizer when do_lower_case,
// strip_accents or tokenize_chinese_chars (each with the class's default when the configuration
// omits it) disagree with the file; the byte-level family (RoBERTa, BART, GPT-2, Longformer)
// rebuilds its ByteLevel pre-tokeniser when add_prefix_space disagrees. The truncation side and
// model_max_length are tokenizer_config.json's whatever tokenizer.json says: transformers sets
// the backend's truncation on every call.
#include <algorithm>
#include <array>
#include <string>

#include "claimrag/tokenizer/pipeline.hpp"
#include "fast_class_settings.hpp"
#include "json_fields.hpp"

namespace claimrag::tokenizer {
namespace {

// The fast classes whose __init__ rebuilds a disagreeing BertNormalizer, and the model types
// AutoTokenizer maps to them.
constexpr std::array kBertFamilyClasses = {"Bert",      "DistilBert", "Electra",     "MPNet",   "MobileBert",
                                          "SqueezeBert", "ConvBert",  "Funnel",      "LayoutLM", "Lxmert",
                                          "RetriBert",  "DPRContextEncoder", "DPRQuestionEncoder", "DPRReader"};
constexpr std::array kBertFamilyModelTypes = {"bert",        "distilbert", "electra", "mpnet",  "mobilebert",
                                             "squeezebert", "convbert",   "funnel",  "layoutlm", "lxmert"};
// The fast classes whose __init__ rebuilds a disagreeing ByteLevel pre-tokeniser.
constexpr std::array kByteLevelFamilyClasses = {"Roberta", "Bart", "GPT2", "Longformer"};
constexpr std::array kByteLevelFamilyModelTypes = {"roberta", "bart", "gpt2", "longformer"};

template <std::size_t N>
bool contains(const std::array<const char*, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

enum class ClassFamily { bert, byte_level, other };

// tokenizer_config.json's tokenizer_class ("BertTokenizer" or "BertTokenizerFast"), else the class
// AutoTokenizer takes for config.json's model_type.
ClassFamily class_family(const FolderSettings& settings, std::string_view model_type) {
  if (settings.tokenizer_class) {
    std::string name = *settings.tokenizer_class;
    for (const std::string suffix : {"Fast", "Tokenizer"}) {
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        name.resize(name.size() - suffix.size());
    }
    if (contains(kBertFamilyClasses, name)) return ClassFamily::bert;
    if (contains(kByteLevelFamilyClasses, name)) return ClassFamily::byte_level;
    return ClassFamily::other;
  }
  if (contains(kBertFamilyModelTypes, model_type)) return ClassFamily::bert;
  if (contains(kByteLevelFamilyModelTypes, model_type)) return ClassFamily::byte_level;
  return ClassFamily::other;
}

// A JSON value as Python compares it after json.loads: absent keys take `fallback`.
nlohmann::json value_or(const nlohmann::json& object, const char* key, const nlohmann::json& fallback) {
  const auto found = object.find(key);
  return found == object.end() ? fallback : *found;
}

nlohmann::json as_json(const std::optional<bool>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

void apply_bert_family(const nlohmann::json& normalizer, const FolderSettings& settings, PipelineParts& parts,
                       const std::string& source) {
  // The class's defaults: do_lower_case True, strip_accents None, tokenize_chinese_chars True.
  const nlohmann::json lowercase = settings.do_lower_case.value_or(true);
  const nlohmann::json strip_accents = as_json(settings.strip_accents);
  const nlohmann::json chinese = settings.tokenize_chinese_chars.value_or(true);
  if (!normalizer.is_object()) return;  // the class itself cannot load a tokenizer.json without one
  if (value_or(normalizer, "lowercase", lowercase) == lowercase &&
      value_or(normalizer, "strip_accents", strip_accents) == strip_accents &&
      value_or(normalizer, "handle_chinese_chars", chinese) == chinese)
    return;
  // Only a BertNormalizer has these keys, so only a BertNormalizer is rebuilt; clean_text is kept.
  NormalizerStep step;
  step.bert.clean_text = optional_bool(normalizer, "clean_text", source).value_or(true);
  step.bert.lowercase = lowercase.get<bool>();
  step.bert.strip_accents = settings.strip_accents.value_or(step.bert.lowercase);
  step.bert.handle_chinese_chars = chinese.get<bool>();
  parts.normalizer = Normalizer({step});
}

void apply_byte_level_family(const nlohmann::json& pre_tokenizer, const FolderSettings& settings, PipelineParts& parts,
                             const std::string& source) {
  if (!pre_tokenizer.is_object() || pre_tokenizer.value("type", nlohmann::json()) != "ByteLevel") return;
  const bool wanted = settings.add_prefix_space.value_or(false);  // the classes' default
  if (optional_bool(pre_tokenizer, "add_prefix_space", source).value_or(true) == wanted) return;
  parts.pre_tokenizer = PreTokenizer(PreTokenizer::Kind::byte_level, wanted,
                                     optional_bool(pre_tokenizer, "use_regex", source).value_or(true));
}

}  // namespace

void apply_fast_class_settings(const nlohmann::json& root, const FolderSettings& settings, std::string_view model_type,
                               PipelineParts& parts, const std::string& source) {
  switch (class_family(settings, model_type)) {
    case ClassFamily::bert: apply_bert_family(root.value("normalizer", nlohmann::json()), settings, parts, source); break;
    case ClassFamily::byte_level:
      apply_byte_level_family(root.value("pre_tokenizer", nlohmann::json()), settings, parts, source);
      break;
    case ClassFamily::other: break;
  }
  parts.truncation_side = settings.truncation_side == "left" ? TruncationSide::left : TruncationSide::right;
  parts.model_max_length = settings.model_max_length;
}

}  // namespace claimrag::tokenizer
