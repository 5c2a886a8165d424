#include "claimrag/verification/scifact_inputs.hpp"

#include <algorithm>
#include <random>
#include <set>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/error.hpp"

namespace claimrag::verification {
namespace {

/// The longest unrelated passage add_unrelated_passages cuts, in sentences.
constexpr std::size_t kUnrelatedPassageSentences = 3;

EvidenceDocument evidence_document(const AbstractIndex& abstracts, const std::string& doc_id, const std::string& claim_id) {
  const auto found = abstracts.find(doc_id);
  if (found == abstracts.end()) throw DataError("claim " + claim_id + ": document " + doc_id + " is not in the corpus");
  return {doc_id, found->second->title, found->second->sentences, 0, 0.0};
}

LabelledInput start(const dataset::Claim& claim) {
  LabelledInput item;
  item.input.claim_id = claim.id;
  item.input.claim = claim.text;
  std::set<std::string> family(claim.cited_doc_ids.begin(), claim.cited_doc_ids.end());
  for (const auto& [doc_id, sets] : claim.evidence) family.insert(doc_id);
  item.family_doc_ids.assign(family.begin(), family.end());
  for (const auto& [doc_id, sets] : claim.evidence) item.evidence.emplace(doc_id, gold_document(claim, doc_id));
  return item;
}

}  // namespace

AbstractIndex index_abstracts(const std::vector<dataset::Abstract>& abstracts) {
  AbstractIndex index;
  for (const auto& abstract : abstracts) index.emplace(abstract.doc_id, &abstract);
  return index;
}

GoldDocument gold_document(const dataset::Claim& claim, const std::string& doc_id) {
  GoldDocument gold;
  const auto found = claim.evidence.find(doc_id);
  if (found == claim.evidence.end() || found->second.empty()) return gold;
  gold.label = parse_label(found->second.front().label);
  for (const auto& set : found->second) {
    if (parse_label(set.label) != gold.label) {
      throw DataError("claim " + claim.id + ": document " + doc_id + " has rationales with different labels");
    }
    std::vector<std::size_t> sentences(set.sentences.begin(), set.sentences.end());
    gold.rationale_sets.push_back(std::move(sentences));
  }
  return gold;
}

std::vector<LabelledInput> oracle_inputs(const std::vector<dataset::Claim>& claims, const AbstractIndex& abstracts) {
  std::vector<LabelledInput> items;
  for (const auto& claim : claims) {
    LabelledInput item = start(claim);
    std::vector<std::string> doc_ids;
    if (claim.evidence.empty()) {
      // SciFact lists some cited abstracts twice; a document is judged once.
      for (const auto& doc_id : claim.cited_doc_ids) {
        if (std::find(doc_ids.begin(), doc_ids.end(), doc_id) == doc_ids.end()) doc_ids.push_back(doc_id);
      }
    } else {
      for (const auto& [doc_id, sets] : claim.evidence) doc_ids.push_back(doc_id);
    }
    for (const auto& doc_id : doc_ids) {
      item.input.documents.push_back(evidence_document(abstracts, doc_id, claim.id));
      item.gold.push_back(gold_document(claim, doc_id));
    }
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<LabelledInput> open_inputs(const std::vector<dataset::Claim>& claims, const AbstractIndex& abstracts,
                                       const run::Run& run, std::size_t k) {
  std::vector<LabelledInput> items;
  for (const auto& claim : claims) {
    LabelledInput item = start(claim);
    if (const run::Ranking* ranking = run.find(claim.id)) {
      for (std::size_t r = 0; r < std::min(k, ranking->documents.size()); ++r) {
        EvidenceDocument document = evidence_document(abstracts, ranking->documents[r].doc_id, claim.id);
        document.retrieval_rank = r + 1;
        document.retrieval_score = ranking->documents[r].score;
        item.gold.push_back(gold_document(claim, document.doc_id));
        item.input.documents.push_back(std::move(document));
      }
    }
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<LabelledInput> free_text_inputs(const std::vector<dataset::Claim>& claims,
                                            const std::vector<dataset::Abstract>& abstracts, const AbstractIndex& index,
                                            const run::Run& neighbours, std::uint64_t seed) {
  if (abstracts.size() < 3) throw UsageError("free-text verifier inputs: need at least 3 abstracts to draw unrelated ones from");
  std::vector<LabelledInput> items = oracle_inputs(claims, index);
  std::mt19937_64 generator(seed);
  for (LabelledInput& item : items) {
    const auto taken = [&](const std::string& doc_id) {
      return std::find(item.family_doc_ids.begin(), item.family_doc_ids.end(), doc_id) != item.family_doc_ids.end() ||
             std::any_of(item.input.documents.begin(), item.input.documents.end(),
                         [&](const EvidenceDocument& d) { return d.doc_id == doc_id; });
    };
    const auto add = [&](const std::string& doc_id) {
      item.input.documents.push_back(evidence_document(index, doc_id, item.input.claim_id));
      item.gold.emplace_back();  // NOT_ENOUGH_INFO, no rationale
    };
    if (const run::Ranking* ranking = neighbours.find(item.input.claim_id)) {
      for (const auto& ranked : ranking->documents) {
        if (taken(ranked.doc_id)) continue;
        add(ranked.doc_id);
        break;
      }
    }
    while (true) {
      const std::string& doc_id = abstracts[static_cast<std::size_t>(generator() % abstracts.size())].doc_id;
      if (taken(doc_id)) continue;
      add(doc_id);
      break;
    }
  }
  return items;
}

void add_passages(std::vector<LabelledInput>& items, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  for (LabelledInput& item : items) {
    const std::size_t cited = item.input.documents.size();
    for (std::size_t d = 0; d < cited; ++d) {
      if (std::find(item.family_doc_ids.begin(), item.family_doc_ids.end(), item.input.documents[d].doc_id) ==
          item.family_doc_ids.end()) {
        continue;  // an added NOT_ENOUGH_INFO abstract, not a cited one
      }
      const EvidenceDocument source = item.input.documents[d];
      const GoldDocument gold = item.gold[d];
      std::vector<char> in_rationale(source.sentences.size(), 0);
      for (const auto& set : gold.rationale_sets) {
        for (const std::size_t s : set) {
          if (s < in_rationale.size()) in_rationale[s] = 1;
        }
      }
      const auto add = [&](const std::string& suffix, std::vector<std::size_t> sentences, GoldDocument passage_gold) {
        std::sort(sentences.begin(), sentences.end());
        EvidenceDocument passage{source.doc_id + suffix, source.title, {}, 0, 0.0};
        for (const std::size_t s : sentences) passage.sentences.push_back(source.sentences[s]);
        if (passage_gold.label != Label::not_enough_info) item.evidence.emplace(passage.doc_id, passage_gold);
        item.input.documents.push_back(std::move(passage));
        item.gold.push_back(std::move(passage_gold));
      };
      if (gold.label != Label::not_enough_info && !gold.rationale_sets.empty()) {
        std::vector<std::size_t> set;
        for (const std::size_t s : gold.rationale_sets.front()) {
          if (s < source.sentences.size()) set.push_back(s);
        }
        if (!set.empty()) {
          GoldDocument passage_gold{gold.label, {{}}};
          for (std::size_t k = 0; k < set.size(); ++k) passage_gold.rationale_sets.front().push_back(k);
          add("#evidence", set, std::move(passage_gold));
        }
      }
      std::vector<std::size_t> others;
      for (std::size_t s = 0; s < in_rationale.size(); ++s) {
        if (!in_rationale[s]) others.push_back(s);
      }
      if (!others.empty()) add("#other", {others[static_cast<std::size_t>(generator() % others.size())]}, GoldDocument{});
    }
  }
}

void add_unrelated_passages(std::vector<LabelledInput>& items, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  // Every claim's first rationale set of its first evidence document, read before any is added.
  std::vector<std::pair<std::string, EvidenceDocument>> findings;
  for (const LabelledInput& item : items) {
    for (std::size_t d = 0; d < item.input.documents.size(); ++d) {
      const GoldDocument& gold = item.gold[d];
      if (gold.label == Label::not_enough_info || gold.rationale_sets.empty()) continue;
      const EvidenceDocument& source = item.input.documents[d];
      std::vector<std::size_t> set(gold.rationale_sets.front().begin(), gold.rationale_sets.front().end());
      std::sort(set.begin(), set.end());
      EvidenceDocument passage{source.doc_id + "#foreign", source.title, {}, 0, 0.0};
      for (const std::size_t s : set) {
        if (s < source.sentences.size()) passage.sentences.push_back(source.sentences[s]);
      }
      if (!passage.sentences.empty()) findings.emplace_back(source.doc_id, std::move(passage));
      break;
    }
  }
  for (LabelledInput& item : items) {
    // A passage add_passages cut ("#evidence", "#other") is judged by the abstract it came from.
    const auto in_family = [&](const std::string& doc_id) {
      const std::string abstract_id = doc_id.substr(0, doc_id.find('#'));
      return std::find(item.family_doc_ids.begin(), item.family_doc_ids.end(), abstract_id) != item.family_doc_ids.end();
    };
    const auto add = [&](EvidenceDocument passage) {
      item.input.documents.push_back(std::move(passage));
      item.gold.emplace_back();  // NOT_ENOUGH_INFO, no rationale
    };
    const std::size_t documents = item.input.documents.size();
    for (std::size_t d = 0; d < documents; ++d) {
      // Read in place: the passage is cut before add() grows the vector.
      const EvidenceDocument& source = item.input.documents[d];
      if (in_family(source.doc_id) || source.sentences.empty()) continue;
      const std::size_t length = std::min<std::size_t>(1 + generator() % kUnrelatedPassageSentences, source.sentences.size());
      const std::size_t first = static_cast<std::size_t>(generator() % (source.sentences.size() - length + 1));
      EvidenceDocument passage{source.doc_id + "#unrelated", source.title, {}, 0, 0.0};
      passage.sentences.assign(source.sentences.begin() + static_cast<std::ptrdiff_t>(first),
                               source.sentences.begin() + static_cast<std::ptrdiff_t>(first + length));
      add(std::move(passage));
    }
    if (findings.empty()) continue;
    for (int tries = 0; tries < 8; ++tries) {
      const auto& [doc_id, passage] = findings[static_cast<std::size_t>(generator() % findings.size())];
      if (in_family(doc_id)) continue;
      add(passage);
      break;
    }
  }
}

std::vector<std::string> corpus_texts(const std::vector<dataset::Abstract>& abstracts) {
  std::vector<std::string> texts;
  texts.reserve(abstracts.size());
  for (const auto& abstract : abstracts) {
    std::string text = abstract.title;
    for (const auto& sentence : abstract.sentences) text += " " + sentence;
    texts.push_back(std::move(text));
  }
  return texts;
}

run::Run bm25_run(const std::vector<dataset::Abstract>& abstracts, const std::vector<dataset::Claim>& claims,
                  double k1, double b, std::size_t depth) {
  dataset::Corpus corpus;
  for (const auto& abstract : abstracts) {
    std::string text;
    for (const auto& sentence : abstract.sentences) text += (text.empty() ? "" : " ") + sentence;
    corpus.position.emplace(abstract.doc_id, static_cast<std::uint32_t>(corpus.documents.size()));
    corpus.documents.push_back({abstract.doc_id, abstract.title, std::move(text)});
  }
  const bm25::InvertedIndex index = bm25::build_index(corpus, "");
  const bm25::Searcher searcher(index, {k1, b});
  std::vector<std::string> ids;
  std::vector<std::string_view> queries;
  for (const auto& claim : claims) {
    ids.push_back(claim.id);
    queries.push_back(claim.text);
  }
  return bm25::search_run(searcher, ids, queries, depth);
}

}  // namespace claimrag::verification
