#include "claimrag/dataset/scifact.hpp"

#include <unordered_map>

#include "claimrag/dataset/jsonl.hpp"

namespace claimrag::dataset {
namespace {

std::vector<std::string> string_array(const FieldReader& fields, std::string_view key) {
  simdjson::dom::array array;
  if (fields.element(key).get_array().get(array)) fields.fail(std::string(key) + " is not an array");
  std::vector<std::string> values;
  for (simdjson::dom::element item : array) {
    std::string_view text;
    if (item.get_string().get(text)) fields.fail(std::string(key) + " holds a non-string");
    values.emplace_back(text);
  }
  return values;
}

std::vector<std::string> identifier_array(const FieldReader& fields, std::string_view key) {
  simdjson::dom::array array;
  if (fields.element(key).get_array().get(array)) fields.fail(std::string(key) + " is not an array");
  std::vector<std::string> values;
  for (simdjson::dom::element item : array) {
    std::int64_t number;
    std::string_view text;
    if (item.get_int64().get(number) == simdjson::SUCCESS) {
      values.push_back(std::to_string(number));
    } else if (item.get_string().get(text) == simdjson::SUCCESS) {
      values.emplace_back(text);
    } else {
      fields.fail(std::string(key) + " holds something other than an id");
    }
  }
  return values;
}

EvidenceSet read_evidence_set(const FieldReader& claim_fields, simdjson::dom::element element) {
  simdjson::dom::object object;
  if (element.get_object().get(object)) claim_fields.fail("an evidence entry is not an object");
  EvidenceSet set;
  simdjson::dom::array sentences;
  if (object["sentences"].get_array().get(sentences)) claim_fields.fail("evidence without a sentences array");
  for (simdjson::dom::element index : sentences) {
    std::int64_t value;
    if (index.get_int64().get(value) || value < 0) claim_fields.fail("a sentence index is not a non-negative integer");
    set.sentences.push_back(static_cast<int>(value));
  }
  std::string_view label;
  if (object["label"].get_string().get(label)) claim_fields.fail("evidence without a label");
  if (label != "SUPPORT" && label != "CONTRADICT") {
    claim_fields.fail("evidence label \"" + std::string(label) + "\" is neither SUPPORT nor CONTRADICT");
  }
  set.label = std::string(label);
  return set;
}

}  // namespace

std::vector<Abstract> load_abstracts(const std::filesystem::path& corpus_jsonl) {
  std::vector<Abstract> abstracts;
  for_each_json_object(corpus_jsonl, [&](simdjson::dom::object object, std::size_t line) {
    const FieldReader fields(object, corpus_jsonl, line);
    Abstract abstract{fields.identifier("doc_id"), fields.optional_string("title", ""),
                      string_array(fields, "abstract"), false};
    if (fields.has("structured")) {
      if (fields.element("structured").get_bool().get(abstract.structured)) {
        fields.fail("\"structured\" is not a boolean");
      }
    }
    abstracts.push_back(std::move(abstract));
  });
  return abstracts;
}

std::vector<Claim> load_claims(const std::filesystem::path& claims_jsonl,
                               const std::vector<Abstract>* abstracts) {
  std::unordered_map<std::string, std::size_t> sentence_count;
  if (abstracts != nullptr) {
    for (const auto& abstract : *abstracts) sentence_count[abstract.doc_id] = abstract.sentences.size();
  }
  std::vector<Claim> claims;
  std::unordered_map<std::string, std::size_t> line_of_id;  // a claim on two lines would be judged twice
  for_each_json_object(claims_jsonl, [&](simdjson::dom::object object, std::size_t line) {
    const FieldReader fields(object, claims_jsonl, line);
    Claim claim{fields.identifier("id"), fields.string("claim"), {}, {}};
    if (const auto [earlier, inserted] = line_of_id.emplace(claim.id, line); !inserted) {
      fields.fail("claim id " + claim.id + " is already on line " + std::to_string(earlier->second));
    }
    if (fields.has("cited_doc_ids")) claim.cited_doc_ids = identifier_array(fields, "cited_doc_ids");
    if (fields.has("evidence")) {
      simdjson::dom::object evidence;
      if (fields.element("evidence").get_object().get(evidence)) fields.fail("\"evidence\" is not an object");
      for (auto [doc_id, sets] : evidence) {
        simdjson::dom::array array;
        if (sets.get_array().get(array)) fields.fail("evidence of a document is not an array");
        auto& target = claim.evidence[std::string(doc_id)];
        for (simdjson::dom::element set : array) target.push_back(read_evidence_set(fields, set));
        // SciFact gives one verdict per (claim, abstract); its official scorer reads the first
        // set's label as the document's, so sets that disagree would be scored arbitrarily.
        for (const auto& rationale : target) {
          if (rationale.label != target.front().label) {
            fields.fail("the rationale sets of document " + std::string(doc_id) + " disagree on the label (" +
                        target.front().label + " and " + rationale.label + ")");
          }
        }
        if (abstracts == nullptr) continue;
        const auto known = sentence_count.find(std::string(doc_id));
        if (known == sentence_count.end()) {
          fields.fail("evidence names document " + std::string(doc_id) + ", absent from the corpus");
        }
        for (const auto& rationale : target) {
          for (const int index : rationale.sentences) {
            if (static_cast<std::size_t>(index) >= known->second) {
              fields.fail("sentence " + std::to_string(index) + " of document " + std::string(doc_id) +
                          " is past its last sentence");
            }
          }
        }
      }
    }
    claims.push_back(std::move(claim));
  });
  return claims;
}

}  // namespace claimrag::dataset
