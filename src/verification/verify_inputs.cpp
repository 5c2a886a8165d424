#include "claimrag/verification/verify_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "claimrag/error.hpp"
#include "claimrag/text/sentence_splitter.hpp"

namespace claimrag::verification {

std::vector<std::string> evidence_sentences(std::string_view text) {
  std::vector<std::string> sentences;
  for (auto& sentence : text::split_sentences(text, 1)) sentences.push_back(std::move(sentence.text));
  return sentences;
}

DocumentSentences::DocumentSentences(const dataset::Corpus& corpus) : corpus_(corpus) {}

DocumentSentences::DocumentSentences(const dataset::Corpus& corpus, std::vector<dataset::Abstract> abstracts,
                                     const std::filesystem::path& abstracts_source)
    : corpus_(corpus), abstracts_(std::move(abstracts)) {
  std::unordered_map<std::string_view, std::size_t> by_id;
  by_id.reserve(abstracts_.size());
  for (std::size_t a = 0; a < abstracts_.size(); ++a) by_id.emplace(abstracts_[a].doc_id, a);
  abstract_of_.reserve(corpus_.documents.size());
  for (const auto& document : corpus_.documents) {
    const auto found = by_id.find(document.id);
    if (found == by_id.end()) {
      throw DataError(abstracts_source.string(), "has no abstract for corpus document " + document.id +
                                                     " (the release layout must hold every document of --data)");
    }
    abstract_of_.push_back(found->second);
  }
}

EvidenceDocument DocumentSentences::document(std::size_t position) const {
  const auto& source = corpus_.documents.at(position);
  EvidenceDocument document;
  document.doc_id = source.id;
  document.title = source.title;
  document.sentences = abstracts_.empty() ? evidence_sentences(source.text) : abstracts_[abstract_of_[position]].sentences;
  if (abstracts_.empty()) document.text = source.text;
  return document;
}

std::vector<VerificationInput> inputs_from_run(const std::vector<dataset::Query>& claims, const run::Run& run,
                                               const DocumentSentences& sentences, std::size_t k,
                                               const std::string& run_source) {
  if (k == 0) throw UsageError("the number of documents per claim must be positive");
  std::vector<VerificationInput> inputs;
  inputs.reserve(claims.size());
  for (const auto& claim : claims) {
    VerificationInput input{claim.id, claim.text, {}};
    if (const run::Ranking* ranking = run.find(claim.id)) {
      const std::size_t depth = std::min(k, ranking->documents.size());
      for (std::size_t r = 0; r < depth; ++r) {
        const auto& ranked = ranking->documents[r];
        const std::int64_t position = sentences.corpus().find(ranked.doc_id);
        if (position < 0) {
          throw DataError(run_source, "claim " + claim.id + " ranks document " + ranked.doc_id + ", which the corpus does not hold");
        }
        EvidenceDocument document = sentences.document(static_cast<std::size_t>(position));
        document.retrieval_rank = r + 1;
        document.retrieval_score = ranked.score;
        input.documents.push_back(std::move(document));
      }
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

namespace {

void check_verdict(const VerificationInput& input, const ClaimVerdict& verdict) {
  const auto broken = [&](const std::string& what) {
    throw InternalError("the verifier's verdict on claim " + input.claim_id + " " + what);
  };
  if (verdict.claim_id != input.claim_id) broken("carries claim id " + verdict.claim_id);
  if (verdict.documents.size() != input.documents.size()) {
    broken("has " + std::to_string(verdict.documents.size()) + " document verdicts for " +
           std::to_string(input.documents.size()) + " documents");
  }
  for (std::size_t d = 0; d < input.documents.size(); ++d) {
    const auto& document = verdict.documents[d];
    if (document.doc_id != input.documents[d].doc_id) broken("names document " + document.doc_id + " at position " + std::to_string(d));
    for (const double p : document.probabilities) {
      if (!std::isfinite(p) || p < 0.0 || p > 1.0) broken("on document " + document.doc_id + " holds a probability outside [0, 1]");
    }
    const std::size_t sentence_count = input.documents[d].sentences.size();
    bool scores_in_order = document.sentence_scores.size() == sentence_count;
    for (std::size_t s = 0; scores_in_order && s < sentence_count; ++s) scores_in_order = document.sentence_scores[s].index == s;
    if (!scores_in_order) broken("on document " + document.doc_id + " does not score every sentence in order");
    for (const std::size_t index : document.rationale) {
      if (index >= sentence_count) broken("on document " + document.doc_id + " cites sentence " + std::to_string(index) + " of " + std::to_string(sentence_count));
    }
  }
}

}  // namespace

std::vector<ClaimVerdict> verify_claims(const ClaimVerifier& verifier, std::span<const VerificationInput> inputs) {
  std::vector<ClaimVerdict> verdicts = verifier.verify(inputs);
  if (verdicts.size() != inputs.size()) {
    throw InternalError("the verifier returned " + std::to_string(verdicts.size()) + " verdicts for " +
                        std::to_string(inputs.size()) + " claims");
  }
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    check_verdict(inputs[c], verdicts[c]);
    if (inputs[c].documents.empty() && verdicts[c].reason.empty()) verdicts[c].reason = kNoRetrievedAbstract;
  }
  return verdicts;
}

std::size_t truncated_sentence_count(std::span<const ClaimVerdict> verdicts) {
  std::size_t count = 0;
  for (const auto& verdict : verdicts) {
    for (const auto& document : verdict.documents) count += document.truncated_sentences;
  }
  return count;
}

}  // namespace claimrag::verification
