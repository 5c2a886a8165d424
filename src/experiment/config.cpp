#include "claimrag/experiment/config.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "claimrag/error.hpp"
#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/strict_json.hpp"
#include "claimrag/verification/checker_verifier.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/label_features.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"

namespace claimrag::experiment {
namespace {

void read_data(io::StrictObject object, DataConfig& data) {
  object.read("name", data.name);
  object.read("beir", data.beir);
  object.read("original", data.original);
  object.read("train_split", data.train_split);
  object.read("test_split", data.test_split);
  object.finish();
}

void read_bm25(io::StrictObject object, Bm25Config& bm25) {
  object.read("k1", bm25.parameters.k1);
  object.read("b", bm25.parameters.b);
  std::uint64_t depth = bm25.depth;
  object.read("depth", depth);
  bm25.depth = depth;
  object.finish();
  if (bm25.parameters.k1 < 0) throw UsageError("bm25.k1 must be >= 0");
  if (bm25.parameters.b < 0 || bm25.parameters.b > 1) throw UsageError("bm25.b must be in [0, 1]");
  if (bm25.depth == 0) throw UsageError("bm25.depth must be >= 1");
}

void read_dense(io::StrictObject object, DenseConfig& dense) {
  object.read("dimension", dense.dimension);
  object.read("max_query_tokens", dense.max_query_tokens);
  object.read("max_document_tokens", dense.max_document_tokens);
  object.read("temperature", dense.temperature);
  object.read("learning_rate", dense.learning_rate);
  object.read("batch_size", dense.batch_size);
  object.read("epochs", dense.epochs);
  object.read("shared_towers", dense.shared_towers);
  object.read("init_stddev", dense.init_stddev);
  std::uint64_t depth = dense.depth;
  object.read("depth", depth);
  dense.depth = depth;
  object.finish();
  if (dense.dimension <= 0 || dense.max_query_tokens <= 0 || dense.max_document_tokens <= 0 || dense.batch_size <= 0 ||
      dense.epochs < 0 || dense.temperature <= 0 || dense.learning_rate <= 0 || dense.init_stddev <= 0 || dense.depth == 0) {
    throw UsageError("dense: sizes, epochs, temperature, learning_rate, init_stddev and depth must be positive");
  }
}

void read_gate(io::StrictObject object, GateConfig& gate) {
  object.read("signal", gate.signal);
  object.read("thresholds", gate.thresholds);
  std::uint64_t depth = gate.hallucination_depth;
  object.read("hallucination_depth", depth);
  gate.hallucination_depth = depth;
  object.read("compared_signals", gate.compared_signals);
  object.read("combined_features", gate.combined_features);
  object.finish();
  if (gate.hallucination_depth == 0) throw UsageError("gate.hallucination_depth must be >= 1");
}

void read_fusion(io::StrictObject object, FusionConfig& fusion) {
  object.read("rrf_k", fusion.rrf_k);
  std::uint64_t depth = fusion.depth;
  object.read("depth", depth);
  fusion.depth = depth;
  object.finish();
  if (!(fusion.rrf_k >= 0)) throw UsageError("fusion.rrf_k must be >= 0");
  if (fusion.depth == 0) throw UsageError("fusion.depth must be >= 1");
}

void read_rerank(io::StrictObject object, RerankConfig& rerank) {
  std::uint64_t train_depth = rerank.train_depth;
  std::uint64_t rerank_depth = rerank.rerank_depth;
  std::uint64_t max_features = rerank.max_features;
  object.read("train_depth", train_depth);
  object.read("rerank_depth", rerank_depth);
  object.read("C", rerank.C);
  object.read("class_weight", rerank.class_weight);
  object.read("max_features", max_features);
  object.finish();
  rerank.train_depth = train_depth;
  rerank.rerank_depth = rerank_depth;
  rerank.max_features = max_features;
  if (rerank.train_depth == 0) throw UsageError("rerank.train_depth must be >= 1");
  if (rerank.rerank_depth == 0) throw UsageError("rerank.rerank_depth must be >= 1");
  if (!(rerank.C > 0)) throw UsageError("rerank.C must be > 0");
  if (rerank.class_weight != "balanced" && rerank.class_weight != "none") {
    throw UsageError("rerank.class_weight must be \"balanced\" or \"none\"");
  }
}

void read_evaluation(io::StrictObject object, EvaluationConfig& evaluation) {
  object.read("metrics", evaluation.metrics);
  object.finish();
}

void read_size(io::StrictObject& object, const std::string& key, std::size_t& target, std::size_t minimum) {
  std::uint64_t value = target;
  object.read(key, value);
  if (value < minimum) throw UsageError(key + " must be >= " + std::to_string(minimum));
  target = value;
}

void read_verifier(io::StrictObject object, VerifierConfig& verifier) {
  object.read("num_classes", verifier.num_classes);
  read_size(object, "d_model", verifier.d_model, 1);
  read_size(object, "heads", verifier.heads, 1);
  read_size(object, "d_ff", verifier.d_ff, 1);
  read_size(object, "max_length", verifier.max_length, 3);
  object.read("epochs", verifier.epochs);
  object.read("learning_rate", verifier.learning_rate);
  read_size(object, "batch_size", verifier.batch_size, 1);
  read_size(object, "chunk_size", verifier.chunk_size, 1);
  read_size(object, "scoring_batch_size", verifier.scoring_batch_size, 1);
  read_size(object, "negatives_per_positive", verifier.negatives_per_positive, 0);
  read_size(object, "negative_documents", verifier.negative_documents, 0);
  read_size(object, "vocabulary_min_count", verifier.vocabulary_min_count, 1);
  object.read("rationales", verifier.rationales);
  object.finish();
  if (verifier.num_classes < 2) throw UsageError("verifier.num_classes must be >= 2");
  if (verifier.d_model % verifier.heads != 0) throw UsageError("verifier.d_model must be divisible by verifier.heads");
  if (verifier.epochs < 0) throw UsageError("verifier.epochs must be >= 0");
  if (!(verifier.learning_rate > 0)) throw UsageError("verifier.learning_rate must be > 0");
  if (verifier.rationales != "pseudo" && verifier.rationales != "gold") {
    throw UsageError("verifier.rationales must be \"pseudo\" or \"gold\"");
  }
}

void read_evidence(io::StrictObject object, EvidenceConfig& evidence) {
  read_size(object, "candidate_documents", evidence.candidate_documents, 1);
  read_size(object, "sentences_per_document", evidence.sentences_per_document, 1);
  read_size(object, "min_sentence_characters", evidence.min_sentence_characters, 0);
  read_size(object, "selected", evidence.selected, 1);
  object.finish();
}

// Relative to the configuration's folder, lexically normalised ("configs/../data" is "data").
std::string resolve(const std::filesystem::path& folder, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (folder / path).lexically_normal().string();
}

void resolve_paths(const std::filesystem::path& folder, ExperimentConfig& config) {
  config.data.beir = resolve(folder, config.data.beir);
  config.data.original = resolve(folder, config.data.original);
  config.expected = resolve(folder, config.expected);
  config.paper = resolve(folder, config.paper);
  config.verification.paper = resolve(folder, config.verification.paper);
  if (auto& spec = config.verification.checkpoint.verifier; !spec.empty()) {
    const std::string prefix = "checkpoint:";
    if (spec.rfind(prefix, 0) == 0) spec = prefix + resolve(folder, spec.substr(prefix.size()));
  }
  config.interrogation.probes = resolve(folder, config.interrogation.probes);
  config.interrogation.paper = resolve(folder, config.interrogation.paper);
  config.sufficiency.paper = resolve(folder, config.sufficiency.paper);
  config.grounding.paper = resolve(folder, config.grounding.paper);
}

void read_checkpoint_verification(io::StrictObject object, CheckpointVerificationConfig& checkpoint) {
  object.read("verifier", checkpoint.verifier);
  object.read("premise", checkpoint.premise);
  object.read("threshold", checkpoint.threshold);
  read_size(object, "max_length", checkpoint.max_length, 0);
  read_size(object, "batch_size", checkpoint.batch_size, 1);
  object.read("stacked", checkpoint.stacked);
  object.read("labels", checkpoint.labels);
  object.read("checker", checkpoint.checker);
  read_size(object, "chunk_size", checkpoint.chunk_size, 0);
  object.read("premise_grid", checkpoint.premise_grid);
  object.read("threshold_grid", checkpoint.threshold_grid);
  object.finish();
  if (!checkpoint.verifier.empty() &&
      parse_verifier_spec(checkpoint.verifier).kind != "checkpoint") {
    throw UsageError("verification.checkpoint.verifier must be checkpoint:DIR, not " + checkpoint.verifier);
  }
  (void)verification::parse_premise_unit(checkpoint.premise);
  (void)verification::parse_checker_kind(checkpoint.checker);
  if (!checkpoint.labels.empty()) (void)verification::map_declared_labels(checkpoint.labels);
  for (const auto& premise : checkpoint.premise_grid) (void)verification::parse_premise_unit(premise);
  const auto in_range = [](double t) { return t > 0.0 && t <= 1.0; };
  if (!in_range(checkpoint.threshold) || checkpoint.premise_grid.empty() || checkpoint.threshold_grid.empty() ||
      !std::all_of(checkpoint.threshold_grid.begin(), checkpoint.threshold_grid.end(), in_range)) {
    throw UsageError("verification.checkpoint: threshold and threshold_grid entries must be in (0, 1], and the grids "
                     "must not be empty");
  }
}

/// The contradict cue named `text`, or a UsageError saying `key` must be one of the three.
verification::ContradictCue contradict_cue_or_throw(const std::string& text, const std::string& key) {
  const auto parsed = verification::parse_contradict_cue(text);
  if (!parsed) throw UsageError(key + " must be always, with_cue or cue_required");
  return *parsed;
}

/// verification.free_text_short_evidence: {"max_sentences", "nei_threshold", "contradict_ratio",
/// "contradict_cue"}, each optional (ShortEvidenceRule's defaults: off).
void read_short_evidence(io::StrictObject object, verification::ShortEvidenceRule& rule) {
  read_size(object, "max_sentences", rule.max_sentences, 0);
  object.read("nei_threshold", rule.nei_threshold);
  object.read("contradict_ratio", rule.contradict_ratio);
  std::string cue(verification::contradict_cue_name(rule.contradict_cue));
  object.read("contradict_cue", cue);
  object.finish();
  rule.contradict_cue = contradict_cue_or_throw(cue, "verification.free_text_short_evidence.contradict_cue");
  if (const std::string problem = verification::short_evidence_problem(rule); !problem.empty()) {
    throw UsageError("verification.free_text_short_evidence." + problem);
  }
}

void read_verification(io::StrictObject object, VerificationConfig& verification) {
  auto& options = verification.options;
  object.read("paper", verification.paper);
  read_size(object, "folds", options.folds, 2);
  read_size(object, "max_rationale", options.max_rationale, 1);
  object.read("selector_C", options.selector_C);
  object.read("label_l2", options.label_l2);
  read_size(object, "tfidf_max_features", options.tfidf_max_features, 0);
  object.read("tau_grid", options.tau_grid);
  object.read("nei_threshold_grid", options.nei_threshold_grid);
  object.read("negation_augmentation", options.negation_augmentation);
  object.read("calibrate", options.calibrate);
  object.read("paraphrased_directions", options.paraphrased_directions);
  object.read("passages", options.passages);
  object.read("unrelated_passages", options.unrelated_passages);
  object.read("free_text_nei_threshold", options.free_text_nei_threshold);
  object.read("free_text_contradict_ratio", options.free_text_contradict_ratio);
  object.read("null_against_effect", options.null_against_effect);
  std::string contradict_cue(verification::contradict_cue_name(options.free_text_contradict_cue));
  object.read("free_text_contradict_cue", contradict_cue);
  object.read("free_text_conflict_cues", options.free_text_conflict_cues);
  object.read("free_text_cue_in_every_sentence", options.free_text_cue_in_every_sentence);
  std::string aggregation(verification::free_text_aggregation_name(options.free_text_aggregation));
  object.read("free_text_aggregation", aggregation);
  read_short_evidence(object.object("free_text_short_evidence"), options.free_text_short_evidence);
  read_checkpoint_verification(object.object("checkpoint"), verification.checkpoint);
  std::vector<std::uint64_t> k_grid(verification.open_k_grid.begin(), verification.open_k_grid.end());
  object.read("open_k_grid", k_grid);
  read_size(object, "verify_k", verification.verify_k, 1);
  object.finish();
  verification.open_k_grid.assign(k_grid.begin(), k_grid.end());
  if (!(options.selector_C > 0) || !(options.label_l2 > 0)) throw UsageError("verification.selector_C and label_l2 must be > 0");
  if (!(options.free_text_nei_threshold >= 0 && options.free_text_nei_threshold <= 1)) {
    throw UsageError("verification.free_text_nei_threshold must be in [0, 1] (0: chosen on SciFact's grid)");
  }
  if (!verification::contradict_ratio_in_range(options.free_text_contradict_ratio)) {
    throw UsageError("verification.free_text_contradict_ratio must be in (0, 10] (1: the likelier of SUPPORT and CONTRADICT)");
  }
  options.free_text_contradict_cue = contradict_cue_or_throw(contradict_cue, "verification.free_text_contradict_cue");
  const auto parsed_aggregation = verification::parse_free_text_aggregation(aggregation);
  if (!parsed_aggregation) throw UsageError("verification.free_text_aggregation must be whole or strongest_sentence");
  options.free_text_aggregation = *parsed_aggregation;
  for (const auto& name : options.free_text_conflict_cues) {
    const auto names = verification::conflict_cue_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw UsageError("verification.free_text_conflict_cues: unknown cue \"" + name + "\" (negation, null_result, direction, number)");
    }
  }
  if (options.tau_grid.empty() || options.nei_threshold_grid.empty() || verification.open_k_grid.empty()) {
    throw UsageError("verification.tau_grid, nei_threshold_grid and open_k_grid must not be empty");
  }
  for (const std::size_t k : verification.open_k_grid) {
    if (k == 0) throw UsageError("verification.open_k_grid entries must be >= 1");
  }
}

void read_interrogation(io::StrictObject object, InterrogationConfig& interrogation) {
  object.read("probes", interrogation.probes);
  read_size(object, "samples", interrogation.samples, 1);
  object.read("temperature", interrogation.temperature);
  read_size(object, "retrieved_k", interrogation.retrieved_k, 0);
  object.read("alpha_grid", interrogation.alpha_grid);
  read_size(object, "bootstrap_resamples", interrogation.bootstrap_resamples, 1);
  object.read("paper", interrogation.paper);
  object.finish();
  if (!(interrogation.temperature >= 0)) throw UsageError("interrogation.temperature must be >= 0");
  if (interrogation.alpha_grid.empty()) throw UsageError("interrogation.alpha_grid must not be empty");
  for (const double alpha : interrogation.alpha_grid) {
    if (!(alpha >= 0 && alpha <= 1)) throw UsageError("interrogation.alpha_grid entries must lie in [0, 1]");
  }
}

void read_sufficiency(io::StrictObject object, SufficiencyConfig& sufficiency) {
  auto& benchmark = sufficiency.benchmark;
  auto& evaluation = sufficiency.evaluation;
  object.read("paper", sufficiency.paper);
  read_size(object, "distractors", benchmark.distractors, 0);
  read_size(object, "foreign_abstracts", benchmark.foreign_abstracts, 1);
  object.read("length_weight", benchmark.length_weight);
  read_size(object, "folds", benchmark.folds, 2);
  read_size(object, "tfidf_features", evaluation.tfidf_features, 1);
  object.read("l2", evaluation.aggregator.l2);
  object.read("beta_grid", evaluation.aggregator.beta_grid);
  object.read("prior_correction", evaluation.aggregator.prior_correction);
  object.finish();
  if (!(benchmark.length_weight >= 0) || !(evaluation.aggregator.l2 > 0) || evaluation.aggregator.beta_grid.empty()) {
    throw UsageError("sufficiency.length_weight must be >= 0, l2 > 0 and beta_grid not empty");
  }
}

void read_grounding(io::StrictObject object, GroundingConfig& grounding) {
  object.read("support_threshold", grounding.support_threshold);
  object.read("conflict_threshold", grounding.conflict_threshold);
  object.read("contradict_ratio", grounding.contradict_ratio);
  object.read("verdict_gates_support", grounding.verdict_gates_support);
  read_size(object, "decoys_per_claim", grounding.decoys_per_claim, 0);
  read_size(object, "min_claims", grounding.min_claims, 1);
  read_size(object, "max_claims", grounding.max_claims, 1);
  read_size(object, "rounds", grounding.rounds, 1);
  read_size(object, "sample_size", grounding.sample_size, 1);
  object.read("threshold_grid", grounding.threshold_grid);
  object.read("max_conflict_rate", grounding.max_conflict_rate);
  object.read("min_recall", grounding.min_recall);
  read_size(object, "unrelated_per_answer", grounding.unrelated_per_answer, 0);
  object.read("paper", grounding.paper);
  object.finish();
  const auto unit = [](double value) { return value >= 0 && value <= 1; };
  if (!unit(grounding.support_threshold) || !unit(grounding.conflict_threshold) || !unit(grounding.max_conflict_rate) ||
      !unit(grounding.min_recall)) {
    throw UsageError("grounding.support_threshold, conflict_threshold, max_conflict_rate and min_recall must be in [0, 1]");
  }
  if (!verification::contradict_ratio_in_range(grounding.contradict_ratio)) {
    throw UsageError("grounding.contradict_ratio must be in (0, 10]");
  }
  if (grounding.max_claims < grounding.min_claims) throw UsageError("grounding.max_claims must be >= min_claims");
  if (grounding.threshold_grid.empty() || !std::all_of(grounding.threshold_grid.begin(), grounding.threshold_grid.end(), unit)) {
    throw UsageError("grounding.threshold_grid must be a non-empty list of values in [0, 1]");
  }
}

void read_abstention(io::StrictObject object, AbstentionConfig& abstention) {
  object.read("reference", abstention.reference);
  read_size(object, "resamples", abstention.resamples, 1);
  object.read("risk_targets", abstention.risk_targets);
  object.read("coverage_target", abstention.coverage_target);
  object.read("stacked", abstention.stacked);
  object.finish();
  for (const double risk : abstention.risk_targets) {
    if (!(risk >= 0 && risk <= 1)) throw UsageError("abstention.risk_targets entries must lie in [0, 1]");
  }
  if (!(abstention.coverage_target > 0 && abstention.coverage_target <= 1)) {
    throw UsageError("abstention.coverage_target must lie in (0, 1]");
  }
  if (abstention.reference.empty()) throw UsageError("abstention.reference must name a strategy");
}

// A configuration's text, read as the file `name`; its relative paths are taken from `folder`.
ExperimentConfig read_config(const std::string& text, const std::string& name, const std::filesystem::path& folder) {
  ExperimentConfig config;
  config.source = name;
  config.checksum = io::checksum_hex(text);
  try {
    config.as_json = nlohmann::json::parse(io::depth_checked(text, name));
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError(name + ": not valid JSON: " + error.what());
  }
  io::StrictObject top(config.as_json, name);
  top.read("name", config.name);
  top.read("seed", config.seed);
  top.read("expected", config.expected);
  top.read("paper", config.paper);
  top.read("stages", config.stages);
  read_data(top.object("data"), config.data);
  read_bm25(top.object("bm25"), config.bm25);
  read_dense(top.object("dense"), config.dense);
  read_gate(top.object("gate"), config.gate);
  read_fusion(top.object("fusion"), config.fusion);
  read_rerank(top.object("rerank"), config.rerank);
  read_evaluation(top.object("evaluation"), config.evaluation);
  read_verifier(top.object("verifier"), config.verifier);
  read_evidence(top.object("evidence"), config.evidence);
  read_verification(top.object("verification"), config.verification);
  read_interrogation(top.object("interrogation"), config.interrogation);
  read_sufficiency(top.object("sufficiency"), config.sufficiency);
  read_grounding(top.object("grounding"), config.grounding);
  read_abstention(top.object("abstention"), config.abstention);
  read_lexical_ranker(top.object("lexical_ranker"), config.lexical_ranker);
  top.finish();
  config.abstention.seed = config.seed;
  config.dense.seed = config.seed;
  config.sufficiency.benchmark.seed = config.seed;
  resolve_paths(folder, config);
  return config;
}

}  // namespace

ExperimentConfig load_config(const std::filesystem::path& path) {
  return read_config(io::read_file(path, io::kSettingsInput), path.string(), path.parent_path());
}

ExperimentConfig shipped_config() {
  const std::filesystem::path folder = shipped_folder();
  auto config = read_config(std::string(shipped_config_text()), std::string(kShippedConfigName),
                            folder.empty() ? std::filesystem::path("configs") : folder / "configs");
  if (const char* data = std::getenv("CLAIMRAG_DATA"); data != nullptr && *data != '\0') {
    config.data.beir = (std::filesystem::path(data) / "beir").lexically_normal().string();
    config.data.original = (std::filesystem::path(data) / "original").lexically_normal().string();
  }
  return config;
}

ExperimentConfig default_config() {
  auto config = shipped_config();
  spdlog::warn("no --config given: using the shipped configuration configs/scifact.json (compiled in), SciFact from {}{}",
               std::filesystem::path(config.data.beir).parent_path().string(),
               std::getenv("CLAIMRAG_DATA") != nullptr && *std::getenv("CLAIMRAG_DATA") != '\0' ? " ($CLAIMRAG_DATA)" : "");
  return config;
}

}  // namespace claimrag::experiment
