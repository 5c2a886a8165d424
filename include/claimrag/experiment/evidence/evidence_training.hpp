#pragma once
// Training the evidence verifier on a BEIR folder's train split, as the paper does.
//
// Positives ("pseudo", the paper's): for every relevant document of a train claim (qrels grade
// > 0), the sentence with the highest TF-IDF cosine to the claim; the vectorizer is fitted on
// every document's title + " " + text with max_features 50,000. Positives ("gold", beyond the
// paper): the splitter's sentences overlapping a SciFact rationale sentence of the claim
// (original/claims_<split>.jsonl; claims without rationales give none).
// Negatives: evidence::sample_training_pairs over BM25's ranking of the claim (k1, b from the
// configuration), negatives_per_positive per positive from the top negative_documents
// non-relevant documents, whose relevant set is the qrels' relevant documents plus, for gold,
// the rationale documents.
// An earlier stage's models of the same corpus (the reranker's feature extractor: its BM25 index
// and its TF-IDF vectorizer) stand in for the ones training would build, when they provably
// equal them: the same corpus checksum, and for the vectorizer the same max_features; the BM25
// index read from its file equals the one built in memory (bm25/streaming_build.hpp).
// Seed use: one std::mt19937_64 seeded with the configuration's seed draws the negatives, then
// initialises the model, then shuffles every epoch, in that order.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/evidence/training_pairs.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/rerank/features.hpp"
#include "claimrag/verifier/model.hpp"
#include "claimrag/verifier/vocabulary.hpp"

namespace claimrag::experiment {

/// The corpus, the claims and the corpus's sentences of a BEIR folder, loaded once.
class EvidenceData {
 public:
  EvidenceData(const std::filesystem::path& beir_folder, std::size_t min_sentence_characters);
  EvidenceData(const EvidenceData&) = delete;
  EvidenceData& operator=(const EvidenceData&) = delete;

  [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }
  [[nodiscard]] const dataset::Corpus& corpus() const { return *corpus_; }
  [[nodiscard]] const evidence::CorpusSentences& sentences() const { return *sentences_; }
  /// Every query of queries.jsonl.
  [[nodiscard]] const std::vector<dataset::Query>& queries() const { return queries_; }

 private:
  std::filesystem::path folder_;
  std::unique_ptr<dataset::Corpus> corpus_;
  std::unique_ptr<evidence::CorpusSentences> sentences_;
  std::vector<dataset::Query> queries_;
};

/// The pseudo-gold rationales' TF-IDF vectorizer of `data`'s corpus: `built`'s where it equals it
/// (see the top of this file), else one fitted into `fitted`, which must outlive its use.
const tfidf::TfidfVectorizer& pseudo_gold_vectorizer(const EvidenceData& data, const rerank::FeatureExtractor* built,
                                                     std::optional<tfidf::TfidfVectorizer>& fitted);

/// Where a split's SciFact claims are in the release layout: claims_dev.jsonl for "test" (the
/// BEIR test claims are SciFact's dev claims), claims_<split>.jsonl otherwise.
std::filesystem::path original_claims_file(const std::filesystem::path& original_folder, const std::string& split);

/// The labelled pairs of `split`'s judged claims. `rationales` is "pseudo" or "gold"; "gold"
/// reads `original_folder` (UsageError for anything else, DataError for unreadable files).
/// `built` (optional) is an extractor of a corpus whose models are reused where they equal the
/// ones this would build (see the top of this file); the pairs are the same either way.
std::vector<evidence::LabelledPair> verifier_training_pairs(const EvidenceData& data, const ExperimentConfig& config,
                                                            const std::string& split, const std::string& rationales,
                                                            const std::filesystem::path& original_folder,
                                                            std::mt19937_64& rng,
                                                            const rerank::FeatureExtractor* built = nullptr);

/// A trained verifier with the vocabulary it reads.
struct EvidenceVerifier {
  verifier::Vocabulary vocabulary;
  std::unique_ptr<verifier::VerifierModel<float>> model;
  std::vector<double> epoch_losses;
};

/// The network sizes of the configuration.
verifier::VerifierOptions verifier_options(const VerifierConfig& config);

/// Builds the vocabulary from the pairs' distinct claims and distinct sentences (min count from
/// the configuration), initialises the model and trains it on `pairs` (not empty).
EvidenceVerifier train_evidence_verifier(const std::vector<evidence::LabelledPair>& pairs, const VerifierConfig& config,
                                         bool log_progress, std::mt19937_64& rng);

/// The probability of the evidence class for each (claim, sentence) pair. Pairs longer than the
/// model's max_length are truncated as verifier::truncate_pair says (the sentence's tail goes
/// first); the scores thus depend only on the first tokens of a very long sentence.
std::vector<double> evidence_scores(const EvidenceVerifier& verifier, const std::vector<std::string>& claims,
                                    const std::vector<std::string>& sentences, std::size_t batch_size);

}  // namespace claimrag::experiment
