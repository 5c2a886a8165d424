#include "claimrag/evidence/selection.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include <nlohmann/json.hpp>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::evidence {
namespace {

nlohmann::ordered_json to_json(const ClaimEvidence& claim) {
  nlohmann::ordered_json selected = nlohmann::ordered_json::array();
  for (const auto& entry : claim.selected) {
    selected.push_back({{"doc_id", entry.sentence.doc_id},
                        {"sentence_index", entry.sentence.index},
                        {"begin", entry.sentence.begin},
                        {"end", entry.sentence.end},
                        {"text", entry.sentence.text},
                        {"score", entry.score},
                        {"overlap", entry.overlap},
                        {"document_rank", entry.document_rank}});
  }
  nlohmann::ordered_json line{{"claim_id", claim.claim_id}, {"claim", claim.claim}, {"candidates", claim.candidates},
                              {"selected", selected}};
  if (claim.selected.empty()) line["reason"] = claim.reason;
  return line;
}

using Field = simdjson::simdjson_result<simdjson::dom::element>;

std::size_t unsigned_field(const dataset::FieldReader& fields, Field field, std::string_view key) {
  std::uint64_t value = 0;
  if (field.get_uint64().get(value) != simdjson::SUCCESS) {
    fields.fail("\"" + std::string(key) + "\" must be a whole number >= 0");
  }
  return static_cast<std::size_t>(value);
}

double number_field(const dataset::FieldReader& fields, Field field, std::string_view key) {
  double value = 0;
  if (field.get_double().get(value) != simdjson::SUCCESS) fields.fail("\"" + std::string(key) + "\" must be a number");
  return value;
}

std::string string_field(const dataset::FieldReader& fields, Field field, std::string_view key) {
  std::string_view value;
  if (field.get_string().get(value) != simdjson::SUCCESS) fields.fail("\"" + std::string(key) + "\" must be a string");
  return std::string(value);
}

SelectedSentence selected_from(const dataset::FieldReader& fields, simdjson::dom::element element) {
  SelectedSentence entry;
  entry.sentence.doc_id = string_field(fields, element["doc_id"], "doc_id");
  entry.sentence.index = unsigned_field(fields, element["sentence_index"], "sentence_index");
  entry.sentence.begin = unsigned_field(fields, element["begin"], "begin");
  entry.sentence.end = unsigned_field(fields, element["end"], "end");
  entry.sentence.text = string_field(fields, element["text"], "text");
  entry.score = number_field(fields, element["score"], "score");
  entry.overlap = number_field(fields, element["overlap"], "overlap");
  entry.document_rank = unsigned_field(fields, element["document_rank"], "document_rank");
  if (entry.sentence.end < entry.sentence.begin) fields.fail("a selected sentence ends before it begins");
  return entry;
}

}  // namespace

ClaimEvidence select_evidence(std::string claim_id, std::string claim, const std::vector<Candidate>& candidates,
                              const std::vector<double>& scores, std::size_t top, std::string reason_if_empty) {
  if (scores.size() != candidates.size()) throw InternalError("select_evidence: one score per candidate expected");
  ClaimEvidence evidence{std::move(claim_id), std::move(claim), candidates.size(), {}, {}};
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  order.resize(std::min(order.size(), top));
  for (const std::size_t i : order) {
    evidence.selected.push_back({candidates[i].sentence, scores[i], candidates[i].overlap, candidates[i].document_rank});
  }
  if (evidence.selected.empty()) evidence.reason = std::move(reason_if_empty);
  return evidence;
}

void write_evidence(const std::vector<ClaimEvidence>& claims, const std::filesystem::path& path) {
  io::AtomicFile file(path);
  for (const auto& claim : claims) file.stream() << io::json_text(to_json(claim), path.string()) << '\n';
  file.commit();
}

std::vector<ClaimEvidence> read_evidence(const std::filesystem::path& path) {
  std::vector<ClaimEvidence> claims;
  std::set<std::string> seen;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    fields.refuse_unknown({"claim_id", "claim", "candidates", "selected", "reason"});
    ClaimEvidence claim;
    claim.claim_id = fields.identifier("claim_id");
    claim.claim = fields.string("claim");
    claim.candidates = unsigned_field(fields, fields.element("candidates"), "candidates");
    simdjson::dom::array selected;
    if (fields.element("selected").get_array().get(selected) != simdjson::SUCCESS) fields.fail("\"selected\" must be an array");
    for (const auto element : selected) claim.selected.push_back(selected_from(fields, element));
    claim.reason = fields.optional_string("reason", "");
    if (!seen.insert(claim.claim_id).second) fields.fail("claim " + claim.claim_id + " appears twice");
    claims.push_back(std::move(claim));
  });
  return claims;
}

}  // namespace claimrag::evidence
