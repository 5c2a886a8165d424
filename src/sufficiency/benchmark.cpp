#include "claimrag/sufficiency/benchmark.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/text/relation_features.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "claimrag/verification/claim_folds.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::sufficiency {

double claim_overlap(std::string_view claim, std::string_view text) {
  return text::relation_features(claim, text)[static_cast<std::size_t>(text::RelationFeature::claim_content_coverage)];
}

namespace {

/// A candidate sentence with what the matching compares.
struct Candidate {
  PassageSource source;
  const std::string* text = nullptr;
  double overlap = 0;
  double tokens = 0;
};

/// FNV-1a: a platform-independent seed per claim.
std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::vector<std::string> claim_documents(const dataset::Claim& claim) {
  std::vector<std::string> docs = claim.cited_doc_ids;
  for (const auto& [doc, sets] : claim.evidence) docs.push_back(doc);
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  return docs;
}

/// The documents of each claim's family (claims joined by any shared document), by claim.
std::vector<std::set<std::string>> family_documents(const std::vector<dataset::Claim>& claims) {
  std::vector<std::size_t> parent(claims.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::map<std::string, std::size_t> first_claim_of_doc;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    for (const auto& doc : claim_documents(claims[i])) {
      const auto [it, fresh] = first_claim_of_doc.emplace(doc, i);
      if (!fresh) parent[find(i)] = find(it->second);
    }
  }
  std::map<std::size_t, std::set<std::string>> by_root;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    for (const auto& doc : claim_documents(claims[i])) by_root[find(i)].insert(doc);
  }
  std::vector<std::set<std::string>> families(claims.size());
  for (std::size_t i = 0; i < claims.size(); ++i) families[i] = by_root[find(i)];
  return families;
}

Candidate candidate(const dataset::Claim& claim, const dataset::Abstract& abstract, std::size_t sentence) {
  const std::string& text = abstract.sentences[sentence];
  return {{abstract.doc_id, sentence}, &text, claim_overlap(claim.text, text), static_cast<double>(text::count_tokens(text))};
}

/// The unused candidate of `pool` closest to `target`; marks it used. nullopt-like: pool.size() when none.
std::size_t match(const Candidate& target, const std::vector<Candidate>& pool, std::vector<bool>& used, double length_weight) {
  std::size_t best = pool.size();
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < pool.size(); ++i) {
    if (used[i]) continue;
    const double cost = std::abs(pool[i].overlap - target.overlap) +
                        length_weight * std::abs(pool[i].tokens - target.tokens) / std::max(target.tokens, 1.0);
    if (cost < best_cost) best_cost = cost, best = i;
  }
  if (best < pool.size()) used[best] = true;
  return best;
}

struct GroupInputs {
  const dataset::Claim& claim;
  const verification::AbstractIndex& index;
  const std::vector<std::string>& foreign_docs;
  const BenchmarkOptions& options;
  std::string split;
};

Example make_example(const dataset::Claim& claim, const std::string& split, Variant variant, SufficiencyLabel label,
                     std::vector<Candidate> passages, std::mt19937_64& rng) {
  std::shuffle(passages.begin(), passages.end(), rng);
  Example example;
  example.id = claim.id + ":" + std::string(variant_name(variant));
  example.claim = claim.text;
  example.group = claim.id;
  example.split = split;
  example.variant = variant;
  example.label = label;
  example.labelled = true;
  example.claim_id = claim.id;
  for (const auto& passage : passages) {
    example.evidence.push_back(*passage.text);
    example.sources.push_back(passage.source);
  }
  return example;
}

/// The variants of one claim; empty when the claim has no evidence or too few foreign sentences.
std::vector<Example> build_group(const GroupInputs& in, bool& skipped) {
  const auto& claim = in.claim;
  skipped = false;
  if (claim.evidence.empty()) return {};
  // The evidence document and rationale: the first with a multi-sentence set, else the first.
  const std::string* doc = nullptr;
  const dataset::EvidenceSet* rationale = nullptr;
  for (const auto& [doc_id, sets] : claim.evidence) {
    for (const auto& set : sets) {
      if (set.sentences.size() >= 2 && rationale == nullptr) doc = &doc_id, rationale = &set;
    }
  }
  if (rationale == nullptr) doc = &claim.evidence.begin()->first, rationale = &claim.evidence.begin()->second.front();
  const dataset::Abstract& abstract = *in.index.at(*doc);
  std::set<std::size_t> rationale_sentences;
  for (const auto& set : claim.evidence.at(*doc)) {
    for (const int s : set.sentences) rationale_sentences.insert(static_cast<std::size_t>(s));
  }
  std::vector<Candidate> slots, same, foreign;
  for (const int s : rationale->sentences) slots.push_back(candidate(claim, abstract, static_cast<std::size_t>(s)));
  for (std::size_t s = 0; s < abstract.sentences.size(); ++s) {
    if (!rationale_sentences.contains(s)) same.push_back(candidate(claim, abstract, s));
  }
  for (const auto& doc_id : in.foreign_docs) {
    const dataset::Abstract& other = *in.index.at(doc_id);
    for (std::size_t s = 0; s < other.sentences.size(); ++s) foreign.push_back(candidate(claim, other, s));
  }
  if (foreign.size() < in.options.distractors + slots.size()) {
    skipped = true;
    return {};
  }
  std::mt19937_64 rng(in.options.seed ^ stable_hash(claim.id));
  std::vector<bool> foreign_used(foreign.size(), false);
  std::vector<std::size_t> order(foreign.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<Candidate> distractors;
  for (std::size_t i = 0; i < in.options.distractors; ++i) {
    distractors.push_back(foreign[order[i]]);
    foreign_used[order[i]] = true;
  }
  const auto with_distractors = [&](std::vector<Candidate> passages) {
    passages.insert(passages.end(), distractors.begin(), distractors.end());
    return passages;
  };
  const SufficiencyLabel full_label = rationale->label == "SUPPORT" ? SufficiencyLabel::supported : SufficiencyLabel::refuted;
  std::vector<Example> group;
  group.push_back(make_example(claim, in.split, Variant::full, full_label, with_distractors(slots), rng));
  const double w = in.options.length_weight;
  if (slots.size() >= 2 && !same.empty()) {
    std::vector<bool> used(same.size(), false);
    const std::size_t removed = static_cast<std::size_t>(rng() % slots.size());
    std::vector<Candidate> partial = slots;
    partial[removed] = same[match(slots[removed], same, used, w)];
    group.push_back(make_example(claim, in.split, Variant::partial, SufficiencyLabel::insufficient, with_distractors(partial), rng));
  }
  if (same.size() >= slots.size()) {
    std::vector<bool> used(same.size(), false);
    std::vector<Candidate> hard;
    for (const auto& slot : slots) hard.push_back(same[match(slot, same, used, w)]);
    group.push_back(make_example(claim, in.split, Variant::hard_insufficient, SufficiencyLabel::insufficient,
                                 with_distractors(hard), rng));
  }
  std::vector<Candidate> irrelevant;
  for (const auto& slot : slots) irrelevant.push_back(foreign[match(slot, foreign, foreign_used, w)]);
  group.push_back(make_example(claim, in.split, Variant::irrelevant, SufficiencyLabel::insufficient,
                               with_distractors(irrelevant), rng));
  return group;
}

/// Per claim, its top `count` BM25 abstracts that no claim cites or has evidence in.
std::map<std::string, std::vector<std::string>> foreign_abstracts(const std::vector<dataset::Abstract>& abstracts,
                                                                  const std::vector<dataset::Claim>& claims,
                                                                  const std::set<std::string>& cited,
                                                                  const BenchmarkOptions& options) {
  const run::Run run = verification::bm25_run(abstracts, claims, options.bm25_k1, options.bm25_b,
                                              options.foreign_abstracts + cited.size());
  std::map<std::string, std::vector<std::string>> foreign;
  for (const auto& claim : claims) {
    auto& docs = foreign[claim.id];
    const run::Ranking* ranking = run.find(claim.id);
    if (ranking == nullptr) continue;
    for (const auto& scored : ranking->documents) {
      if (docs.size() == options.foreign_abstracts) break;
      if (!cited.contains(scored.doc_id)) docs.push_back(scored.doc_id);
    }
  }
  return foreign;
}

}  // namespace

Benchmark build_benchmark(const std::vector<dataset::Abstract>& abstracts, const std::vector<dataset::Claim>& train_claims,
                          const std::vector<dataset::Claim>& dev_claims, const BenchmarkOptions& options) {
  if (options.folds < 2 || options.dev_fold >= options.folds || options.foreign_abstracts == 0 || !(options.length_weight >= 0)) {
    throw UsageError("sufficiency benchmark: folds ≥ 2, dev_fold < folds, foreign_abstracts ≥ 1 and length_weight ≥ 0 are needed");
  }
  const verification::AbstractIndex index = verification::index_abstracts(abstracts);
  std::set<std::string> cited;
  std::vector<dataset::Claim> with_evidence;
  // A claim id names one claim: one in both splits would be one query twice in the retrieval run
  // of the foreign abstracts (and a claim scored on what it was trained on).
  std::set<std::string> claim_ids;
  for (const auto* claims : {&train_claims, &dev_claims}) {
    for (const auto& claim : *claims) {
      if (!claim_ids.insert(claim.id).second) {
        throw DataError("sufficiency benchmark", "claim " + claim.id + " is both a train and a dev claim: a claim belongs to one split");
      }
      for (const auto& doc : claim_documents(claim)) {
        if (!index.contains(doc)) throw DataError("sufficiency benchmark", "claim " + claim.id + " cites unknown abstract " + doc);
        cited.insert(doc);
      }
      if (!claim.evidence.empty()) with_evidence.push_back(claim);
    }
  }
  const auto foreign = foreign_abstracts(abstracts, with_evidence, cited, options);
  Benchmark benchmark;
  std::vector<Example> test;
  std::set<std::string> test_abstracts;
  for (const auto& claim : dev_claims) {
    if (claim.evidence.empty()) continue;
    bool skipped = false;
    auto group = build_group({claim, index, foreign.at(claim.id), options, "test"}, skipped);
    benchmark.skipped_claims += skipped ? 1 : 0;
    for (auto& example : group) {
      for (const auto& source : example.sources) test_abstracts.insert(source.doc_id);
      test.push_back(std::move(example));
    }
  }
  // Train claims whose family reaches a test abstract are dropped before the folds are drawn.
  const auto families = family_documents(train_claims);
  std::vector<const dataset::Claim*> kept;
  std::vector<std::vector<std::string>> kept_documents;
  for (std::size_t i = 0; i < train_claims.size(); ++i) {
    const bool touches = std::any_of(families[i].begin(), families[i].end(), [&](const std::string& doc) { return test_abstracts.contains(doc); });
    if (touches) {
      benchmark.dropped_train_claims += train_claims[i].evidence.empty() ? 0 : 1;
      continue;
    }
    kept.push_back(&train_claims[i]);
    kept_documents.push_back(claim_documents(train_claims[i]));
  }
  const auto folds = verification::family_folds(kept_documents, options.folds);
  std::vector<Example> train, dev;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i]->evidence.empty()) continue;
    const bool is_dev = folds[i] == options.dev_fold;
    bool skipped = false;
    auto group = build_group({*kept[i], index, foreign.at(kept[i]->id), options, is_dev ? "dev" : "train"}, skipped);
    benchmark.skipped_claims += skipped ? 1 : 0;
    auto& target = is_dev ? dev : train;
    for (auto& example : group) target.push_back(std::move(example));
  }
  for (auto* part : {&train, &dev, &test}) {
    for (auto& example : *part) benchmark.examples.push_back(std::move(example));
  }
  std::set<std::string> ids;
  for (const auto& example : benchmark.examples) {
    if (!ids.insert(example.id).second) throw InternalError("sufficiency benchmark: duplicate example id " + example.id);
  }
  return benchmark;
}

}  // namespace claimrag::sufficiency
