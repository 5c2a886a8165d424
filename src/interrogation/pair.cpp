#include "claimrag/interrogation/pair.hpp"

#include <set>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/text/negation.hpp"
#include "claimrag/text/sentence_splitter.hpp"

namespace claimrag::interrogation {
namespace {

verification::EvidenceDocument evidence_document(std::string doc_id, std::string title, std::string_view text) {
  verification::EvidenceDocument document;
  document.doc_id = std::move(doc_id);
  document.title = std::move(title);
  for (auto& sentence : text::split_sentences(text)) document.sentences.push_back(std::move(sentence.text));
  // A text shorter than the splitter's minimum is still the whole evidence, never nothing.
  if (document.sentences.empty()) document.sentences.emplace_back(text);
  document.text = text;
  return document;
}

}  // namespace

InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim,
                            verification::EvidenceDocument evidence, std::string abstract) {
  InterrogationPair pair;
  pair.id = std::move(id);
  pair.claim_id = std::move(claim_id);
  pair.claim = std::move(claim);
  const text::NegationResult negation = text::negate_claim(pair.claim);
  pair.negated_claim = negation.applied ? negation.text : std::string();
  pair.negation_rule = std::string(text::negation_rule_name(negation.rule));
  pair.evidence = std::move(evidence);
  pair.abstract = std::move(abstract);
  return pair;
}

InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim, const dataset::Document& document) {
  return make_pair(std::move(id), std::move(claim_id), std::move(claim),
                   evidence_document(document.id, document.title, document.text),
                   document.title.empty() ? document.text : document.title + "\n" + document.text);
}

InterrogationPair make_pair(std::string id, std::string claim_id, std::string claim, verification::EvidenceDocument evidence) {
  std::string text = evidence.title + "\n";
  for (std::size_t s = 0; s < evidence.sentences.size(); ++s) text += (s ? " " : "") + evidence.sentences[s];
  return make_pair(std::move(id), std::move(claim_id), std::move(claim), std::move(evidence), std::move(text));
}

std::vector<InterrogationPair> pairs_from_run(std::span<const dataset::Query> queries, const run::Run& run, std::size_t k,
                                              const dataset::Corpus& corpus, std::vector<std::string>& unranked) {
  if (k == 0) throw UsageError("--k must be at least 1");
  std::vector<InterrogationPair> pairs;
  for (const auto& query : queries) {
    const run::Ranking* ranking = run.find(query.id);
    if (ranking == nullptr || ranking->documents.empty()) {
      unranked.push_back(query.id);
      continue;
    }
    for (std::size_t r = 0; r < ranking->documents.size() && r < k; ++r) {
      const std::string& doc_id = ranking->documents[r].doc_id;
      const std::int64_t position = corpus.find(doc_id);
      if (position < 0) {
        throw DataError(run.source.empty() ? std::string("run") : run.source,
                        "query " + query.id + ": document '" + doc_id + "' is not in the corpus");
      }
      pairs.push_back(make_pair(query.id + ":" + doc_id, query.id, query.text,
                                corpus.documents[static_cast<std::size_t>(position)]));
    }
  }
  return pairs;
}

std::vector<InterrogationPair> load_pairs(const std::filesystem::path& file, const dataset::Corpus* corpus) {
  std::vector<InterrogationPair> pairs;
  std::set<std::string> ids;
  dataset::for_each_json_object(file, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, file, line);
    fields.refuse_unknown({"id", "claim", "claim_id", "doc_id", "evidence"});
    const std::string id = fields.identifier("id");
    if (!ids.insert(id).second) fields.fail("duplicate pair id '" + id + "'");
    std::string claim = fields.string("claim");
    if (claim.find_first_not_of(" \t\r\n") == std::string::npos) fields.fail("\"claim\" is empty");
    std::string claim_id = fields.has("claim_id") ? fields.identifier("claim_id") : id;
    const bool has_doc = fields.has("doc_id");
    if (has_doc == fields.has("evidence")) fields.fail("give exactly one of \"doc_id\" and \"evidence\"");
    InterrogationPair pair;
    if (has_doc) {
      const std::string doc_id = fields.identifier("doc_id");
      if (corpus == nullptr) fields.fail("\"doc_id\" '" + doc_id + "' needs the corpus: pass --data");
      const std::int64_t position = corpus->find(doc_id);
      if (position < 0) fields.fail("document '" + doc_id + "' is not in the corpus");
      pair = make_pair(id, std::move(claim_id), std::move(claim), corpus->documents[static_cast<std::size_t>(position)]);
    } else {
      std::string abstract = fields.string("evidence");
      if (abstract.find_first_not_of(" \t\r\n") == std::string::npos) fields.fail("\"evidence\" is empty");
      pair = make_pair(id, std::move(claim_id), std::move(claim), evidence_document(id, "", abstract), abstract);
    }
    pairs.push_back(std::move(pair));
  });
  if (pairs.empty()) throw DataError(file.string(), "no pairs");
  return pairs;
}

}  // namespace claimrag::interrogation
