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
  return document;
}

}  // namespace

std::vector<InterrogationPair> load_pairs(const std::filesystem::path& file, const dataset::Corpus* corpus) {
  std::vector<InterrogationPair> pairs;
  std::set<std::string> ids;
  dataset::for_each_json_object(file, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, file, line);
    for (const auto field : object) {
      const std::string_view key = field.key;
      if (key != "id" && key != "claim" && key != "claim_id" && key != "doc_id" && key != "evidence") {
        fields.fail("unknown field \"" + std::string(key) + "\" (expected id, claim, claim_id, doc_id or evidence)");
      }
    }
    InterrogationPair pair;
    pair.id = fields.identifier("id");
    if (!ids.insert(pair.id).second) fields.fail("duplicate pair id '" + pair.id + "'");
    pair.claim = fields.string("claim");
    if (pair.claim.find_first_not_of(" \t\r\n") == std::string::npos) fields.fail("\"claim\" is empty");
    const text::NegationResult negation = text::negate_claim(pair.claim);
    pair.negated_claim = negation.applied ? negation.text : std::string();
    pair.negation_rule = std::string(text::negation_rule_name(negation.rule));
    pair.claim_id = fields.has("claim_id") ? fields.identifier("claim_id") : pair.id;
    const bool has_doc = fields.has("doc_id");
    if (has_doc == fields.has("evidence")) fields.fail("give exactly one of \"doc_id\" and \"evidence\"");
    if (has_doc) {
      const std::string doc_id = fields.identifier("doc_id");
      if (corpus == nullptr) fields.fail("\"doc_id\" '" + doc_id + "' needs the corpus: pass --data");
      const std::int64_t position = corpus->find(doc_id);
      if (position < 0) fields.fail("document '" + doc_id + "' is not in the corpus");
      const auto& document = corpus->documents[static_cast<std::size_t>(position)];
      pair.abstract = document.title.empty() ? document.text : document.title + "\n" + document.text;
      pair.evidence = evidence_document(doc_id, document.title, document.text);
    } else {
      pair.abstract = fields.string("evidence");
      if (pair.abstract.find_first_not_of(" \t\r\n") == std::string::npos) fields.fail("\"evidence\" is empty");
      pair.evidence = evidence_document(pair.id, "", pair.abstract);
    }
    pairs.push_back(std::move(pair));
  });
  if (pairs.empty()) throw DataError(file.string(), "no pairs");
  return pairs;
}

}  // namespace claimrag::interrogation
