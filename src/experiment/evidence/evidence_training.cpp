#include "claimrag/experiment/evidence/evidence_training.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/metrics/evidence.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "claimrag/tfidf/vectorizer.hpp"
#include "claimrag/verifier/training.hpp"

namespace claimrag::experiment {
namespace {

std::vector<std::string> relevant_documents(const std::map<std::string, int>& judged) {
  std::vector<std::string> relevant;
  for (const auto& [doc_id, grade] : judged) {
    if (grade > 0) relevant.push_back(doc_id);
  }
  return relevant;
}

/// The judged claims of the split with their relevant documents and no positives yet.
std::vector<evidence::TrainingClaim> judged_claims(const EvidenceData& data, const std::string& split) {
  const auto qrels = dataset::load_split(data.folder(), split);
  const auto queries = dataset::queries_of_split(data.queries(), qrels, (data.folder() / "qrels" / (split + ".tsv")).string());
  std::vector<evidence::TrainingClaim> claims;
  for (const auto& query : queries) {
    claims.push_back({query.id, query.text, {}, relevant_documents(qrels.judgments.at(query.id)), nullptr});
  }
  return claims;
}

constexpr std::size_t kPseudoGoldMaxFeatures = 50000;

/// Whether `built` was made from the corpus of `data` (checksums of corpus.jsonl equal).
bool of_same_corpus(const rerank::FeatureExtractor* built, const EvidenceData& data) {
  return built != nullptr && built->definition().corpus_checksum == data.corpus().checksum &&
         built->index().corpus_checksum() == data.corpus().checksum;
}

void add_pseudo_gold(const EvidenceData& data, std::vector<evidence::TrainingClaim>& claims, const rerank::FeatureExtractor* built) {
  std::optional<tfidf::TfidfVectorizer> fitted;
  const tfidf::TfidfVectorizer& vectorizer = pseudo_gold_vectorizer(data, built, fitted);
  parallel_for(claims.size(), [&](std::size_t c) {
    claims[c].positives = evidence::pseudo_gold(claims[c].claim, claims[c].relevant_doc_ids, data.sentences(), vectorizer);
  });
}

void add_gold_rationales(const EvidenceData& data, const std::filesystem::path& claims_file,
                         const std::filesystem::path& original_folder, std::vector<evidence::TrainingClaim>& claims) {
  const auto abstracts = dataset::load_abstracts(original_folder / "corpus.jsonl");
  std::map<std::string, dataset::Claim> by_id;
  for (auto& claim : dataset::load_claims(claims_file, &abstracts)) by_id.emplace(claim.id, std::move(claim));
  for (auto& claim : claims) {
    const auto found = by_id.find(claim.claim_id);
    if (found == by_id.end()) continue;
    std::set<std::pair<std::string, std::size_t>> seen;
    for (const auto& span : metrics::rationale_spans(found->second, abstracts)) {
      const std::int64_t position = data.corpus().find(span.doc_id);
      if (position < 0) throw DataError(claims_file.string(), "rationale document " + span.doc_id + " is absent from the BEIR corpus");
      for (auto& sentence : evidence::sentences_overlapping(data.sentences(), static_cast<std::size_t>(position), span.begin, span.end)) {
        if (seen.emplace(sentence.doc_id, sentence.index).second) claim.positives.push_back(std::move(sentence));
      }
      if (std::find(claim.relevant_doc_ids.begin(), claim.relevant_doc_ids.end(), span.doc_id) == claim.relevant_doc_ids.end()) {
        claim.relevant_doc_ids.push_back(span.doc_id);
      }
    }
  }
}

/// BM25 rankings of the claims, deep enough to hold negative_documents non-relevant documents.
run::Run bm25_rankings(const EvidenceData& data, const std::vector<evidence::TrainingClaim>& claims, const ExperimentConfig& config,
                       const rerank::FeatureExtractor* built) {
  std::optional<bm25::InvertedIndex> own;
  if (!of_same_corpus(built, data)) own = bm25::build_index(data.corpus(), data.corpus().checksum);
  const bm25::InvertedIndex& index = own ? *own : built->index();
  const bm25::Searcher searcher(index, config.bm25.parameters);
  std::size_t most_relevant = 0;
  std::vector<std::string_view> texts;
  for (const auto& claim : claims) {
    most_relevant = std::max(most_relevant, claim.relevant_doc_ids.size());
    texts.emplace_back(claim.claim);
  }
  const auto hits = searcher.search_many(texts, config.verifier.negative_documents + most_relevant);
  run::Run run;
  run.tag = "bm25";
  for (std::size_t q = 0; q < claims.size(); ++q) run.add(bm25::to_ranking(index, claims[q].claim_id, hits[q]));
  return run;
}

}  // namespace

EvidenceData::EvidenceData(const std::filesystem::path& beir_folder, std::size_t min_sentence_characters)
    : folder_(beir_folder),
      corpus_(std::make_unique<dataset::Corpus>(dataset::load_corpus(beir_folder / "corpus.jsonl"))),
      sentences_(std::make_unique<evidence::CorpusSentences>(*corpus_, min_sentence_characters)),
      queries_(dataset::load_queries(beir_folder / "queries.jsonl")) {}

const tfidf::TfidfVectorizer& pseudo_gold_vectorizer(const EvidenceData& data, const rerank::FeatureExtractor* built,
                                                     std::optional<tfidf::TfidfVectorizer>& fitted) {
  if (of_same_corpus(built, data) && built->definition().tfidf_max_features == kPseudoGoldMaxFeatures) return built->vectorizer();
  fitted = tfidf::TfidfVectorizer::fit(data.corpus().full_texts(), {.max_features = kPseudoGoldMaxFeatures});
  return *fitted;
}

std::filesystem::path original_claims_file(const std::filesystem::path& original_folder, const std::string& split) {
  return original_folder / (split == "test" ? std::string("claims_dev.jsonl") : "claims_" + split + ".jsonl");
}

std::vector<evidence::LabelledPair> verifier_training_pairs(const EvidenceData& data, const ExperimentConfig& config,
                                                            const std::string& split, const std::string& rationales,
                                                            const std::filesystem::path& original_folder,
                                                            std::mt19937_64& rng, const rerank::FeatureExtractor* built) {
  auto claims = judged_claims(data, split);
  if (rationales == "pseudo") {
    add_pseudo_gold(data, claims, built);
  } else if (rationales == "gold") {
    add_gold_rationales(data, original_claims_file(original_folder, split), original_folder, claims);
  } else {
    throw UsageError("rationales must be \"pseudo\" or \"gold\", not \"" + rationales + "\"");
  }
  const run::Run rankings = bm25_rankings(data, claims, config, built);
  for (auto& claim : claims) claim.ranking = rankings.find(claim.claim_id);
  return evidence::sample_training_pairs(claims, data.sentences(),
                                         {config.verifier.negatives_per_positive, config.verifier.negative_documents}, rng,
                                         "BM25 ranking of split " + split);
}

verifier::VerifierOptions verifier_options(const VerifierConfig& config) {
  verifier::VerifierOptions options;
  options.num_classes = config.num_classes;
  options.d_model = static_cast<Eigen::Index>(config.d_model);
  options.heads = static_cast<Eigen::Index>(config.heads);
  options.d_ff = static_cast<Eigen::Index>(config.d_ff);
  options.max_length = config.max_length;
  return options;
}

EvidenceVerifier train_evidence_verifier(const std::vector<evidence::LabelledPair>& pairs, const VerifierConfig& config,
                                         bool log_progress, std::mt19937_64& rng) {
  if (pairs.empty()) throw DataError("the verifier has no training pairs (no train claim has a positive sentence)");
  std::vector<std::vector<std::string>> texts;
  std::set<std::string> claims_seen;
  std::set<std::pair<std::string, std::size_t>> sentences_seen;
  for (const auto& pair : pairs) {
    if (claims_seen.insert(pair.claim_id).second) texts.push_back(text::tokenize(pair.claim));
    if (sentences_seen.emplace(pair.sentence.doc_id, pair.sentence.index).second) texts.push_back(text::tokenize(pair.sentence.text));
  }
  EvidenceVerifier trained{verifier::Vocabulary::build(texts, {.min_count = config.vocabulary_min_count}), nullptr, {}};
  trained.model = std::make_unique<verifier::VerifierModel<float>>(trained.vocabulary.size(), verifier_options(config), rng);
  verifier::TrainingSet set;
  set.pairs.resize(pairs.size());
  parallel_for(pairs.size(), [&](std::size_t i) {
    set.pairs[i] = verifier::encode_pair(trained.vocabulary, text::tokenize(pairs[i].claim), text::tokenize(pairs[i].sentence.text),
                                         config.max_length);
  });
  for (const auto& pair : pairs) set.labels.push_back(pair.label);
  verifier::TrainingOptions options;
  options.epochs = config.epochs;
  options.batch_size = config.batch_size;
  options.chunk_size = config.chunk_size;
  options.adam.learning_rate = config.learning_rate;
  options.log_progress = log_progress;
  trained.epoch_losses = verifier::train_verifier(*trained.model, set, options, rng);
  return trained;
}

std::vector<double> evidence_scores(const EvidenceVerifier& verifier, const std::vector<std::string>& claims,
                                    const std::vector<std::string>& sentences, std::size_t batch_size) {
  if (claims.size() != sentences.size()) throw InternalError("evidence_scores: one claim per sentence expected");
  std::vector<verifier::EncodedPair> pairs(claims.size());
  const std::size_t max_length = verifier.model->options().max_length;
  parallel_for(claims.size(), [&](std::size_t i) {
    pairs[i] = verifier::encode_pair(verifier.vocabulary, text::tokenize(claims[i]), text::tokenize(sentences[i]), max_length);
  });
  std::vector<double> scores(pairs.size());
  if (pairs.empty()) return scores;
  const auto probabilities = verifier::predict_probabilities(*verifier.model, pairs, batch_size);
  for (std::size_t i = 0; i < pairs.size(); ++i) scores[i] = probabilities(static_cast<Eigen::Index>(i), evidence::kPositiveLabel);
  return scores;
}

}  // namespace claimrag::experiment
