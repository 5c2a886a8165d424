#include "claimrag/verification/labelled_pairs.hpp"

#include <map>
#include <unordered_map>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::verification {
namespace {

bool blank(std::string_view text) { return text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos; }

// What a label says: supported, unsupported (two-way words) or a SciFact label.
struct ReadLabel {
  Label label = Label::not_enough_info;
  bool two_way_word = false;  ///< 1 / 0 / supported / unsupported
};

ReadLabel read_label(const dataset::FieldReader& fields) {
  const auto element = fields.element("label");
  std::int64_t number = 0;
  if (element.get_int64().get(number) == simdjson::SUCCESS) {
    if (number == 1) return {Label::support, true};
    if (number == 0) return {Label::not_enough_info, true};
    fields.fail("\"label\" " + std::to_string(number) + ": expected 1 (supported) or 0 (unsupported)");
  }
  std::string_view text;
  if (element.get_string().get(text) != simdjson::SUCCESS) fields.fail("\"label\" must be 1, 0 or a label name");
  if (text == "supported") return {Label::support, true};
  if (text == "unsupported") return {Label::not_enough_info, true};
  if (text == "SUPPORT" || text == "CONTRADICT" || text == "NOT_ENOUGH_INFO") return {parse_label(text), false};
  fields.fail("\"label\" \"" + std::string(text) +
              "\": expected 1, 0, supported, unsupported, SUPPORT, CONTRADICT or NOT_ENOUGH_INFO");
}

}  // namespace

LabelledPairs read_labelled_pairs(const std::filesystem::path& path) {
  LabelledPairs pairs;
  std::unordered_map<std::string, std::size_t> first_line;
  std::map<std::string, std::size_t> group_numbers;
  std::size_t first_two_way_line = 0;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    std::string id = fields.has("id") ? fields.identifier("id") : "line " + std::to_string(line);
    if (blank(id)) fields.fail("\"id\" is empty");
    const auto [seen, fresh] = first_line.emplace(id, line);
    if (!fresh) fields.fail("duplicate id \"" + id + "\" (first on line " + std::to_string(seen->second) + ")");
    std::string claim = fields.text("claim");
    if (fields.has("evidence") == fields.has("doc")) fields.fail("give the evidence as \"evidence\" or as \"doc\", once");
    const std::string key = fields.has("evidence") ? "evidence" : "doc";
    std::string evidence = fields.text(key);
    const ReadLabel label = read_label(fields);
    if (label.two_way_word && first_two_way_line == 0) first_two_way_line = line;
    if (!label.two_way_word && label.label != Label::support) pairs.two_way = false;
    const std::string group_key = fields.has("claim_id") ? "id:" + fields.identifier("claim_id") : "text:" + claim;
    const auto group = group_numbers.emplace(group_key, group_numbers.size()).first->second;
    EvidenceDocument document;
    document.doc_id = id;
    document.sentences = evidence_sentences(evidence);
    document.text = std::move(evidence);
    pairs.inputs.push_back({std::move(id), std::move(claim), {std::move(document)}});
    pairs.gold.push_back(label.label);
    pairs.datasets.push_back(fields.optional_string("dataset", ""));
    pairs.group_of.push_back(group);
  });
  if (pairs.inputs.empty()) throw DataError(path.string(), "holds no labelled pair");
  if (!pairs.two_way && first_two_way_line != 0) {
    throw DataError(path.string() + ":" + std::to_string(first_two_way_line),
                    "a two-way label (1, 0, supported, unsupported) in a file with CONTRADICT or NOT_ENOUGH_INFO labels: "
                    "use SUPPORT / CONTRADICT / NOT_ENOUGH_INFO throughout for three-way labels");
  }
  // A file of SUPPORT labels alone, or SUPPORT with 1 / 0, is two-way: SUPPORT is "supported".
  return pairs;
}

}  // namespace claimrag::verification
