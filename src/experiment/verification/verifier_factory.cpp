#include "claimrag/experiment/verification/verifier_factory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/interrogation/resolution.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/cross_fitted.hpp"
#include "claimrag/verification/label_features.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/sentence_features.hpp"
#include "claimrag/verification/stacked_verifier.hpp"
#include "claimrag/verification/tei_verifier.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "claimrag/verification/verifier_spec.hpp"
#include "claimrag/verification/wordless_claims.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using verification::VerifierSetting;

struct TrainingFiles {
  fs::path corpus, claims;
};

// SciFact's release files the built-in verifier trains on: --original, else the configuration's
// data.original. Empty paths when neither names a folder.
TrainingFiles find_training_files(const VerifierSource& source, const ExperimentConfig& config) {
  const fs::path original = source.original.empty() ? fs::path(config.data.original) : source.original;
  if (original.empty()) return {};
  return {original / "corpus.jsonl", original / "claims_train.jsonl"};
}

bool present(const TrainingFiles& files) {
  return !files.corpus.empty() && fs::exists(files.corpus) && fs::exists(files.claims);
}

// How to get SciFact from here: the source tree's script where there is one; an installed claimrag
// ships no scripts, so it names the release files and the folder layout CLAIMRAG_DATA points to.
std::string how_to_fetch_scifact() {
  std::error_code error;
  const fs::path script = shipped_folder() / "scripts" / "get-data.sh";
  if (!shipped_folder().empty() && fs::is_regular_file(script, error)) return "fetch SciFact with " + script.string();
  return "fetch SciFact (the release https://scifact.s3-us-west-2.amazonaws.com/release/latest/data.tar.gz as "
         "DIR/original, BEIR's scifact.zip as DIR/beir) and set CLAIMRAG_DATA=DIR";
}

TrainingFiles training_files(const VerifierSource& source, const ExperimentConfig& config) {
  const TrainingFiles files = find_training_files(source, config);
  if (!present(files)) {
    throw UsageError("the built-in verifier is trained on SciFact's train claims the first time it is needed, and " +
                     (files.corpus.empty() ? std::string("the configuration names no data.original folder")
                                           : files.claims.string() + " or " + files.corpus.string() + " is missing") +
                     ": " + how_to_fetch_scifact() + " (or give --original DIR / --config FILE naming it, or set "
                     "CLAIMRAG_DATA), or pass --model FILE with a verifier saved by `claimrag verify --pairs ... "
                     "--save-model FILE`");
  }
  return files;
}

// The cached model's name is verifier-free_text-<recipe>-<data>.safetensors: <recipe> keys how it
// is trained (the feature columns' names, so that a model of other features is never read back,
// the verification options, BM25's parameters, the seed, the version) and <data> the training
// files' bytes, so that a cached model is found by its recipe alone when the training data is not
// on this machine, and a changed training set trains anew.
std::string recipe_key(const ExperimentConfig& config) {
  const auto& bm25 = config.bm25.parameters;
  std::string features;
  for (const auto* names : {&verification::sentence_feature_names(), &verification::label_feature_names()}) {
    for (const auto& name : *names) features += name + ' ';
  }
  const std::string identity = std::string("free_text-1\n") + features + "\n" + verification::options_text(config.verification.options) +
                               "\nbm25 " + std::to_string(bm25.k1) + " " + std::to_string(bm25.b) + "\nseed " +
                               std::to_string(config.seed) + "\nversion " + CLAIMRAG_VERSION;
  return io::checksum_hex(identity);
}

std::string data_key(const TrainingFiles& files) {
  return io::checksum_hex(io::file_checksum(files.corpus) + "\n" + io::file_checksum(files.claims));
}

std::string cached_name(const std::string& recipe, const std::string& data) {
  return "verifier-free_text-" + recipe + "-" + data + ".safetensors";
}

// A cached model of this recipe trained on any data, for a machine without the training files:
// the one there is, else none. Several (trained on different data) are ambiguous: a usage error.
fs::path cached_by_recipe(const fs::path& folder, const std::string& recipe) {
  std::error_code error;
  if (folder.empty() || !fs::is_directory(folder, error)) return {};
  const std::string prefix = "verifier-free_text-" + recipe + "-";
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0 && entry.path().extension() == ".safetensors") {
      found.push_back(entry.path());
    }
  }
  if (found.size() > 1) {
    std::sort(found.begin(), found.end());
    throw UsageError("the built-in verifier's training data is not on this machine and " + folder.string() + " holds " +
                     std::to_string(found.size()) + " verifiers of this configuration trained on different data (" +
                     found[0].filename().string() + ", " + found[1].filename().string() +
                     "): remove the ones not wanted, or pass --model FILE");
  }
  return found.empty() ? fs::path() : found.front();
}

// SciFact's train claims in the free-text setting: their cited abstracts, plus per claim a BM25
// neighbour without evidence and a random unrelated abstract as NOT_ENOUGH_INFO.
verification::VerifierTrainingData free_text_training_data(const TrainingFiles& files, const ExperimentConfig& config) {
  const auto abstracts = dataset::load_abstracts(files.corpus);
  const auto claims = dataset::load_claims(files.claims, &abstracts);
  const auto index = verification::index_abstracts(abstracts);
  const auto& bm25 = config.bm25.parameters;
  const auto neighbours = verification::bm25_run(abstracts, claims, bm25.k1, bm25.b, kFreeTextNeighbourDepth);
  verification::VerifierTrainingData data;
  data.claims = verification::free_text_inputs(claims, abstracts, index, neighbours, config.seed);
  if (config.verification.options.passages) verification::add_passages(data.claims, config.seed);
  if (config.verification.options.unrelated_passages) verification::add_unrelated_passages(data.claims, config.seed);
  data.corpus_texts = verification::corpus_texts(abstracts);
  data.setting = VerifierSetting::free_text;
  return data;
}

// Saves a freshly trained verifier in the cache; whether it was. The cache is optional: a folder
// that cannot be written, a read-only file or anything but a regular file in the model's place
// (a FIFO would block the write) costs one warning, never the run nor the verifier just trained.
bool save_in_cache(const verification::ClaimVerifier& verifier, const fs::path& cached) {
  if (cached.empty()) return false;
  std::error_code error;
  const auto status = fs::symlink_status(cached, error);
  // Not a regular file: the attempt to read it has already said so (once), and writing would block
  // on a FIFO or write into a device.
  if (fs::exists(status) && !fs::is_regular_file(status)) return false;
  try {
    verifier.save(cached);
    return true;
  } catch (const Error& failure) {
    spdlog::warn("the verifier cache cannot be written ({}): the trained verifier is used without caching it",
                 failure.what());
    return false;
  }
}

std::unique_ptr<verification::ClaimVerifier> train_free_text(const TrainingFiles& files, const ExperimentConfig& config,
                                                             const fs::path& cached) {
  const auto data = free_text_training_data(files, config);
  verification::TrainingReport report;
  auto verifier = verification::train_claim_verifier(data, config.verification.options, &report);
  const bool saved = save_in_cache(*verifier, cached);
  spdlog::info("trained the free-text verifier on {} SciFact train claims of {} (cited abstracts, plus a same-topic "
               "BM25 neighbour and an unrelated abstract each as NOT_ENOUGH_INFO): tau {}, NEI threshold {}, "
               "cross-validated Label+Rationale F1 {:.4f}{}; {}",
               data.claims.size(), files.claims.string(), report.tau, report.nei_threshold,
               report.cross_validation["label_rationale_f1"],
               report.cross_validation.contains("abstracts_label_rationale_f1")
                   ? fmt::format(" ({:.4f} on the abstracts alone)", report.cross_validation["abstracts_label_rationale_f1"])
                   : std::string(),
               saved ? "cached in " + cached.string()
                     : cached.empty() ? std::string("not cached (set XDG_CACHE_HOME or HOME)") : std::string("not cached"));
  return verifier;
}

std::unique_ptr<verification::ClaimVerifier> free_text_verifier(const VerifierSource& source, const ExperimentConfig& config) {
  const fs::path folder = verifier_cache_folder();
  const std::string recipe = recipe_key(config);
  const TrainingFiles found = find_training_files(source, config);
  // Without the training data (and without --original naming it), a model cached by this recipe.
  if (!present(found) && source.original.empty()) {
    if (const fs::path cached = cached_by_recipe(folder, recipe); !cached.empty()) {
      auto verifier = verification::load_free_text_verifier(cached, &config.verification.options);
      spdlog::info("free-text verifier: {} (its training data is not on this machine)", cached.string());
      return verifier;
    }
  }
  const TrainingFiles files = training_files(source, config);
  const fs::path cached = folder.empty() ? fs::path() : folder / cached_name(recipe, data_key(files));
  if (!cached.empty() && fs::exists(cached)) {
    try {
      auto verifier = verification::load_free_text_verifier(cached, &config.verification.options);
      spdlog::info("free-text verifier: {} (trained on {})", cached.string(), files.claims.string());
      return verifier;
    } catch (const DataError& error) {
      std::error_code ignored;
      spdlog::warn("the cached verifier cannot be read ({}): training it again{}", error.what(),
                   fs::is_regular_file(cached, ignored) ? "" : ", without caching it");
    }
  }
  return train_free_text(files, config, cached);
}

// The stacked verifier (verification/stacked_verifier.hpp), fitted anew on every call: the
// built-in free-text verifier trained on SciFact's train claims, cross-fitted over their families
// to judge them out of fold, the checkpoint judging them, and the stacking model fitted on both.
std::unique_ptr<verification::ClaimVerifier> open_stacked_verifier(const VerifierSource& source, const fs::path& folder,
                                                                   const ExperimentConfig& config) {
  const TrainingFiles files = training_files(source, config);
  const auto data = free_text_training_data(files, config);
  const auto& options = config.verification.options;
  verification::TrainingReport report;
  auto builtin = verification::train_claim_verifier(data, options, &report);
  const auto held_out = verification::cross_fit_verifier(data, options, report.tau, report.nei_threshold);
  auto checkpoint = open_checkpoint_verifier(folder, config);
  std::vector<verification::VerificationInput> inputs;
  inputs.reserve(data.claims.size());
  for (const auto& claim : data.claims) inputs.push_back(claim.input);
  const auto model = verification::fit_stacked_label_model(data.claims, held_out.verify(inputs), checkpoint->verify(inputs),
                                                           options.label_l2);
  spdlog::info("stacked verifier: fitted on {} SciFact train claims of {} (the built-in verifier out of fold, and {}), "
               "{} Newton steps{}; fitted again on every call, not cached",
               data.claims.size(), files.claims.string(), folder.string(), model.iterations,
               model.converged ? "" : " (NOT converged)");
  return verification::make_stacked_verifier(std::move(builtin), std::move(checkpoint), model);
}

fs::path judge_prompt_file(const VerifierSource& source) {
  return source.llm_prompt.empty() ? shipped_file(kDefaultJudgePrompt) : source.llm_prompt;
}

// What the verifier is, beside the command's main output (verifier_meta_path), when it has one.
// An LLM judge's record also counts the citations it dropped (rewritten when the count grows).
void write_verifier_meta(const VerifierSource& source, const ExperimentConfig& config, std::size_t dropped_citations = 0) {
  if (source.record_beside.empty()) return;
  const auto file = verifier_meta_path(source.record_beside);
  nlohmann::ordered_json record = verifier_record(source, config);
  if (record.contains("model")) record["dropped_citations"] = dropped_citations;
  const nlohmann::ordered_json meta{{"program", "claimrag"}, {"version", CLAIMRAG_VERSION}, {"verifier", std::move(record)}};
  io::write_file_atomically(file, io::json_text(meta, file.string(), 2) + "\n");
}

// The LLM judge over the chat endpoint of `spec`, through the transport its served options open
// (live, recording or replaying).
std::unique_ptr<verification::ClaimVerifier> open_llm_judge(const VerifierSource& source,
                                                            const verification::VerifierSpec& spec, const ExperimentConfig& config) {
  if (!source.model.empty() || !source.save_model.empty()) {
    throw UsageError("--model and --save-model name a built-in verifier's file; --verifier " + verification::to_string(spec) +
                     " is a served judge");
  }
  if (source.llm_model.empty()) {
    throw UsageError("--verifier " + verification::to_string(spec) + " needs --llm-model NAME (the model the endpoint serves)");
  }
  const fs::path prompt = judge_prompt_file(source);
  verification::LlmJudgeOptions options{.model = source.llm_model,
                                        .prompt_template = verification::load_judge_prompt(prompt),
                                        .temperature = 0.0,
                                        .resolve_text = judge_text_resolution(),
                                        .report_dropped_citations = [source, config](std::size_t total) {
                                          write_verifier_meta(source, config, total);
                                        }};
  served::ServedOptions served = source.served;
  served.endpoint.url = spec.location;
  auto transport = served::open_transport(served);
  spdlog::info("LLM judge: model {} at {}, prompt {}, temperature 0{}", source.llm_model, transport->url(), prompt.string(),
               !served.replay.empty()   ? ", replayed from " + served.replay.string()
               : !served.record.empty() ? ", recorded to " + served.record.string()
                                        : std::string());
  return std::make_unique<verification::LlmJudgeVerifier>(std::move(transport), std::move(options));
}

// tei:URL: the checkpoint rule over /predict's distributions, through the served transport.
std::unique_ptr<verification::ClaimVerifier> open_tei_verifier(const VerifierSource& source, const std::string& url,
                                                               const ExperimentConfig& config) {
  if (!source.model.empty() || !source.save_model.empty()) {
    throw UsageError("--model and --save-model name a built-in verifier's file; --verifier tei:" + url +
                     " asks the served model");
  }
  served::ServedOptions served = source.served;
  served.endpoint.url = url;
  const verification::TeiVerifierOptions options{checkpoint_verifier_options(config).rule,
                                                 config.verification.checkpoint.batch_size};
  auto verifier = verification::make_tei_verifier(served::open_transport(served), options);
  spdlog::info("served verifier: Text Embeddings Inference at {}, premise {}, threshold {}, {} pairs a request{}", url,
               verification::premise_unit_name(options.rule.premise), options.rule.threshold, options.batch_size,
               !served.replay.empty()   ? ", replayed from " + served.replay.string()
               : !served.record.empty() ? ", recorded to " + served.record.string()
                                        : std::string());
  write_verifier_meta(source, config);
  return verification::guard_wordless_claims(std::move(verifier));
}

}  // namespace

verification::JudgeTextResolver judge_text_resolution() {
  return [](std::string_view text, std::string_view claim) -> std::optional<verification::Label> {
    const interrogation::Probe probe{.id = "judge",
                                     .template_text = "Does the evidence support the claim {claim}?",
                                     .asks_false = false,
                                     .negated_claim = false,
                                     .form = interrogation::ProbeForm::question,
                                     .original = true};
    const auto resolution = interrogation::resolve_response(probe, text, claim);
    if (!resolution.resolved) return std::nullopt;
    switch (resolution.answer) {
      case interrogation::Answer::support: return verification::Label::support;
      case interrogation::Answer::refute: return verification::Label::contradict;
      case interrogation::Answer::neutral: return verification::Label::not_enough_info;
    }
    return std::nullopt;
  };
}

verification::CheckpointVerifierOptions checkpoint_verifier_options(const ExperimentConfig& config) {
  const auto& checkpoint = config.verification.checkpoint;
  verification::CheckpointVerifierOptions options;
  options.rule.premise = verification::parse_premise_unit(checkpoint.premise);
  options.rule.threshold = checkpoint.threshold;
  options.rule.max_rationale = config.verification.options.max_rationale;
  options.max_length = checkpoint.max_length;
  options.batch_size = checkpoint.batch_size;
  return options;
}

std::unique_ptr<verification::ClaimVerifier> open_checkpoint_verifier(const fs::path& folder, const ExperimentConfig& config) {
  auto checkpoint = std::make_shared<const verification::NliCheckpoint>(folder);
  const auto options = checkpoint_verifier_options(config);
  spdlog::info("checkpoint verifier: {} ({}; {}), premise {}, threshold {}", folder.string(),
               checkpoint->text_model().model().description(), checkpoint->text_model().tokenizer().description(),
               verification::premise_unit_name(options.rule.premise), options.rule.threshold);
  return verification::make_checkpoint_verifier(std::move(checkpoint), options);
}

nlohmann::ordered_json verifier_record(const VerifierSource& source, const ExperimentConfig& config) {
  const verification::VerifierSpec spec = verification::parse_verifier_spec(source.spec.empty() ? "builtin" : source.spec);
  nlohmann::ordered_json record;
  record["spec"] = verification::to_string(spec);
  if (spec.kind == verification::VerifierKind::llm) {
    const fs::path prompt = judge_prompt_file(source);
    record["model"] = source.llm_model;
    // The shipped prompt by its name in the shipped folder, so that the record is the same
    // wherever claimrag is installed; the checksum says which text it was.
    const fs::path named = source.llm_prompt.empty() ? fs::path(kDefaultJudgePrompt) : prompt;
    record["prompt"] = {{"file", named.string()}, {"xxh64", io::file_checksum(prompt)}};
    record["temperature"] = 0.0;
    return record;
  }
  const auto options = checkpoint_verifier_options(config);
  if (spec.kind == verification::VerifierKind::tei) {
    record["rule"] = {{"premise", verification::premise_unit_name(options.rule.premise)},
                      {"threshold", options.rule.threshold},
                      {"max_rationale", options.rule.max_rationale}};
    record["batch_size"] = config.verification.checkpoint.batch_size;
    return record;
  }
  if (spec.kind != verification::VerifierKind::checkpoint) return record;
  // From the files alone: the checkpoint's weights are not loaded a second time to describe them.
  auto checkpoint = pretrained::checkpoint_files_record(spec.location);
  const auto model_config = pretrained::read_model_config(spec.location);
  const auto labels = verification::map_nli_labels(model_config.labels, model_config.file);
  auto label_map = nlohmann::ordered_json::object();
  for (std::size_t id = 0; id < labels.size(); ++id) label_map[model_config.labels[id]] = verification::label_name(labels[id]);
  checkpoint["label_map"] = std::move(label_map);
  checkpoint["precision"] = pretrained::precision_name(pretrained::default_checkpoint_precision());
  record["checkpoint"] = std::move(checkpoint);
  record["stacked"] = config.verification.checkpoint.stacked;
  record["rule"] = {{"premise", verification::premise_unit_name(options.rule.premise)},
                    {"threshold", options.rule.threshold},
                    {"max_rationale", options.rule.max_rationale},
                    {"max_length", options.max_length}};
  return record;
}

fs::path verifier_meta_path(const fs::path& out) {
  fs::path meta = out;
  meta.replace_extension(".meta.json");
  return meta;
}

fs::path verifier_meta_output(const std::string& spec, const fs::path& out) {
  if (spec.empty() || out.empty()) return {};
  const auto kind = verification::parse_verifier_spec(spec).kind;
  if (kind != verification::VerifierKind::checkpoint && kind != verification::VerifierKind::llm &&
      kind != verification::VerifierKind::tei) {
    return {};
  }
  return verifier_meta_path(out);
}

fs::path verifier_cache_folder() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "claimrag";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "claimrag";
  return {};
}

std::unique_ptr<verification::ClaimVerifier> open_verifier(const VerifierSource& source, const ExperimentConfig& config) {
  const verification::VerifierSpec spec = verification::parse_verifier_spec(source.spec.empty() ? "builtin" : source.spec);
  if (spec.kind == verification::VerifierKind::checkpoint) {
    if (!source.model.empty() || !source.save_model.empty()) {
      throw UsageError("--model and --save-model name a built-in verifier's file; --verifier " + verification::to_string(spec) +
                       " reads the checkpoint folder itself");
    }
    auto verifier = config.verification.checkpoint.stacked ? open_stacked_verifier(source, spec.location, config)
                                                           : open_checkpoint_verifier(spec.location, config);
    write_verifier_meta(source, config);
    return verification::guard_wordless_claims(std::move(verifier));
  }
  if (spec.kind == verification::VerifierKind::llm) {
    auto verifier = open_llm_judge(source, spec, config);
    write_verifier_meta(source, config);
    return verification::guard_wordless_claims(std::move(verifier));
  }
  if (spec.kind == verification::VerifierKind::tei) return open_tei_verifier(source, spec.location, config);
  if (spec.kind != verification::VerifierKind::builtin) {
    throw UsageError("--verifier " + verification::to_string(spec) + ": this kind of verifier is not available in this build "
                     "(use builtin)");
  }
  if (!source.model.empty() && !source.save_model.empty()) {
    throw UsageError("--save-model saves a trained verifier: give it without --model");
  }
  if (!source.model.empty()) {
    return verification::guard_wordless_claims(verification::load_free_text_verifier(source.model, &config.verification.options));
  }
  auto verifier = free_text_verifier(source, config);
  if (!source.save_model.empty()) verifier->save(source.save_model);
  return verification::guard_wordless_claims(std::move(verifier));
}

}  // namespace claimrag::experiment
