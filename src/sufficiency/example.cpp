#include "claimrag/sufficiency/example.hpp"

#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::sufficiency {

std::string_view label_name(SufficiencyLabel label) {
  switch (label) {
    case SufficiencyLabel::supported: return "Supported";
    case SufficiencyLabel::refuted: return "Refuted";
    case SufficiencyLabel::insufficient: return "Insufficient";
  }
  throw InternalError("unknown sufficiency label");
}

SufficiencyLabel parse_sufficiency_label(std::string_view name) {
  for (const auto label : {SufficiencyLabel::supported, SufficiencyLabel::refuted, SufficiencyLabel::insufficient}) {
    if (label_name(label) == name) return label;
  }
  throw UsageError("unknown sufficiency label \"" + std::string(name) + "\" (Supported, Refuted, Insufficient)");
}

std::string_view variant_name(Variant variant) {
  switch (variant) {
    case Variant::full: return "full";
    case Variant::partial: return "partial";
    case Variant::hard_insufficient: return "hard_insufficient";
    case Variant::irrelevant: return "irrelevant";
    case Variant::given: return "given";
  }
  throw InternalError("unknown variant");
}

Variant parse_variant(std::string_view name) {
  for (const auto variant : {Variant::full, Variant::partial, Variant::hard_insufficient, Variant::irrelevant, Variant::given}) {
    if (variant_name(variant) == name) return variant;
  }
  throw UsageError("unknown variant \"" + std::string(name) + "\"");
}

std::vector<Example> read_examples(const std::filesystem::path& path) {
  std::vector<Example> examples;
  std::unordered_map<std::string, std::size_t> first_line;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    fields.refuse_unknown({"id", "claim", "evidence", "group", "split", "variant", "label", "claim_id", "sources"});
    Example example;
    example.id = fields.identifier("id");
    const auto [seen, fresh] = first_line.emplace(example.id, line);
    if (!fresh) fields.fail("duplicate id \"" + example.id + "\" (first on line " + std::to_string(seen->second) + ")");
    example.claim = fields.string("claim");
    const simdjson::dom::element evidence = fields.element("evidence");
    simdjson::dom::array passages;
    if (evidence.get_array().get(passages)) fields.fail("\"evidence\" must be an array of strings");
    for (const simdjson::dom::element passage : passages) {
      std::string_view text;
      if (passage.get_string().get(text)) fields.fail("\"evidence\" must be an array of strings");
      example.evidence.emplace_back(text);
    }
    example.group = fields.optional_string("group", example.id);
    example.split = fields.optional_string("split", "");
    example.claim_id = fields.optional_string("claim_id", example.id);
    if (fields.has("variant")) {
      try {
        example.variant = parse_variant(fields.string("variant"));
      } catch (const UsageError& error) {
        fields.fail(error.what());
      }
    }
    if (fields.has("label")) {
      try {
        example.label = parse_sufficiency_label(fields.string("label"));
      } catch (const UsageError& error) {
        fields.fail(error.what());
      }
      example.labelled = true;
    }
    examples.push_back(std::move(example));
  });
  return examples;
}

void write_examples(const std::filesystem::path& path, const std::vector<Example>& examples) {
  std::ostringstream out;
  for (const auto& example : examples) {
    nlohmann::ordered_json line{{"id", example.id}, {"claim", example.claim}, {"evidence", example.evidence},
                                {"group", example.group}, {"split", example.split},
                                {"variant", variant_name(example.variant)}};
    if (example.labelled) line["label"] = label_name(example.label);
    line["claim_id"] = example.claim_id;
    nlohmann::ordered_json sources = nlohmann::ordered_json::array();
    for (const auto& source : example.sources) sources.push_back({{"doc_id", source.doc_id}, {"sentence", source.sentence}});
    line["sources"] = sources;
    out << io::json_text(line, path.string()) << '\n';
  }
  io::write_file_atomically(path, out.str());
}

}  // namespace claimrag::sufficiency
