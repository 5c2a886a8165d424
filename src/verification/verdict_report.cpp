#include "claimrag/verification/verdict_report.hpp"

#include <iomanip>
#include <sstream>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::verification {
namespace {

constexpr std::array<Label, label_count> kLabels{Label::support, Label::contradict, Label::not_enough_info};

double sentence_score(const DocumentVerdict& verdict, std::size_t index) {
  if (index >= verdict.sentence_scores.size() || verdict.sentence_scores[index].index != index) {
    throw InternalError("document " + verdict.doc_id + ": sentence " + std::to_string(index) + " has no score");
  }
  return verdict.sentence_scores[index].score;
}

std::string fixed(double value, int decimals) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << value;
  return text.str();
}

std::string documents_named(const std::vector<std::string>& ids) {
  std::string text = std::to_string(ids.size()) + (ids.size() == 1 ? " abstract (" : " abstracts (");
  for (std::size_t i = 0; i < ids.size(); ++i) text += (i > 0 ? ", " : "") + ids[i];
  return text + ")";
}

std::string closing_line(const ClaimVerdict& verdict) {
  if (verdict.documents.empty()) return "Verdict: not enough evidence (" + verdict.reason + ")\n";
  if (not_enough_evidence(verdict)) {
    return "Verdict: not enough evidence (0 of " + std::to_string(verdict.documents.size()) +
           " abstracts support or contradict the claim)\n";
  }
  std::vector<std::string> supporting, contradicting;
  for (const auto& document : verdict.documents) {
    if (document.label == Label::support) supporting.push_back(document.doc_id);
    if (document.label == Label::contradict) contradicting.push_back(document.doc_id);
  }
  std::string line = "Verdict:";
  if (!supporting.empty()) line += " SUPPORT by " + documents_named(supporting);
  if (!supporting.empty() && !contradicting.empty()) line += ";";
  if (!contradicting.empty()) line += " CONTRADICT by " + documents_named(contradicting);
  return line + "\n";
}

/// "negation, number", or "none".
std::string cue_list(const std::vector<std::string>& cues) {
  std::string list;
  for (const auto& cue : cues) list += (list.empty() ? "" : ", ") + cue;
  return list.empty() ? "none" : list;
}

}  // namespace

nlohmann::ordered_json probabilities_json(const std::array<double, label_count>& probabilities) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (const Label label : kLabels) object[std::string(label_name(label))] = probabilities[static_cast<std::size_t>(label)];
  return object;
}

nlohmann::ordered_json rationale_json(const EvidenceDocument& document, const DocumentVerdict& verdict) {
  nlohmann::ordered_json rationale = nlohmann::ordered_json::array();
  for (const std::size_t index : verdict.rationale) {
    rationale.push_back({{"sentence", index}, {"text", document.sentences.at(index)}, {"score", sentence_score(verdict, index)}});
  }
  return rationale;
}

nlohmann::ordered_json chunks_json(const std::vector<ChunkScore>& chunks) {
  nlohmann::ordered_json listed = nlohmann::ordered_json::array();
  for (const auto& chunk : chunks) listed.push_back({{"text", chunk.text}, {"score", chunk.score}});
  return listed;
}

bool not_enough_evidence(const ClaimVerdict& verdict) {
  for (const auto& document : verdict.documents) {
    if (document.label != Label::not_enough_info) return false;
  }
  return true;
}

nlohmann::ordered_json claim_verdict_json(const VerificationInput& input, const ClaimVerdict& verdict) {
  nlohmann::ordered_json documents = nlohmann::ordered_json::array();
  for (std::size_t d = 0; d < verdict.documents.size(); ++d) {
    const auto& source = input.documents.at(d);
    const auto& document = verdict.documents[d];
    documents.push_back({{"doc_id", document.doc_id},
                         {"title", source.title},
                         {"rank", source.retrieval_rank},
                         {"retrieval_score", source.retrieval_score},
                         {"label", label_name(document.label)},
                         {"probabilities", probabilities_json(document.probabilities)},
                         {"rationale", rationale_json(source, document)},
                         {"truncated_sentences", document.truncated_sentences}});
    if (document.nei_threshold) documents.back()["nei_threshold"] = *document.nei_threshold;
    if (document.contradict_ratio) documents.back()["contradict_ratio"] = *document.contradict_ratio;
    if (document.conflict_cues) documents.back()["conflict_cues"] = *document.conflict_cues;
    if (document.short_evidence) documents.back()["short_evidence"] = true;
    if (!document.chunks.empty()) documents.back()["chunks"] = chunks_json(document.chunks);
    if (!document.failure.empty()) documents.back()["failed"] = document.failure;
  }
  nlohmann::ordered_json object{{"claim", input.claim}, {"not_enough_evidence", not_enough_evidence(verdict)}};
  if (!verdict.reason.empty()) object["reason"] = verdict.reason;
  object["documents"] = std::move(documents);
  object["truncated_sentences"] = truncated_sentence_count(std::span<const ClaimVerdict>(&verdict, 1));
  return object;
}

std::string claim_verdict_text(const VerificationInput& input, const ClaimVerdict& verdict) {
  std::ostringstream text;
  text << "Claim: " << input.claim << "\n";
  for (std::size_t d = 0; d < verdict.documents.size(); ++d) {
    const auto& source = input.documents.at(d);
    const auto& document = verdict.documents[d];
    text << "\n[" << source.retrieval_rank << "] " << document.doc_id << ": " << source.title << "\n    "
         << label_name(document.label);
    for (const Label label : kLabels) {
      text << "  P(" << label_name(label) << ") " << fixed(document.probabilities[static_cast<std::size_t>(label)], 3);
    }
    text << "\n";
    if (!document.failure.empty()) text << "    not judged: " << document.failure << "\n";
    // The rule beside the verdict, so that "P(SUPPORT) 0.52, NOT_ENOUGH_INFO" reads as what it is.
    if (document.nei_threshold) {
      text << "    (" << (document.short_evidence ? "evidence this short: " : "") << "NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) >= "
           << fixed(*document.nei_threshold, 3);
      if (document.contradict_ratio) {
        text << ", else CONTRADICT when P(CONTRADICT) > " << fixed(*document.contradict_ratio, 3)
             << " x P(SUPPORT), else SUPPORT)\n";
      } else {
        text << ", else the likelier of SUPPORT and CONTRADICT)\n";
      }
      if (document.conflict_cues) text << "    (the ratio needs a conflict cue; here: " << cue_list(*document.conflict_cues) << ")\n";
    }
    if (document.label != Label::not_enough_info) {
      for (const std::size_t index : document.rationale) {
        text << "    cites sentence " << index << " (score " << fixed(sentence_score(document, index), 3)
             << "): " << source.sentences.at(index) << "\n";
      }
    }
    if (document.truncated_sentences > 0) {
      text << "    " << document.truncated_sentences << " sentence(s) cut to the model's maximum length\n";
    }
  }
  text << "\n" << closing_line(verdict);
  return text.str();
}

}  // namespace claimrag::verification
