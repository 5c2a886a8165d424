#pragma once
// The experiment configuration (configs/<name>.json): inputs and every stage's parameters.
// Nothing tunable lives in code. Without --config a subcommand uses the shipped configuration,
// the bytes of configs/scifact.json compiled into the binary (experiment/shipped_files.hpp). Keys
// absent from a file take the defaults below (docs/configuration.md lists them and where they
// differ from the shipped values); an unknown key or a value of the wrong type is a UsageError
// naming the key. Relative paths in the file
// (data.beir, data.original, expected, paper) are resolved against the folder of the file, so a
// configuration means the same thing from any working directory; load_config stores them resolved.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/abstention/comparison.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dense/dual_encoder.hpp"
#include "claimrag/experiment/retrieval/lexical_ranker_config.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/sufficiency/evaluation.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::experiment {

struct DataConfig {
  std::string name;      ///< the dataset's name, for people reading the outputs
  std::string beir;      ///< BEIR folder (reproduce needs it)
  std::string original;  ///< SciFact release layout (gold rationales); empty: none
  std::string train_split = "train";
  std::string test_split = "test";
};

struct Bm25Config {
  bm25::Bm25Parameters parameters;
  std::size_t depth = 200;  ///< documents retrieved per query
};

struct DenseConfig : dense::DenseOptions {
  std::size_t depth = 200;  ///< documents retrieved per query
};

struct GateConfig {
  std::string signal = "bm25_top1";     ///< Table 8's signal
  std::string thresholds = "10:40:5";   ///< Table 8's thresholds
  std::size_t hallucination_depth = 10;
  /// Signals compared by risk–coverage (those whose inputs the reproduction has).
  std::vector<std::string> compared_signals{"bm25_top1", "bm25_margin", "sparse_dense_rank", "sparse_dense_overlap"};
  /// The combined signal's features: signals computable for the training claims too.
  std::vector<std::string> combined_features{"bm25_top1", "bm25_margin", "sparse_dense_rank", "sparse_dense_overlap"};
};

/// "fusion": reciprocal rank fusion of the retrievers' runs (fusion/rrf.hpp).
struct FusionConfig {
  double rrf_k = 60.0;
  std::size_t depth = 200;  ///< documents read from each run and written per query
};

/// "rerank": the logistic-regression reranker (rerank/reranker.hpp).
struct RerankConfig {
  std::size_t train_depth = 100;     ///< BM25 candidates per train claim
  std::size_t rerank_depth = 50;     ///< documents of the input run that are reordered
  double C = 1.0;                    ///< inverse regularisation strength
  std::string class_weight = "balanced";  ///< "balanced" or "none"
  std::size_t max_features = 50000;  ///< TF-IDF vocabulary cap (0: no cap)
};

struct EvaluationConfig {
  std::string metrics = "ndcg@5,10,20,50,recall@10,100";
};

/// The sentence verifier and its training data. Training pairs: every positive sentence of a
/// train claim (pseudo-gold or gold rationale, see `rationales`) is paired with the claim, and
/// `negatives_per_positive` negatives per positive are drawn without replacement from the
/// sentences of BM25's top `negative_documents` non-relevant documents of that claim.
/// The experiment's `seed` drives one generator: the negatives' draws, then the model's
/// initialisation, then each epoch's shuffle. Sizes chosen so that training on SciFact's 3,676
/// pairs (919 positives) takes about a second on two cores.
struct VerifierConfig {
  int num_classes = 2;                      ///< 0 = not evidence, 1 = evidence; more classes stay unused
  std::size_t d_model = 64;
  std::size_t heads = 2;
  std::size_t d_ff = 128;
  std::size_t max_length = 64;              ///< tokens of [CLS] claim [SEP] sentence [SEP]; longer pairs are cut
  int epochs = 5;
  double learning_rate = 1e-3;
  std::size_t batch_size = 32;
  std::size_t chunk_size = 16;              ///< pairs per unit of parallel work (results depend on it)
  std::size_t scoring_batch_size = 64;
  std::size_t negatives_per_positive = 3;
  std::size_t negative_documents = 10;      ///< BM25's top non-relevant documents giving negatives
  std::size_t vocabulary_min_count = 2;
  std::string rationales = "pseudo";        ///< positives: "pseudo" (the paper's) or "gold" (SciFact's)
};

/// Evidence candidates and selection (the paper's: top-10 documents × top-3 sentences, top-2 kept).
struct EvidenceConfig {
  std::size_t candidate_documents = 10;
  std::size_t sentences_per_document = 3;
  std::size_t min_sentence_characters = 20;
  std::size_t selected = 2;
};

/// "verification.checkpoint": the verifier over a pretrained NLI checkpoint
/// (verification/checkpoint_verifier.hpp). `premise` and `threshold` are its rule wherever
/// `--verifier checkpoint:DIR` is used (max_rationale is verification.max_rationale); the
/// reproduction's checkpoint_verification stage, which runs when `verifier` names a checkpoint,
/// chooses them among premise_grid × threshold_grid by family-grouped cross-validation on the train
/// claims (verification.folds) and reports its choice.
struct CheckpointVerificationConfig {
  std::string verifier;  ///< "checkpoint:DIR" (DIR relative to the configuration's folder); empty: no stage
  std::string premise = "sentence";  ///< sentence, window or abstract
  double threshold = 0.5;
  std::size_t max_length = 0;        ///< tokens per pair; 0: the model's limit
  std::size_t batch_size = 32;
  /// The stacked verifier instead (verification/stacked_verifier.hpp): the built-in free-text
  /// verifier's and the checkpoint's probabilities read by a softmax regression fitted on the
  /// train claims (needs SciFact's release layout, as the built-in verifier does).
  bool stacked = false;
  /// What the checkpoint's labels mean, in id order (`--labels`; verification/checkpoint_verifier.hpp):
  /// {"unsupported", "supported"} for a MiniCheck checker. Empty: config.json's names.
  std::vector<std::string> labels;
  /// How the checkpoint reads a pair (`--checker`; verification/checker_verifier.hpp): nli (the
  /// premise rule above), minicheck or alignscore (chunks + EOS + claim; `threshold` then is the
  /// score above which a document supports the claim).
  std::string checker = "nli";
  std::size_t chunk_size = 0;  ///< the checkers' chunk size (`--chunk-size`); 0: the family's
  std::vector<std::string> premise_grid{"sentence", "window", "abstract"};
  std::vector<double> threshold_grid{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
};

/// "verification": the claim verifier (verification/trained_verifier.hpp) in the oracle and open
/// settings; runs when the original layout's train claims exist. The open setting's abstracts are
/// BM25's top k (bm25.k1, bm25.b) with k chosen among open_k_grid by cross-validation on train.
struct VerificationConfig {
  verification::VerificationOptions options;
  std::vector<std::size_t> open_k_grid{3, 5, 10};
  std::string paper;  ///< VeriSci's published numbers shown beside ours (configs/paper/verisci.json); empty: none
  /// `claimrag verify`: abstracts per claim when --k is not given (VeriSci's open setting keeps 3),
  /// and the k its trained verifier is fitted with, so that training matches use.
  std::size_t verify_k = 3;
  CheckpointVerificationConfig checkpoint;
};

/// "interrogation": multi-probe interrogation scored on SciFact (experiment/systems/interrogation_stage.hpp)
/// with the built-in responder. α is chosen among alpha_grid on the train claims' pairs.
struct InterrogationConfig {
  std::string probes = "probes.json";  ///< relative to the configuration's folder
  std::size_t samples = 10;            ///< K
  double temperature = 1.0;            ///< the built-in responder's sampling temperature
  std::size_t retrieved_k = 3;         ///< BM25's top k per claim; the uncited ones are Neutral pairs
  std::vector<double> alpha_grid{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  std::size_t bootstrap_resamples = 1000;
  std::string paper;  ///< CIBER's published numbers (configs/paper/ciber.json); empty: none
};

/// "sufficiency": the evidence-sufficiency benchmark built from SciFact and SURE-RAG on it
/// (sufficiency/benchmark.hpp, sufficiency/evaluation.hpp); its seed is the experiment's seed.
struct SufficiencyConfig {
  sufficiency::BenchmarkOptions benchmark;
  sufficiency::EvaluationOptions evaluation;
  std::string paper;  ///< SURE-RAG's published numbers shown beside ours (configs/paper/sure_rag.json); empty: none
};

/// "grounding": claim-level selective grounding (grounding/ground.hpp) and its SciFact benchmark
/// (grounding/benchmark.hpp). `ground` labels claims with support_threshold (τ_s),
/// conflict_threshold (τ_c), contradict_ratio (γ) and verdict_gates_support
/// (grounding/claim_judgement.hpp), chosen for the free-text verifier on two domains' benchmarks
/// (scripts/research/ground_defaults.py) and measured by the reproduction. The reproduction's seed
/// tables choose their own τ's on train claims (grounding/evaluation.hpp's choose_settings with
/// max_conflict_rate and min_recall), with the seed's rule (γ 1, no gate).
struct GroundingConfig {
  double support_threshold = 0.5;
  double conflict_threshold = 0.5;
  double contradict_ratio = 1.0;       ///< γ of `ground`'s rule, in (0, 10]
  bool verdict_gates_support = true;   ///< `ground`: a passage the verifier calls NOT_ENOUGH_INFO supports nothing
  std::size_t decoys_per_claim = 2;  ///< BM25's top abstracts of each claim added to an answer's context
  std::size_t min_claims = 2;        ///< claims per benchmark answer
  std::size_t max_claims = 4;
  std::size_t rounds = 5;            ///< benchmark rounds: each claim once per round, in other company
  std::size_t sample_size = 100;     ///< the frozen sample's answers
  std::vector<double> threshold_grid{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
                                     0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95};
  double max_conflict_rate = 0.02;
  double min_recall = 0.6;  ///< with max_conflict_rate, the targets of the choice (grounding/evaluation.hpp)
  /// The free-text verifier's benchmarks (where `ground`'s defaults are measured): unrelated
  /// claims appended to each answer.
  std::size_t unrelated_per_answer = 1;
  std::string paper;  ///< the seed's Table 1 (configs/paper/grounding.json); empty: none
};

/// "abstention": every abstention strategy compared on the test claims (abstention/comparison.hpp),
/// thresholds of the operating points chosen on the train claims; its seed is the experiment's.
/// Keys: reference, resamples, risk_targets, coverage_target.
using AbstentionConfig = abstention::ComparisonSettings;

struct ExperimentConfig {
  std::string name = "experiment";
  std::uint64_t seed = 42;
  DataConfig data;
  Bm25Config bm25;
  DenseConfig dense;  ///< its seed is the experiment's seed
  GateConfig gate;
  FusionConfig fusion;
  RerankConfig rerank;
  EvaluationConfig evaluation;
  VerifierConfig verifier;
  EvidenceConfig evidence;
  VerificationConfig verification;
  InterrogationConfig interrogation;
  SufficiencyConfig sufficiency;
  GroundingConfig grounding;
  AbstentionConfig abstention;
  LexicalRankerConfig lexical_ranker;
  /// The reproduction's stages in running order (experiment/pipeline.hpp names them). Absent from
  /// the file: every stage whose inputs the data has (the gold-rationale one only with
  /// data.original).
  std::vector<std::string> stages;
  std::string paper;      ///< the paper's numbers (experiment/paper.hpp); empty: no paper rows
  std::string expected;   ///< frozen expected metrics, checked after a reproduction
  std::string source;     ///< the file it was read from
  std::string checksum;   ///< of the file's bytes, recorded in every meta.json
  nlohmann::json as_json; ///< the file's content, recorded in every meta.json
};

/// Reads and validates a configuration file.
ExperimentConfig load_config(const std::filesystem::path& path);

/// The configuration used when a subcommand gets no --config: the shipped one
/// (experiment/shipped_files.hpp's shipped_config()), the same from any working folder, with a
/// warning naming it and where SciFact is read from, so that a default is never used silently.
ExperimentConfig default_config();

}  // namespace claimrag::experiment
