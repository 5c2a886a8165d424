#include "claimrag/dataset/synthetic_corpus.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "claimrag/error.hpp"

namespace claimrag::dataset {
namespace {

double uniform(std::mt19937_64& generator) { return static_cast<double>(generator() >> 11) * 0x1.0p-53; }

std::uint32_t draw_length(std::mt19937_64& generator, const std::vector<std::uint32_t>& lengths) {
  return lengths[static_cast<std::size_t>(generator() % lengths.size())];
}

std::string words(std::mt19937_64& generator, const ZipfWords& zipf, std::uint32_t length) {
  std::string text;
  for (std::uint32_t i = 0; i < length; ++i) {
    if (i > 0) text += ' ';
    text += 't' + std::to_string(zipf.rank(uniform(generator)));
  }
  return text;
}

void check_lengths(const std::vector<std::uint32_t>& lengths) {
  if (lengths.empty() || std::all_of(lengths.begin(), lengths.end(), [](std::uint32_t l) { return l == 0; })) {
    throw UsageError("synthetic corpus: needs at least one positive length");
  }
}

}  // namespace

ZipfWords::ZipfWords(std::size_t vocabulary, double exponent) {
  if (vocabulary == 0) throw UsageError("synthetic corpus: the vocabulary must not be empty");
  if (!(exponent >= 0)) throw UsageError("synthetic corpus: the Zipf exponent must be >= 0");
  cumulative_.resize(vocabulary);
  double total = 0.0;
  for (std::size_t r = 0; r < vocabulary; ++r) {
    total += std::pow(static_cast<double>(r + 1), -exponent);
    cumulative_[r] = total;
  }
  for (auto& c : cumulative_) c /= total;
}

std::size_t ZipfWords::rank(double u) const {
  const auto found = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  // u < 1 = the last cumulative value up to rounding; clamp in case rounding left it just below.
  return std::min(static_cast<std::size_t>(found - cumulative_.begin()), cumulative_.size() - 1) + 1;
}

struct SyntheticDocuments::State {
  explicit State(const SyntheticCorpusOptions& options)
      : lengths((check_lengths(options.lengths), options.lengths)),
        zipf(options.vocabulary, options.zipf_exponent),
        generator(options.seed) {}
  std::vector<std::uint32_t> lengths;
  ZipfWords zipf;
  std::mt19937_64 generator;
  std::size_t produced = 0;
};

SyntheticDocuments::SyntheticDocuments(const SyntheticCorpusOptions& options) : state_(std::make_unique<State>(options)) {}
SyntheticDocuments::~SyntheticDocuments() = default;

Document SyntheticDocuments::next() {
  State& s = *state_;
  const std::uint32_t length = std::max<std::uint32_t>(1, draw_length(s.generator, s.lengths));
  return {"s" + std::to_string(s.produced++), "", words(s.generator, s.zipf, length)};
}

Corpus synthetic_corpus(std::size_t documents, const SyntheticCorpusOptions& options) {
  SyntheticDocuments source(options);
  Corpus corpus;
  corpus.documents.reserve(documents);
  for (std::size_t d = 0; d < documents; ++d) {
    corpus.documents.push_back(source.next());
    corpus.position.emplace(corpus.documents.back().id, static_cast<std::uint32_t>(d));
  }
  return corpus;
}

std::vector<std::string> synthetic_claims(std::size_t count, const std::vector<std::uint32_t>& lengths,
                                          const SyntheticCorpusOptions& options) {
  check_lengths(lengths);
  const ZipfWords zipf(options.vocabulary, options.zipf_exponent);
  std::mt19937_64 generator(options.seed + 1);
  std::vector<std::string> claims;
  claims.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    claims.push_back(words(generator, zipf, std::max<std::uint32_t>(1, draw_length(generator, lengths))));
  }
  return claims;
}

}  // namespace claimrag::dataset
