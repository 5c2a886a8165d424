#include "claimrag/experiment/systems/grounding_stage.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/experiment/systems/grounding_outputs.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/grounding/ground.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using grounding::Benchmark;
using grounding::GroundedAnswer;
using grounding::Method;
using grounding::ScoredAnswer;

Benchmark build(const ExperimentConfig& config, const SciFactVerifiers& data, const std::vector<dataset::Claim>& claims,
                const std::string& prefix, std::size_t unrelated_per_answer = 0) {
  const auto& g = config.grounding;
  // Deep enough that every claim finds its decoys after skipping its own gold abstracts.
  const std::size_t depth = g.decoys_per_claim + 20;
  const auto run = verification::bm25_run(data.abstracts(), claims, config.bm25.parameters.k1, config.bm25.parameters.b, depth);
  grounding::BenchmarkOptions options;
  options.min_claims = g.min_claims;
  options.max_claims = g.max_claims;
  options.decoys_per_claim = g.decoys_per_claim;
  options.rounds = g.rounds;
  options.seed = config.seed;
  options.id_prefix = prefix;
  options.unrelated_per_answer = unrelated_per_answer;
  return grounding::build_benchmark(claims, run, options);
}

std::vector<grounding::AnswerToGround> to_ground(const Benchmark& benchmark, const verification::AbstractIndex& index) {
  std::vector<grounding::AnswerToGround> answers;
  answers.reserve(benchmark.answers.size());
  for (const auto& answer : benchmark.answers) {
    grounding::AnswerToGround item{answer.id, answer.answer, {}, {}, {}};
    for (const auto& doc_id : answer.context_doc_ids) {
      const auto found = index.find(doc_id);
      if (found == index.end()) throw DataError("grounding benchmark: abstract " + doc_id + " is not in the corpus");
      item.context.push_back({doc_id, found->second->title, found->second->sentences, 0, 0.0});
    }
    for (const auto& claim : answer.claims) item.verifier_claim_ids.push_back(claim.claim_id);
    answers.push_back(std::move(item));
  }
  return answers;
}

/// The claims' scores, s read from `support` (the reading the grounding used, or either of the
/// two every judgement holds).
std::vector<ScoredAnswer> scored(const Benchmark& benchmark, const std::vector<GroundedAnswer>& grounded,
                                 double grounding::ClaimJudgement::*support = &grounding::ClaimJudgement::support) {
  std::vector<ScoredAnswer> answers;
  for (std::size_t a = 0; a < grounded.size(); ++a) {
    ScoredAnswer answer;
    for (std::size_t c = 0; c < grounded[a].claims.size(); ++c) {
      const auto& judgement = grounded[a].claims[c].judgement;
      const auto& claim = benchmark.answers[a].claims.at(c);
      answer.push_back({judgement.*support, judgement.conflict, claim.gold, claim.unrelated});
    }
    answers.push_back(std::move(answer));
  }
  return answers;
}

/// Grounding's curve over τ_s (τ_c as chosen) and refusal_mean's over τ_m.
std::vector<PrCurve> curves(const std::string& split, const std::vector<ScoredAnswer>& answers,
                            const grounding::MethodSettings& chosen, const std::vector<double>& grid) {
  PrCurve support{split, "grounding", "support", grid, {}};
  PrCurve mean{split, "refusal_mean", "mean_support", grid, {}};
  for (const double value : grid) {
    auto settings = chosen;
    settings.thresholds.support = value;
    support.metrics.push_back(grounding::evaluate_method(Method::grounding, answers, settings));
    settings = chosen;
    settings.mean_support_threshold = value;
    mean.metrics.push_back(grounding::evaluate_method(Method::refusal_mean, answers, settings));
  }
  return {support, mean};
}

/// `ground`'s thresholds for users, from the configuration's "grounding" section.
grounding::GroundingThresholds ground_defaults(const GroundingConfig& g) {
  return {g.support_threshold, g.conflict_threshold, g.verdict_gates_support, g.contradict_ratio};
}

/// grounding/train_free_text_claims.jsonl: every claim of the train benchmark with unrelated
/// claims, s with and without the verdict gate, c, its gold label and whether it is unrelated,
/// so that `ground`'s defaults can be chosen on it beside another domain's benchmark
/// (scripts/research/ground_defaults.py).
void write_claim_scores(const Benchmark& benchmark, const std::vector<ScoredAnswer>& gated, const std::vector<ScoredAnswer>& ungated,
                        const fs::path& path) {
  io::AtomicFile file(path);
  for (std::size_t a = 0; a < gated.size(); ++a) {
    for (std::size_t c = 0; c < gated[a].size(); ++c) {
      const auto& claim = gated[a][c];
      file.stream() << nlohmann::json{{"id", benchmark.answers[a].id},
                                      {"claim", c},
                                      {"support_gated", claim.support},
                                      {"support", ungated[a][c].support},
                                      {"conflict", claim.conflict},
                                      {"gold", verification::label_name(claim.gold)},
                                      {"unrelated", claim.unrelated}}
                                          .dump()
                    << '\n';
    }
  }
  file.commit();
}

/// What `ground` gives users by default: the free-text verifier at the configuration's
/// thresholds, measured on the train benchmark with unrelated claims appended (judged by the
/// cross-fitted free-text verifier, whose claim scores are written for the choice of the
/// defaults), then on the dev benchmark built the same way.
void free_text_grounding(const ExperimentConfig& config, SciFactVerifiers& data, const fs::path& work, Results& results) {
  const auto& g = config.grounding;
  const auto defaults = ground_defaults(g);
  grounding::MethodSettings settings;
  settings.thresholds = defaults;
  const Benchmark train = build(config, data, data.train_claims(), "train-free-text", g.unrelated_per_answer);
  const auto train_answers = to_ground(train, data.index());
  // Every judgement holds both readings of s, so one grounding gives the defaults' scores and the
  // choice's file.
  const auto train_grounded = grounding::ground_answers(data.cross_fitted_free_text(), train_answers, defaults);
  write_claim_scores(train, scored(train, train_grounded, &grounding::ClaimJudgement::gated_support),
                     scored(train, train_grounded, &grounding::ClaimJudgement::ungated_support),
                     work / "grounding" / "train_free_text_claims.jsonl");
  const auto train_metrics = grounding::evaluate_method(Method::grounding, scored(train, train_grounded), settings);
  std::map<std::string, double> measured{{"train_answers", static_cast<double>(train.answers.size())}};
  for (const char* key : {"conflict_rate", "recall", "unrelated_kept_rate", "nei_kept_rate"}) measured["train_" + std::string(key)] = train_metrics.at(key);
  results["grounding_free_text_train"] = measured;

  const Benchmark dev = build(config, data, data.dev_claims(), "dev-free-text", g.unrelated_per_answer);
  const auto dev_scored = scored(dev, grounding::ground_answers(data.free_text(), to_ground(dev, data.index()), defaults));
  results["grounding_free_text"] = grounding::evaluate_method(Method::grounding, dev_scored, settings);
  results["grounding_free_text_unfiltered"] = grounding::evaluate_method(Method::score_only, dev_scored, settings);
  spdlog::info("grounding (free text): ground's defaults (tau_s {}, tau_c {}, gamma {}, verdict gate {}) measured on {} train "
               "and {} dev answers with unrelated claims",
               defaults.support, defaults.conflict, defaults.contradict_ratio, defaults.verdict_gates_support ? "on" : "off", train.answers.size(),
               dev.answers.size());
}

}  // namespace

void run_grounding_stage(const ExperimentConfig& config, SciFactVerifiers& data, const fs::path& work, Results& results) {
  const auto started = std::chrono::steady_clock::now();
  const auto& g = config.grounding;
  fs::create_directories(work / "grounding");
  fs::create_directories(work / "tables");

  // Train: thresholds chosen on cross-fitted verdicts.
  const Benchmark train = build(config, data, data.train_claims(), "train");
  const auto& cross_fitted = data.cross_fitted_oracle();  // trained once per reproduction, shared by the stages
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  spdlog::info("grounding: train benchmark and cross-fitted verifier ready after {:.1f} s", elapsed());
  const auto train_grounded = grounding::ground_answers(cross_fitted, to_ground(train, data.index()),
                                                        {g.support_threshold, g.conflict_threshold});
  const auto train_scored = scored(train, train_grounded);
  const auto chosen = grounding::choose_settings(train_scored, g.threshold_grid, {g.max_conflict_rate, g.min_recall});
  std::map<std::string, double> choice{{"support_threshold", chosen.thresholds.support},
                                       {"conflict_threshold", chosen.thresholds.conflict},
                                       {"mean_support_threshold", chosen.mean_support_threshold},
                                       {"train_answers", static_cast<double>(train.answers.size())},
                                       {"train_skipped_claims", static_cast<double>(train.skipped_claims)},
                                       {"train_dropped_claims", static_cast<double>(train.dropped_claims)}};
  for (const auto method : grounding::kMethods) {
    const auto train_metrics = grounding::evaluate_method(method, train_scored, chosen);
    for (const char* key : {"conflict_rate", "recall", "partial_hallucination_rate"}) {
      choice["train_" + std::string(grounding::method_name(method)) + "_" + key] = train_metrics.at(key);
    }
  }
  spdlog::info("grounding: train grounded after {:.1f} s", elapsed());
  spdlog::info("grounding: chose tau_s {} tau_c {} tau_m {} on {} train answers", chosen.thresholds.support,
               chosen.thresholds.conflict, chosen.mean_support_threshold, train.answers.size());

  // Dev: judged once by the oracle verifier at the chosen thresholds.
  const Benchmark dev = build(config, data, data.dev_claims(), "dev");
  const auto dev_grounded = grounding::ground_answers(data.oracle(), to_ground(dev, data.index()), chosen.thresholds);
  const auto dev_scored = scored(dev, dev_grounded);
  const auto sample = grounding::frozen_sample(dev.answers.size(), g.sample_size, config.seed);
  choice["dev_answers"] = static_cast<double>(dev.answers.size());
  choice["dev_skipped_claims"] = static_cast<double>(dev.skipped_claims);
  choice["dev_dropped_claims"] = static_cast<double>(dev.dropped_claims);
  choice["sample_answers"] = static_cast<double>(sample.size());
  results["grounding_choice"] = choice;
  for (const auto method : grounding::kMethods) {
    const std::string name(grounding::method_name(method));
    results["grounding_" + name] = grounding::evaluate_method(method, dev_scored, chosen);
    results["grounding_sample_" + name] = grounding::evaluate_method(method, dev_scored, chosen, sample);
  }

  write_benchmark_files(dev, sample, work / "grounding", "dev");
  io::AtomicFile grounded_file(work / "grounding" / "dev_grounded.jsonl");
  for (const auto& answer : dev_grounded) grounded_file.stream() << grounding::grounded_answer_json(answer).dump() << '\n';
  grounded_file.commit();
  write_grounding_table(results, load_paper_numbers(g.paper), work / "tables" / "grounding.tsv");
  auto all_curves = curves("train", train_scored, chosen, g.threshold_grid);
  for (auto& curve : curves("dev", dev_scored, chosen, g.threshold_grid)) all_curves.push_back(std::move(curve));
  write_pr_table(all_curves, work / "tables" / "grounding_pr.tsv");
  free_text_grounding(config, data, work, results);
  spdlog::info("grounding stage: {} dev answers, {:.1f} s", dev.answers.size(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace claimrag::experiment
