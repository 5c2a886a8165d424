#include <spdlog/spdlog.h>

#include <iostream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/evaluate_stage.hpp"
#include "claimrag/experiment/evidence/evidence_evaluation.hpp"
#include "claimrag/experiment/expectations.hpp"
#include "claimrag/experiment/verification/calibration_stage.hpp"
#include "claimrag/experiment/verification/verification_evaluation.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/io/table.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"

namespace claimrag::cli {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string joined;
  for (const auto& name : names) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

void print_and_enforce(const experiment::CheckReport& report, const std::string& expected_file) {
  for (const auto& line : report.lines) std::cout << line.message << '\n';
  if (report.failures() > 0) {
    throw CheckFailedError(std::to_string(report.failures()) + " metric(s) deviate from " + expected_file);
  }
}

/// Prints the computed metrics and compares them with section `section` of `check` (if given).
void report_and_check(const std::string& label, const std::map<std::string, double>& computed, const std::string& check,
                      const std::string& section) {
  for (const auto& [name, value] : computed) std::cout << label << '\t' << name << '\t' << io::fixed(value, 6) << '\n';
  if (!check.empty()) print_and_enforce(experiment::check_section(check, section, computed), check);
}

template <typename Options>
void freeze_section(const Options& options, const std::string& section, const std::map<std::string, double>& computed) {
  if (options.freeze.empty()) return;
  experiment::freeze_expectations({{section, computed}}, options.freeze, options.freeze_tolerance,
                                  "Frozen by claimrag evaluate --freeze");
}

struct EvaluateOptions {
  std::string data;
  std::string split;
  std::string run;
  std::string metrics;
  std::string out;
  std::string check;
  std::string section;
  std::string evidence;
  std::string original;
  std::string config;
  std::string results;
  std::string verification;
  std::string freeze;
  double freeze_tolerance = 0;
  std::string pairs;     ///< labelled pairs, scored with --verifier
  std::string verifier;
  CheckpointReading reading;
  JudgeFlags judge;
};

/// --pairs: the verifier on labelled pairs, per dataset (LLM-AggreFact's layout).
void evaluate_pairs(const EvaluateOptions& options, const experiment::VerifierSource& source) {
  if (!options.run.empty() || !options.evidence.empty() || !options.verification.empty() || !options.results.empty() ||
      !options.check.empty() || !options.freeze.empty()) {
    throw UsageError("--pairs goes without --run, --evidence, --verification, --results, --check and --freeze");
  }
  if (options.out.empty()) throw UsageError("--pairs needs --out");
  const experiment::EvaluatePairsRequest request{options.pairs, options.out, source};
  check_checkpoint_reading(options.reading, options.verifier);
  experiment::run_evaluate_pairs(request, config_from(options.config, options.reading), std::cout);
}

/// The whole subcommand, in one of its modes: --results, --verification, --evidence or --run.
void evaluate(const EvaluateOptions& flags, const experiment::VerifierSource& source) {
  const EvaluateOptions* options = &flags;
  if (!options->pairs.empty()) return evaluate_pairs(*options, source);
  if (!options->results.empty()) {
    if (!options->run.empty() || !options->evidence.empty()) throw UsageError("--results goes without --run and --evidence");
    if (options->check.empty() && options->freeze.empty()) throw UsageError("--results needs --check or --freeze");
    const auto results = experiment::read_results(options->results);
    if (!options->freeze.empty()) {
      experiment::freeze_expectations(results, options->freeze, options->freeze_tolerance,
                                      "Frozen by claimrag evaluate --freeze from " + options->results);
    }
    if (!options->check.empty()) print_and_enforce(experiment::check_all(options->check, results), options->check);
    return;
  }
  if (!options->verification.empty()) {
    if (options->original.empty() || options->split.empty() || options->out.empty()) {
      throw UsageError("--verification needs --original, --split and --out");
    }
    const auto metrics = experiment::evaluate_verification({options->verification, options->original, options->split});
    if (metrics.claims_without_prediction > 0) {
      spdlog::warn("{} claims of split {} have no line in {}: they predict nothing", metrics.claims_without_prediction,
                   options->split, options->verification);
    }
    if (metrics.documents_over_sentence_cap > 0) {
      spdlog::warn("{} predicted abstracts have more than 3 sentences: the abstract level reads the first 3",
                   metrics.documents_over_sentence_cap);
    }
    experiment::write_verification_evaluation(metrics, options->verification, options->split, options->out);
    const std::string section = options->section.empty() ? "verification" : options->section;
    const auto values = experiment::verification_metric_values(metrics.scores);
    freeze_section(*options, section, values);
    report_and_check("verification", values, options->check, section);
    return;
  }
  if (options->run.empty() == options->evidence.empty()) {
    throw UsageError("evaluate needs exactly one of --run, --evidence, --verification and --results");
  }
  if (options->data.empty() || options->split.empty() || options->out.empty()) {
    throw UsageError("--run and --evidence need --data, --split and --out");
  }
  if (!options->evidence.empty()) {
    const auto config = config_from(options->config);
    const auto evaluation = experiment::evaluate_evidence(
        {options->data, options->split, options->evidence, options->original, config.evidence.min_sentence_characters});
    if (evaluation.claims_missing_from_selections > 0) {
      spdlog::warn("{} judged claims have no line in {}: they score 0", evaluation.claims_missing_from_selections, options->evidence);
    }
    experiment::write_evidence_evaluation(evaluation, options->evidence, options->split, options->out,
                                          experiment::load_paper_numbers(config.paper).section("evidence"));
    freeze_section(*options, options->section.empty() ? "evidence" : options->section, evaluation.mean);
    report_and_check("evidence", evaluation.mean, options->check, options->section.empty() ? "evidence" : options->section);
    return;
  }
  const auto run = run::read_trec_run(options->run);
  const std::string section = options->section.empty() ? experiment::section_for_tag(run.tag) : options->section;
  std::string metric_list = options->metrics;
  if (metric_list.empty()) {
    metric_list = options->check.empty() ? experiment::default_config().evaluation.metrics
                                         : join(experiment::expected_metrics(options->check, section));
  }
  const auto specs = metrics::parse_metric_list(metric_list);
  const auto qrels = dataset::load_split(options->data, options->split);
  const auto evaluation = metrics::evaluate_run(run, qrels, specs);
  if (evaluation.queries_missing_from_run > 0) {
    spdlog::warn("{} judged queries have no ranking in {}: they score 0", evaluation.queries_missing_from_run, options->run);
  }
  if (evaluation.queries_without_judgments > 0) {
    spdlog::info("{} queries of the run are not judged in split {}: left out", evaluation.queries_without_judgments,
                 options->split);
  }
  experiment::write_evaluation(evaluation, run.tag, options->split, options->out);
  std::map<std::string, double> computed;
  for (std::size_t m = 0; m < specs.size(); ++m) {
    computed[specs[m].name()] = evaluation.mean[m];
    std::cout << run.tag << '\t' << specs[m].name() << '\t' << io::fixed(evaluation.mean[m], 6) << '\n';
  }
  freeze_section(*options, section, computed);
  if (!options->check.empty()) print_and_enforce(experiment::check_section(options->check, section, computed), options->check);
}

}  // namespace

void add_evaluate_command(CLI::App& root) {
  auto options = std::make_shared<EvaluateOptions>();
  auto* command = root.add_subcommand(
      "evaluate", "Score a run, an evidence selection or verification predictions, and check them against frozen values");
  command->add_option("--data", options->data, "BEIR dataset folder (with --run or --evidence)");
  command->add_option("--split", options->split, "Qrels split to evaluate against (with --run or --evidence)");
  auto* run_option = command->add_option("--run", options->run, "TREC run file");
  auto* results_option = command->add_option("--results", options->results,
                                             "A reproduction's results.json: check every section of --check against it");
  run_option->excludes(results_option);
  auto* evidence_option = command->add_option("--evidence", options->evidence,
                                              "Evidence JSON Lines of extract-evidence (instead of --run; section default \"evidence\")");
  run_option->excludes(evidence_option);
  auto* verification_option = command->add_option(
      "--verification", options->verification,
      "Verification predictions (JSON Lines): SciFact's official metrics (needs --original; section default \"verification\")");
  verification_option->excludes(run_option)->excludes(evidence_option)->excludes(results_option);
  command->add_option("--original", options->original,
                      "SciFact release layout: with --evidence adds gold-rationale metrics; with --verification the gold");
  add_config_option(*command, options->config);  // with --evidence: the sentence splitter's minimum length
  command->add_option("--metrics", options->metrics,
                      "Metrics, e.g. ndcg@5,10,recall@100 (default: those --check expects, else the config's)");
  command->add_option("--out", options->out, "Output prefix: writes PREFIX.tsv and PREFIX.json (with --run or --evidence)");
  command->add_option("--check", options->check, "Frozen expected metrics; exit 1 on any deviation");
  command->add_option("--section", options->section,
                      "Section of --check to compare with (default: the run's tag, '+' read as '_')");
  add_freeze_options(*command, options->freeze, options->freeze_tolerance);
  command->add_option("--pairs", options->pairs,
                      "Labelled pairs (JSON Lines, LLM-AggreFact's layout or claimrag's): score --verifier on them per "
                      "dataset (balanced accuracy, or macro-F1 for three labels)");
  add_verifier_option(*command, options->verifier);
  add_checkpoint_reading_options(*command, options->reading);
  add_judge_flags(*command, options->judge);
  add_threads_option(*command);
  add_precision_option(*command);
  command->callback([options] {
    if (options->pairs.empty() && !options->verifier.empty()) {
      throw UsageError("--verifier is scored on labelled pairs: give it with --pairs");
    }
    experiment::VerifierSource source;
    source.spec = options->verifier;
    if (!options->pairs.empty()) set_served_source(source, options->judge, options->out + ".json");
    io::OutputDeclaration files{.inputs = {options->data, options->run, options->evidence, options->verification,
                                           options->original, options->config, options->results, options->check,
                                           options->pairs, options->pairs.empty() ? std::filesystem::path() : verifier_input(source)},
                                .files = {options->freeze, source.served.record}};
    if (!options->out.empty()) {  // a prefix: its table and JSON
      files.files.emplace_back(options->out + ".tsv");
      files.files.emplace_back(options->out + ".json");
    }
    with_outputs(files, [&] { evaluate(*options, source); });
  });
}

}  // namespace claimrag::cli
