#include "claimrag/retrieval/claim_features.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/fusion/rrf.hpp"
#include "claimrag/text/character_grams.hpp"
#include "claimrag/text/porter_stemmer.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::retrieval {
namespace {

struct SentenceBest {
  std::vector<double> first;   ///< per abstract, its best sentence's score
  std::vector<double> second;  ///< per abstract, its second-best sentence's score
};

SentenceBest best_sentences(const AbstractIndexes& indexes, const PostingImpacts& sentences, std::string_view claim) {
  const auto scores = sentences.score_all(count_terms(sentences.index(), claim));
  SentenceBest best{std::vector<double>(indexes.document_count(), 0.0), std::vector<double>(indexes.document_count(), 0.0)};
  for (std::size_t d = 0; d < indexes.document_count(); ++d) {
    for (std::uint32_t s = indexes.sentence_offsets[d]; s < indexes.sentence_offsets[d + 1]; ++s) {
      if (scores[s] > best.first[d]) {
        best.second[d] = best.first[d];
        best.first[d] = scores[s];
      } else if (scores[s] > best.second[d]) {
        best.second[d] = scores[s];
      }
    }
  }
  return best;
}

double max_of(const std::vector<double>& scores) {
  return scores.empty() ? 0.0 : *std::max_element(scores.begin(), scores.end());
}

bool abstract_has_term(const AbstractIndexes& indexes, std::uint32_t document, std::uint32_t term) {
  const auto begin = indexes.forward_terms.begin() + static_cast<std::ptrdiff_t>(indexes.forward_offsets[document]);
  const auto end = indexes.forward_terms.begin() + static_cast<std::ptrdiff_t>(indexes.forward_offsets[document + 1]);
  return std::binary_search(begin, end, term);
}

std::vector<std::uint64_t> claim_bigrams(const bm25::InvertedIndex& whole, std::string_view claim) {
  std::vector<std::uint64_t> bigrams;
  std::int64_t previous = -1;
  text::for_each_token(claim, [&](std::string_view token) {
    const std::int64_t term = whole.term_id(token);
    if (previous >= 0 && term >= 0) {
      bigrams.push_back(pack_bigram(static_cast<std::uint32_t>(previous), static_cast<std::uint32_t>(term)));
    }
    previous = term;
  });
  std::sort(bigrams.begin(), bigrams.end());
  bigrams.erase(std::unique(bigrams.begin(), bigrams.end()), bigrams.end());
  return bigrams;
}

/// The idf of each of the claim's distinct terms, and their sum: the same for every candidate.
struct ClaimIdf {
  std::vector<double> idf;  ///< parallel to the query's terms
  double total = 0;
};

ClaimIdf claim_idf(const AbstractIndexes& indexes, std::span<const WeightedTerm> query) {
  ClaimIdf result;
  for (const auto& term : query) {
    result.idf.push_back(bm25_idf(indexes.whole, term.term));
    result.total += result.idf.back();
  }
  return result;
}

/// Σ idf of the claim's distinct terms found in `document` over Σ idf of all of them.
double idf_coverage(const AbstractIndexes& indexes, std::span<const WeightedTerm> query, const ClaimIdf& idf,
                    std::uint32_t document) {
  double covered = 0;
  for (std::size_t t = 0; t < query.size(); ++t) {
    if (abstract_has_term(indexes, document, query[t].term)) covered += idf.idf[t];
  }
  return idf.total > 0 ? covered / idf.total : 0.0;
}

double bigram_fraction(const AbstractIndexes& indexes, const std::vector<std::uint64_t>& bigrams, std::uint32_t document) {
  if (bigrams.empty()) return 0.0;
  std::size_t found = 0;
  for (const auto bigram : bigrams) found += indexes.has_bigram(document, bigram) ? 1 : 0;
  return static_cast<double>(found) / static_cast<double>(bigrams.size());
}

}  // namespace

const std::array<std::string, kClaimFeatureCount>& claim_feature_names() {
  static const std::array<std::string, kClaimFeatureCount> names = {
      "bm25", "rm3", "sentence_max", "bm25_relative", "rm3_relative", "sentence_max_relative", "sentence_second",
      "title", "coverage", "bigram_fraction", "bm25_rrf", "rm3_rrf", "sentence_rrf", "log_length",
      "exact_bm25", "exact_bm25_relative", "exact_sentence_max", "gram_bm25", "gram_bm25_relative", "abstract_prior"};
  return names;
}

std::vector<std::uint32_t> ranks_among(const std::vector<double>& scores, const std::vector<std::uint32_t>& positions) {
  std::vector<std::uint32_t> order(positions.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return scores[positions[a]] > scores[positions[b]]; });
  std::vector<std::uint32_t> ranks(positions.size());
  for (std::uint32_t r = 0; r < order.size(); ++r) ranks[order[r]] = r + 1;
  return ranks;
}

ClaimFeaturizer::ClaimFeaturizer(const AbstractIndexes& indexes, ClaimFeatureOptions options)
    : indexes_(indexes),
      options_(options),
      whole_(indexes.whole, options.whole),
      titles_(indexes.titles, options.title),
      sentences_(indexes.sentences, options.sentence),
      exact_(indexes.exact, options.whole),
      exact_sentences_(indexes.exact_sentences, options.sentence),
      grams_(indexes.grams, options.whole) {
  if (options_.depth == 0) throw UsageError("claim features: depth must be at least 1");
  if (!(options_.rrf_k > 0)) throw UsageError("claim features: rrf_k must be positive");
}

ClaimCandidates ClaimFeaturizer::candidates(std::string_view claim, std::span<const double> prior) const {
  if (!prior.empty() && prior.size() != indexes_.document_count()) {
    throw UsageError("claim features: " + std::to_string(prior.size()) + " prior values for " +
                     std::to_string(indexes_.document_count()) + " abstracts");
  }
  const std::string stemmed_claim = text::stem_text(claim, indexes_.stemmer);
  const auto query = count_terms(indexes_.whole, stemmed_claim);
  const auto bm25 = whole_.score_all(query);
  const auto rm3 = whole_.score_all(rm3_query(indexes_, query, bm25, options_.feedback));
  const auto sentences = best_sentences(indexes_, sentences_, stemmed_claim);
  const auto exact = exact_.score_all(count_terms(indexes_.exact, claim));
  const auto exact_sentences = best_sentences(indexes_, exact_sentences_, claim);
  const auto title = titles_.score_all(count_terms(indexes_.titles, stemmed_claim));
  const auto grams = grams_.score_all(count_terms(indexes_.grams, text::character_grams(claim, indexes_.gram_size)));

  ClaimCandidates result;
  for (const auto* run : {&bm25, &rm3, &sentences.first, &exact}) {
    const auto top = top_positions(*run, options_.depth);
    result.documents.insert(result.documents.end(), top.begin(), top.end());
  }
  if (options_.gram_depth > 0) {
    const auto top = top_positions(grams, options_.gram_depth);
    result.documents.insert(result.documents.end(), top.begin(), top.end());
  }
  std::sort(result.documents.begin(), result.documents.end());
  result.documents.erase(std::unique(result.documents.begin(), result.documents.end()), result.documents.end());

  const auto bm25_rank = ranks_among(bm25, result.documents);
  const auto rm3_rank = ranks_among(rm3, result.documents);
  const auto sentence_rank = ranks_among(sentences.first, result.documents);
  const double bm25_best = max_of(bm25), rm3_best = max_of(rm3), sentence_best = max_of(sentences.first);
  const double exact_best = max_of(exact), gram_best = max_of(grams);
  const auto relative = [](double score, double best) { return best > 0 ? score / best : 0.0; };
  const auto bigrams = claim_bigrams(indexes_.whole, stemmed_claim);
  const auto reciprocal = [&](std::uint32_t rank) { return fusion::rrf_term(options_.rrf_k, rank); };
  const ClaimIdf idf = claim_idf(indexes_, query);

  for (std::size_t i = 0; i < result.documents.size(); ++i) {
    const std::uint32_t d = result.documents[i];
    result.features.push_back({bm25[d],
                               rm3[d],
                               sentences.first[d],
                               relative(bm25[d], bm25_best),
                               relative(rm3[d], rm3_best),
                               relative(sentences.first[d], sentence_best),
                               sentences.second[d],
                               title[d],
                               idf_coverage(indexes_, query, idf, d),
                               bigram_fraction(indexes_, bigrams, d),
                               reciprocal(bm25_rank[i]),
                               reciprocal(rm3_rank[i]),
                               reciprocal(sentence_rank[i]),
                               std::log(1.0 + indexes_.whole.doc_lengths()[d]),
                               exact[d],
                               relative(exact[d], exact_best),
                               exact_sentences.first[d],
                               grams[d],
                               relative(grams[d], gram_best),
                               prior.empty() ? 0.0 : prior[d]});
  }
  return result;
}

}  // namespace claimrag::retrieval
