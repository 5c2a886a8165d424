#include "claimrag/verification/prediction.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::verification {
namespace {

// ---- reading ----

/// "document <doc_id>: <what>", for messages.
std::string of_document(std::string_view what, std::string_view doc_id) {
  std::string message("document ");
  message.append(doc_id).append(": ").append(what);
  return message;
}

std::size_t sentence_index(const dataset::FieldReader& fields, simdjson::dom::element element, std::string_view doc_id) {
  std::int64_t value = 0;
  if (element.get_int64().get(value) || value < 0) {
    fields.fail(of_document("a sentence index is not a non-negative integer", doc_id));
  }
  return static_cast<std::size_t>(value);
}

std::size_t count_field(const dataset::FieldReader& fields, simdjson::dom::element element, std::string_view key,
                        std::string_view doc_id) {
  std::int64_t value = 0;
  if (element.get_int64().get(value) || value < 0) {
    fields.fail(of_document(std::string("\"") + std::string(key) + "\" is not a non-negative integer", doc_id));
  }
  return static_cast<std::size_t>(value);
}

double number(const dataset::FieldReader& fields, simdjson::dom::element element, std::string_view what,
              std::string_view doc_id) {
  double value = 0.0;
  if (element.get_double().get(value)) fields.fail(of_document(std::string(what) + " is not a number", doc_id));
  return value;
}

Label label_of(const dataset::FieldReader& fields, simdjson::dom::element element, std::string_view doc_id) {
  std::string_view name;
  if (element.get_string().get(name)) fields.fail(of_document("\"label\" is not a string", doc_id));
  for (const Label label : {Label::support, Label::contradict, Label::not_enough_info}) {
    if (name == label_name(label)) return label;
  }
  fields.fail(of_document("unknown label \"" + std::string(name) +
                              "\" (expected SUPPORT, CONTRADICT or NOT_ENOUGH_INFO)",
                          doc_id));
}

std::vector<std::size_t> read_sentences(const dataset::FieldReader& fields, simdjson::dom::element element,
                                        std::string_view doc_id) {
  simdjson::dom::array array;
  if (element.get_array().get(array)) fields.fail(of_document("\"sentences\" is not an array", doc_id));
  std::vector<std::size_t> sentences;
  std::set<std::size_t> seen;
  for (simdjson::dom::element item : array) {
    const std::size_t index = sentence_index(fields, item, doc_id);
    if (!seen.insert(index).second) {
      fields.fail(of_document("sentence " + std::to_string(index) + " is listed twice", doc_id));
    }
    sentences.push_back(index);
  }
  return sentences;
}

std::array<double, label_count> read_probabilities(const dataset::FieldReader& fields, simdjson::dom::element element,
                                                   std::string_view doc_id) {
  simdjson::dom::object object;
  if (element.get_object().get(object)) fields.fail(of_document("\"probabilities\" is not an object", doc_id));
  std::array<double, label_count> probabilities{};
  std::array<bool, label_count> present{};
  for (auto [key, value] : object) {
    std::size_t slot = label_count;
    for (const Label label : {Label::support, Label::contradict, Label::not_enough_info}) {
      if (key == label_name(label)) slot = static_cast<std::size_t>(label);
    }
    if (slot == label_count) fields.fail(of_document("\"probabilities\" names unknown label \"" + std::string(key) + "\"", doc_id));
    if (present[slot]) fields.fail(of_document("\"probabilities\" names " + std::string(key) + " twice", doc_id));
    present[slot] = true;
    probabilities[slot] = number(fields, value, "a probability", doc_id);
  }
  for (std::size_t slot = 0; slot < label_count; ++slot) {
    if (!present[slot]) {
      fields.fail(of_document("\"probabilities\" lacks " + std::string(label_name(static_cast<Label>(slot))), doc_id));
    }
  }
  return probabilities;
}

std::vector<SentenceScore> read_sentence_scores(const dataset::FieldReader& fields, simdjson::dom::element element,
                                                std::string_view doc_id) {
  simdjson::dom::array array;
  if (element.get_array().get(array)) fields.fail(of_document("\"sentence_scores\" is not an array", doc_id));
  std::vector<SentenceScore> scores;
  for (simdjson::dom::element item : array) {
    simdjson::dom::array pair;
    if (item.get_array().get(pair) || pair.size() != 2) {
      fields.fail(of_document("a \"sentence_scores\" entry is not an [index, score] pair", doc_id));
    }
    scores.push_back({sentence_index(fields, pair.at(0).value_unsafe(), doc_id),
                      number(fields, pair.at(1).value_unsafe(), "a sentence score", doc_id)});
  }
  return scores;
}

DocumentPrediction read_document(const dataset::FieldReader& claim_fields, std::string_view doc_id,
                                 simdjson::dom::element element) {
  simdjson::dom::object object;
  if (element.get_object().get(object)) claim_fields.fail(of_document("the prediction is not an object", doc_id));
  DocumentPrediction document;
  document.doc_id = std::string(doc_id);
  simdjson::dom::element value;
  if (object.at_key("label").get(value)) claim_fields.fail(of_document("\"label\" is missing", doc_id));
  document.label = label_of(claim_fields, value, doc_id);
  if (object.at_key("sentences").get(value)) claim_fields.fail(of_document("\"sentences\" is missing", doc_id));
  document.sentences = read_sentences(claim_fields, value, doc_id);
  if (object.at_key("probabilities").get(value) == simdjson::SUCCESS) {
    document.probabilities = read_probabilities(claim_fields, value, doc_id);
  }
  if (object.at_key("sentence_scores").get(value) == simdjson::SUCCESS) {
    document.sentence_scores = read_sentence_scores(claim_fields, value, doc_id);
  }
  if (object.at_key("retrieval_rank").get(value) == simdjson::SUCCESS) {
    document.retrieval_rank = count_field(claim_fields, value, "retrieval_rank", doc_id);
  }
  if (object.at_key("truncated_sentences").get(value) == simdjson::SUCCESS) {
    document.truncated_sentences = count_field(claim_fields, value, "truncated_sentences", doc_id);
  }
  if (object.at_key("failed").get(value) == simdjson::SUCCESS) {
    std::string_view reason;
    if (value.get_string().get(reason)) claim_fields.fail(of_document("\"failed\" is not a string", doc_id));
    document.failure = std::string(reason);
  }
  return document;
}

ClaimPrediction read_claim(simdjson::dom::object object, const std::filesystem::path& file, std::size_t line) {
  const dataset::FieldReader fields(object, file, line);
  ClaimPrediction prediction;
  prediction.claim_id = fields.identifier("id");
  prediction.line = line;
  simdjson::dom::object evidence;
  if (fields.element("evidence").get_object().get(evidence)) fields.fail("\"evidence\" is not an object");
  std::unordered_set<std::string> doc_ids;
  for (auto [doc_id, document] : evidence) {
    if (doc_id.empty()) fields.fail("\"evidence\" has an empty document id");
    if (!doc_ids.emplace(doc_id).second) fields.fail("document " + std::string(doc_id) + " is predicted twice");
    prediction.documents.push_back(read_document(fields, doc_id, document));
  }
  if (fields.has("reason")) prediction.reason = fields.string("reason");
  return prediction;
}

// ---- writing ----

std::string json_string(const std::string& text) { return nlohmann::json(text).dump(); }

/// Shortest decimal text that reads back to the same double, always with a fraction or an
/// exponent so that a reader sees a floating-point number (and -0.0 stays negative).
std::string exact_number(double value, std::string_view what) {
  if (!std::isfinite(value)) throw InternalError("prediction: " + std::string(what) + " is not finite");
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, written.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

/// True for the decimal form std::to_string gives an int64: what a JSON integer id reads back as.
bool is_canonical_integer(const std::string& id) {
  std::int64_t value = 0;
  const auto parsed = std::from_chars(id.data(), id.data() + id.size(), value);
  return parsed.ec == std::errc() && parsed.ptr == id.data() + id.size() && std::to_string(value) == id;
}

void write_document(const std::string& claim_id, const DocumentPrediction& document, std::string& out) {
  if (std::set<std::size_t>(document.sentences.begin(), document.sentences.end()).size() != document.sentences.size()) {
    throw InternalError("prediction of claim " + claim_id + ": document " + document.doc_id + " lists a sentence twice");
  }
  out += json_string(document.doc_id);
  out += ":{\"label\":";
  out += json_string(std::string(label_name(document.label)));
  out += ",\"sentences\":[";
  for (std::size_t i = 0; i < document.sentences.size(); ++i) {
    out += (i > 0 ? "," : "") + std::to_string(document.sentences[i]);
  }
  out += "]";
  if (document.probabilities) {
    out += ",\"probabilities\":{";
    for (std::size_t slot = 0; slot < label_count; ++slot) {
      out += (slot > 0 ? ",\"" : "\"") + std::string(label_name(static_cast<Label>(slot))) + "\":" +
             exact_number((*document.probabilities)[slot], "a probability");
    }
    out += "}";
  }
  if (document.sentence_scores) {
    out += ",\"sentence_scores\":[";
    for (std::size_t i = 0; i < document.sentence_scores->size(); ++i) {
      const auto& entry = (*document.sentence_scores)[i];
      out += (i > 0 ? ",[" : "[") + std::to_string(entry.index) + "," + exact_number(entry.score, "a sentence score") + "]";
    }
    out += "]";
  }
  if (document.retrieval_rank) out += ",\"retrieval_rank\":" + std::to_string(*document.retrieval_rank);
  if (document.truncated_sentences) out += ",\"truncated_sentences\":" + std::to_string(*document.truncated_sentences);
  if (document.failure) out += ",\"failed\":" + json_string(*document.failure);
  out += "}";
}

}  // namespace

std::vector<ClaimPrediction> read_predictions(const std::filesystem::path& file) {
  std::vector<ClaimPrediction> predictions;
  std::unordered_set<std::string> claim_ids;
  dataset::for_each_json_object(file, [&](simdjson::dom::object object, std::size_t line) {
    auto prediction = read_claim(object, file, line);
    if (!claim_ids.insert(prediction.claim_id).second) {
      throw DataError(file.string(), line, "claim " + prediction.claim_id + " is predicted on an earlier line too");
    }
    predictions.push_back(std::move(prediction));
  });
  return predictions;
}

bool DocumentPrediction::operator==(const DocumentPrediction& other) const {
  // SentenceScore belongs to the verifier interface, which defines no equality of its own.
  const auto same_scores = [](const std::vector<SentenceScore>& a, const std::vector<SentenceScore>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const SentenceScore& x, const SentenceScore& y) { return x.index == y.index && x.score == y.score; });
  };
  return doc_id == other.doc_id && label == other.label && sentences == other.sentences &&
         probabilities == other.probabilities && sentence_scores.has_value() == other.sentence_scores.has_value() &&
         (!sentence_scores || same_scores(*sentence_scores, *other.sentence_scores)) &&
         retrieval_rank == other.retrieval_rank && truncated_sentences == other.truncated_sentences &&
         failure == other.failure;
}

void check_against_abstracts(std::span<const ClaimPrediction> predictions, std::span<const dataset::Abstract> abstracts,
                             const std::filesystem::path& file) {
  std::unordered_map<std::string_view, std::size_t> sentence_count;
  for (const auto& abstract : abstracts) sentence_count.emplace(abstract.doc_id, abstract.sentences.size());
  for (const auto& prediction : predictions) {
    const auto fail = [&](const std::string& reason) {
      if (prediction.line == 0) throw DataError(file.string(), reason);
      throw DataError(file.string(), prediction.line, reason);
    };
    for (const auto& document : prediction.documents) {
      const auto found = sentence_count.find(document.doc_id);
      if (found == sentence_count.end()) fail("claim " + prediction.claim_id + ": document " + document.doc_id + " is not in the corpus");
      std::vector<std::size_t> indices = document.sentences;
      if (document.sentence_scores) {
        for (const auto& score : *document.sentence_scores) indices.push_back(score.index);
      }
      for (const std::size_t index : indices) {
        if (index >= found->second) {
          fail("claim " + prediction.claim_id + ": sentence " + std::to_string(index) + " of document " + document.doc_id +
               " does not exist (the abstract has " + std::to_string(found->second) + ")");
        }
      }
    }
  }
}

std::string prediction_to_json_line(const ClaimPrediction& prediction) {
  std::string out = "{\"id\":";
  out += is_canonical_integer(prediction.claim_id) ? prediction.claim_id : json_string(prediction.claim_id);
  out += ",\"evidence\":{";
  std::unordered_set<std::string> doc_ids;
  for (std::size_t i = 0; i < prediction.documents.size(); ++i) {
    const auto& document = prediction.documents[i];
    if (!doc_ids.insert(document.doc_id).second) {
      throw InternalError("prediction of claim " + prediction.claim_id + ": document " + document.doc_id + " given twice");
    }
    if (i > 0) out += ",";
    write_document(prediction.claim_id, document, out);
  }
  out += "}";
  if (prediction.reason) out += ",\"reason\":" + json_string(*prediction.reason);
  out += "}";
  return out;
}

void write_predictions(std::span<const ClaimPrediction> predictions, const std::filesystem::path& file) {
  std::string contents;
  std::unordered_set<std::string> claim_ids;
  for (const auto& prediction : predictions) {
    if (!claim_ids.insert(prediction.claim_id).second) {
      throw InternalError("predictions: claim " + prediction.claim_id + " given twice");
    }
    contents += prediction_to_json_line(prediction);
    contents += '\n';
  }
  io::write_file_atomically(file, contents);
}

ClaimPrediction to_prediction(const ClaimVerdict& verdict, const VerificationInput* input) {
  if (input != nullptr && (input->claim_id != verdict.claim_id || input->documents.size() != verdict.documents.size())) {
    throw InternalError("verdict of claim " + verdict.claim_id + " does not answer the input of claim " + input->claim_id);
  }
  ClaimPrediction prediction;
  prediction.claim_id = verdict.claim_id;
  if (!verdict.reason.empty()) prediction.reason = verdict.reason;
  for (std::size_t d = 0; d < verdict.documents.size(); ++d) {
    const auto& source = verdict.documents[d];
    DocumentPrediction document;
    document.doc_id = source.doc_id;
    document.label = source.label;
    document.sentences = source.rationale;
    document.probabilities = source.probabilities;
    document.sentence_scores = source.sentence_scores;
    document.truncated_sentences = source.truncated_sentences;
    if (!source.failure.empty()) document.failure = source.failure;
    if (input != nullptr) {
      const auto& evidence = input->documents[d];
      if (evidence.doc_id != source.doc_id) {
        throw InternalError("verdict of claim " + verdict.claim_id + ": document " + source.doc_id +
                            " answers input document " + evidence.doc_id);
      }
      if (evidence.retrieval_rank > 0) document.retrieval_rank = evidence.retrieval_rank;
    }
    prediction.documents.push_back(std::move(document));
  }
  return prediction;
}

}  // namespace claimrag::verification
