#include "claimrag/verification/verification_pairs.hpp"

#include <string_view>
#include <unordered_map>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/verification/verdict_report.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::verification {
namespace {

bool is_blank_text(std::string_view text) {
  return text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos;
}

}  // namespace

std::vector<VerificationInput> read_verification_pairs(const std::filesystem::path& path) {
  std::vector<VerificationInput> inputs;
  std::unordered_map<std::string, std::size_t> first_line;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    fields.refuse_unknown({"id", "claim", "evidence"});
    std::string id = fields.identifier("id");
    if (is_blank_text(id)) fields.fail("\"id\" is empty");
    const auto [seen, fresh] = first_line.emplace(id, line);
    if (!fresh) fields.fail("duplicate id \"" + id + "\" (first on line " + std::to_string(seen->second) + ")");
    std::string claim = fields.text("claim");
    const std::string evidence = fields.text("evidence");
    EvidenceDocument document;
    document.doc_id = id;
    document.sentences = evidence_sentences(evidence);
    document.text = evidence;
    inputs.push_back({std::move(id), std::move(claim), {std::move(document)}});
  });
  return inputs;
}

nlohmann::ordered_json pair_verdict_json(const VerificationInput& input, const ClaimVerdict& verdict) {
  if (input.documents.size() != 1 || verdict.documents.size() != 1) {
    throw InternalError("pair " + input.claim_id + " must hold exactly one evidence document");
  }
  const DocumentVerdict& document = verdict.documents.front();
  nlohmann::ordered_json line{{"id", input.claim_id},
                              {"label", label_name(document.label)},
                              {"probabilities", probabilities_json(document.probabilities)},
                              {"rationale", rationale_json(input.documents.front(), document)},
                              {"truncated_sentences", document.truncated_sentences}};
  if (document.conflict_cues) line["conflict_cues"] = *document.conflict_cues;
  if (document.short_evidence) line["short_evidence"] = true;  // judged by the short-evidence θ and γ
  if (!document.chunks.empty()) line["chunks"] = chunks_json(document.chunks);
  if (!document.failure.empty()) line["failed"] = document.failure;
  if (!verdict.reason.empty()) line["reason"] = verdict.reason;  // e.g. a claim without a word
  return line;
}

void write_pair_verdicts(const std::filesystem::path& path, std::span<const VerificationInput> inputs,
                         std::span<const ClaimVerdict> verdicts) {
  if (inputs.size() != verdicts.size()) throw InternalError("write_pair_verdicts: inputs and verdicts differ in number");
  io::AtomicFile file(path);
  for (std::size_t p = 0; p < inputs.size(); ++p) file.stream() << pair_verdict_json(inputs[p], verdicts[p]).dump() << '\n';
  file.commit();
}

}  // namespace claimrag::verification
