// The checkpoint backend, `--verifier checkpoint:DIR`: the NLI checkpoint in DIR under the rule of
// config.verification.checkpoint, or, with verification.checkpoint.stacked, the stacked verifier
// over it and the built-in one. Its record describes the folder from its files alone.

#include <spdlog/spdlog.h>

#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/free_text_verifier.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/verification/checker_verifier.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/cross_fitted.hpp"
#include "claimrag/verification/stacked_verifier.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

// The stacked verifier (verification/stacked_verifier.hpp), fitted anew on every call: the
// built-in free-text verifier trained on SciFact's train claims, cross-fitted over their families
// to judge them out of fold, the checkpoint judging them, and the stacking model fitted on both.
std::unique_ptr<verification::ClaimVerifier> open_stacked_verifier(const VerifierSource& source, const fs::path& folder,
                                                                   const ExperimentConfig& config) {
  const FreeTextTraining training = free_text_training(source, config);
  const auto& data = training.data;
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
               data.claims.size(), training.claims_file.string(), folder.string(), model.iterations,
               model.converged ? "" : " (NOT converged)");
  return verification::make_stacked_verifier(std::move(builtin), std::move(checkpoint), model);
}

// The labels a checker reads: the user's, else config.json's names when they are NLI names, else,
// for a two-label head, the reference's reading of the MiniCheck checkers (label 1 supported).
std::vector<std::string> checker_labels(const fs::path& folder, const ExperimentConfig& config) {
  const auto& declared = config.verification.checkpoint.labels;
  if (!declared.empty()) return declared;
  const auto model_config = pretrained::read_model_config(folder);
  // A config.json without id2label has the reference library's default two labels (T5's).
  if (model_config.labels.empty()) return {"unsupported", "supported"};
  if (model_config.labels.size() != 2) return {};
  try {
    (void)verification::map_nli_labels(model_config.labels, model_config.file);
    return {};
  } catch (const DataError&) {
    return {"unsupported", "supported"};
  }
}

// From the files alone: the checkpoint's weights are not loaded a second time to describe them.
void describe_checkpoint(nlohmann::ordered_json& record, const VerifierSource&, const verification::VerifierSpec& spec,
                         const ExperimentConfig& config) {
  const auto options = checkpoint_verifier_options(config);
  auto checkpoint = pretrained::checkpoint_files_record(spec.location);
  const auto model_config = pretrained::read_model_config(spec.location);
  const auto checker = verification::parse_checker_kind(config.verification.checkpoint.checker);
  const auto declared = checker == verification::CheckerKind::nli ? config.verification.checkpoint.labels
                                                                   : checker_labels(spec.location, config);
  // As the model loads it: without id2label, the reference library's default two labels.
  const auto id2label = model_config.labels.empty() ? std::vector<std::string>{"LABEL_0", "LABEL_1"} : model_config.labels;
  const auto labels = verification::checkpoint_labels(id2label, model_config.file, declared);
  if (!declared.empty()) checkpoint["declared_labels"] = declared;
  auto label_map = nlohmann::ordered_json::object();
  for (std::size_t id = 0; id < labels.size(); ++id) label_map[id2label[id]] = verification::label_name(labels[id]);
  checkpoint["label_map"] = std::move(label_map);
  checkpoint["precision"] = pretrained::precision_name(pretrained::default_checkpoint_precision());
  record["checkpoint"] = std::move(checkpoint);
  record["stacked"] = config.verification.checkpoint.stacked;
  if (checker != verification::CheckerKind::nli) {
    const auto settings = verification::known_checker_settings(model_config.model_type);
    const std::size_t chunk_size = config.verification.checkpoint.chunk_size;
    record["rule"] = {{"checker", verification::checker_kind_name(checker)},
                      {"chunk_size", chunk_size != 0 ? chunk_size : settings.chunk_size},
                      {"chunk_count", settings.counts_words ? "words" : "tokens"},
                      {"prefix", settings.prefix},
                      {"label_tokens", settings.label_tokens},
                      {"threshold", options.rule.threshold},
                      {"max_rationale", options.rule.max_rationale},
                      {"max_length", options.max_length}};
    return;
  }
  record["rule"] = {{"premise", verification::premise_unit_name(options.rule.premise)},
                    {"threshold", options.rule.threshold},
                    {"max_rationale", options.rule.max_rationale},
                    {"max_length", options.max_length}};
}

std::unique_ptr<verification::ClaimVerifier> open_checker_verifier(const fs::path& folder, const ExperimentConfig& config,
                                                                   verification::CheckerKind kind) {
  const auto& settings = config.verification.checkpoint;
  const auto labels = checker_labels(folder, config);
  const auto family = verification::known_checker_settings(pretrained::read_model_config(folder).model_type);
  auto checkpoint = std::make_shared<const verification::NliCheckpoint>(folder, labels, family.label_tokens);
  verification::CheckerOptions options;
  options.kind = kind;
  options.chunk_size = settings.chunk_size;
  options.threshold = settings.threshold;
  options.max_rationale = config.verification.options.max_rationale;
  options.max_length = settings.max_length;
  options.batch_size = settings.batch_size;
  spdlog::info("checker: {} ({}; {}), rule {}{}, threshold {}", folder.string(), checkpoint->text_model().model().description(),
               checkpoint->text_model().tokenizer().description(), verification::checker_kind_name(kind),
               settings.labels.empty() && !labels.empty() ? ", labels read as unsupported,supported" : "", options.threshold);
  return verification::make_checker_verifier(std::move(checkpoint), options);
}

}  // namespace

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
  auto checkpoint = std::make_shared<const verification::NliCheckpoint>(folder, config.verification.checkpoint.labels);
  const auto options = checkpoint_verifier_options(config);
  spdlog::info("checkpoint verifier: {} ({}; {}), premise {}, threshold {}", folder.string(),
               checkpoint->text_model().model().description(), checkpoint->text_model().tokenizer().description(),
               verification::premise_unit_name(options.rule.premise), options.rule.threshold);
  return verification::make_checkpoint_verifier(std::move(checkpoint), options);
}

VerifierBackend checkpoint_verifier_backend() {
  return {.kind = "checkpoint",
          .location = SpecLocation::folder,
          .open = [](const VerifierSource& source, const verification::VerifierSpec& spec, const ExperimentConfig& config) {
            refuse_builtin_model_files(source, spec, "reads the checkpoint folder itself");
            const auto checker = verification::parse_checker_kind(config.verification.checkpoint.checker);
            if (checker != verification::CheckerKind::nli) {
              if (config.verification.checkpoint.stacked) {
                throw UsageError("verification.checkpoint.stacked stacks the nli rule's probabilities; it does not take --checker " +
                                 config.verification.checkpoint.checker);
              }
              return open_checker_verifier(spec.location, config, checker);
            }
            return config.verification.checkpoint.stacked ? open_stacked_verifier(source, spec.location, config)
                                                          : open_checkpoint_verifier(spec.location, config);
          },
          .describe = describe_checkpoint,
          .records_beside = true,
          .served = false,
          .reads = [](const VerifierSource&, const verification::VerifierSpec& spec) { return fs::path(spec.location); }};
}

}  // namespace claimrag::experiment
