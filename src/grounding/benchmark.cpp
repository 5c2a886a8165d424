#include "claimrag/grounding/benchmark.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/grounding/claim_segmenter.hpp"
#include "claimrag/verification/gold.hpp"

namespace claimrag::grounding {
namespace {

using verification::Label;

bool eligible(const std::string& sentence) {
  const auto pieces = segment_claims("A. " + sentence + " B.");
  return pieces.size() == 3 && pieces[1].text == sentence;
}

/// The claims' documents: cited ones, then evidence ones, each once, in that order.
std::vector<std::string> claim_documents(const dataset::Claim& claim) {
  std::vector<std::string> documents;
  const auto add = [&](const std::string& doc_id) {
    if (std::find(documents.begin(), documents.end(), doc_id) == documents.end()) documents.push_back(doc_id);
  };
  for (const auto& doc_id : claim.cited_doc_ids) add(doc_id);
  for (const auto& [doc_id, sets] : claim.evidence) add(doc_id);
  return documents;
}

/// Families of claim indices (union-find over shared documents), in order of their first claim.
std::vector<std::vector<std::size_t>> families(const std::vector<dataset::Claim>& claims, const std::vector<std::size_t>& members) {
  std::vector<std::size_t> parent(claims.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::map<std::string, std::size_t> owner;
  for (const std::size_t c : members) {
    for (const auto& doc_id : claim_documents(claims[c])) {
      const auto [found, fresh] = owner.emplace(doc_id, c);
      if (!fresh) parent[find(c)] = find(found->second);
    }
  }
  std::vector<std::vector<std::size_t>> grouped;
  std::map<std::size_t, std::size_t> group_of_root;
  for (const std::size_t c : members) {
    const auto [found, fresh] = group_of_root.emplace(find(c), grouped.size());
    if (fresh) grouped.emplace_back();
    grouped[found->second].push_back(c);
  }
  return grouped;
}

/// `sequence` cut into ceil(n / max) pieces of near-equal size (the larger ones first).
std::vector<std::vector<std::size_t>> cut(const std::vector<std::size_t>& sequence, std::size_t max_claims) {
  std::vector<std::vector<std::size_t>> pieces;
  if (sequence.empty()) return pieces;
  const std::size_t count = (sequence.size() + max_claims - 1) / max_claims;
  std::size_t at = 0;
  for (std::size_t p = 0; p < count; ++p) {
    const std::size_t size = sequence.size() / count + (p < sequence.size() % count ? 1 : 0);
    pieces.emplace_back(sequence.begin() + static_cast<std::ptrdiff_t>(at), sequence.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return pieces;
}

/// Step 6 of the header: `count` claims of `members` about nothing in the answer's context.
void append_unrelated(BenchmarkAnswer& answer, const std::vector<dataset::Claim>& claims, const std::vector<std::size_t>& members,
                      const std::vector<std::string>& sentences, const std::set<std::string>& in_context, std::size_t count,
                      std::mt19937_64& generator) {
  if (count == 0) return;
  std::vector<std::size_t> candidates;
  for (const std::size_t c : members) {
    const auto documents = claim_documents(claims[c]);
    const bool about_context = std::any_of(documents.begin(), documents.end(), [&](const std::string& d) { return in_context.contains(d); });
    const bool in_answer = std::any_of(answer.claims.begin(), answer.claims.end(),
                                       [&](const BenchmarkClaim& claim) { return claim.claim_id == claims[c].id; });
    if (!about_context && !in_answer) candidates.push_back(c);
  }
  for (std::size_t taken = 0; taken < count && !candidates.empty(); ++taken) {
    const std::size_t pick = static_cast<std::size_t>(generator() % candidates.size());
    const std::size_t c = candidates[pick];
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(pick));
    answer.answer += " " + sentences[c];
    answer.claims.push_back({claims[c].id, sentences[c], verification::Label::not_enough_info, true});
  }
}

}  // namespace

std::string answer_sentence(std::string_view claim_text) {
  const auto begin = claim_text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = claim_text.find_last_not_of(" \t\r\n");
  std::string sentence(claim_text.substr(begin, end - begin + 1));
  const char last = sentence.back();
  if (last != '.' && last != '!' && last != '?') sentence += '.';
  return sentence;
}

Benchmark build_benchmark(const std::vector<dataset::Claim>& claims, const run::Run& decoys, const BenchmarkOptions& options) {
  if (options.min_claims < 1 || options.max_claims < options.min_claims || options.rounds < 1) {
    throw UsageError("grounding benchmark: need 1 <= min_claims <= max_claims and rounds >= 1");
  }
  Benchmark benchmark;
  std::vector<std::string> sentences(claims.size());
  std::vector<std::size_t> members;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    sentences[c] = answer_sentence(claims[c].text);
    if (eligible(sentences[c])) {
      members.push_back(c);
    } else {
      ++benchmark.skipped_claims;
    }
  }
  const auto grouped = families(claims, members);
  std::mt19937_64 generator(options.seed);
  std::mt19937_64 unrelated_generator(options.seed + 1);
  for (std::size_t round = 0; round < options.rounds; ++round) {
    std::vector<std::vector<std::size_t>> pieces;
    std::vector<std::size_t> pool;
    for (const auto& family : grouped) {
      if (family.size() < options.min_claims) {
        pool.insert(pool.end(), family.begin(), family.end());
        continue;
      }
      std::array<std::vector<std::size_t>, 3> buckets;
      for (const std::size_t c : family) buckets[static_cast<int>(verification::claim_label(claims[c]))].push_back(c);
      for (auto& bucket : buckets) shuffle_portably(bucket, generator);
      std::vector<std::size_t> sequence;
      for (std::size_t i = 0; sequence.size() < family.size(); ++i) {
        for (const auto& bucket : buckets) {
          if (i < bucket.size()) sequence.push_back(bucket[i]);
        }
      }
      for (auto& piece : cut(sequence, options.max_claims)) pieces.push_back(std::move(piece));
    }
    shuffle_portably(pool, generator);
    for (auto& piece : cut(pool, options.max_claims)) pieces.push_back(std::move(piece));
    for (const auto& piece : pieces) {
      if (piece.size() < options.min_claims) {
        benchmark.dropped_claims += piece.size();
        continue;
      }
      BenchmarkAnswer answer;
      answer.id = options.id_prefix + "-r" + std::to_string(round) + "-" + std::to_string(benchmark.answers.size());
      std::set<std::string> in_context;
      const auto add = [&](const std::string& doc_id) {
        if (in_context.insert(doc_id).second) answer.context_doc_ids.push_back(doc_id);
      };
      for (const std::size_t c : piece) {
        answer.answer += (answer.answer.empty() ? "" : " ") + sentences[c];
        answer.claims.push_back({claims[c].id, sentences[c], verification::claim_label(claims[c])});
        for (const auto& doc_id : claim_documents(claims[c])) add(doc_id);
      }
      answer.gold_documents = answer.context_doc_ids.size();
      for (const std::size_t c : piece) {
        const run::Ranking* ranking = decoys.find(claims[c].id);
        if (ranking == nullptr) continue;
        std::size_t taken = 0;
        for (const auto& ranked : ranking->documents) {
          if (taken == options.decoys_per_claim) break;
          if (in_context.contains(ranked.doc_id)) continue;
          add(ranked.doc_id);
          ++taken;
        }
      }
      append_unrelated(answer, claims, members, sentences, in_context, options.unrelated_per_answer, unrelated_generator);
      const auto segmented = segment_claims(answer.answer);
      if (segmented.size() != answer.claims.size()) throw InternalError("grounding benchmark: answer " + answer.id + " does not segment into its claims");
      for (std::size_t c = 0; c < segmented.size(); ++c) {
        if (segmented[c].text != answer.claims[c].text) throw InternalError("grounding benchmark: answer " + answer.id + " does not segment into its claims");
      }
      benchmark.answers.push_back(std::move(answer));
    }
  }
  return benchmark;
}

std::vector<std::size_t> frozen_sample(std::size_t answers, std::size_t sample_size, std::uint64_t seed) {
  std::vector<std::size_t> indices(answers);
  std::iota(indices.begin(), indices.end(), 0);
  std::mt19937_64 generator(seed);
  shuffle_portably(indices, generator);
  indices.resize(std::min(sample_size, answers));
  std::sort(indices.begin(), indices.end());
  return indices;
}

}  // namespace claimrag::grounding
