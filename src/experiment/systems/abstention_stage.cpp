#include "claimrag/experiment/systems/abstention_stage.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "claimrag/abstention/claim_answer.hpp"
#include "claimrag/abstention/comparison.hpp"
#include "claimrag/abstention/strategy_confidence.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/gate/signals.hpp"
#include "claimrag/grounding/claim_judgement.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/sufficiency/command.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/verification/gold.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using verification::ClaimVerdict;
using verification::ClaimVerifier;
using verification::LabelledInput;
using verification::VerificationInput;

/// The strategies' names, in column order.
const std::vector<std::string> kStrategies{"bm25_top1", "combined", "verifier", "grounding", "ciber", "sure", "verifier_citation"};

/// What judges one split: the open verifier answers; the oracle-setting one judges for grounding,
/// interrogation and sufficiency, as in their own stages.
struct Judges {
  const ClaimVerifier& answerer;
  const ClaimVerifier& judge;
};

/// The systems the oracle-setting verifier serves were trained on given abstracts, never ranked
/// ones: they see the retrieved abstracts without rank and score, as `ground --run` shows them.
std::vector<VerificationInput> as_given(const std::vector<LabelledInput>& items) {
  std::vector<VerificationInput> inputs;
  for (const auto& item : items) {
    VerificationInput input = item.input;
    for (auto& document : input.documents) {
      document.retrieval_rank = 0;
      document.retrieval_score = 0.0;
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<double> bm25_column(const std::vector<LabelledInput>& items) {
  std::vector<double> values;
  for (const auto& item : items) values.push_back(item.input.documents.empty() ? 0.0 : item.input.documents.front().retrieval_score);
  return values;
}

std::vector<double> combined_column(const fs::path& file, const std::vector<LabelledInput>& items) {
  const auto values = gate::read_signal_file(file.string());
  std::vector<double> column;
  for (const auto& item : items) {
    const auto found = values.find(item.input.claim_id);
    if (found == values.end()) throw DataError(file.string(), "no value for claim " + item.input.claim_id);
    column.push_back(found->second);
  }
  return column;
}

/// The seed system's τ_s and τ_c as the grounding stage chose them on train (the configuration's
/// grounding.support_threshold and conflict_threshold are `ground`'s defaults on users' text).
grounding::GroundingThresholds chosen_grounding_thresholds(const Results& results) {
  const auto section = results.find("grounding_choice");
  if (section == results.end() || !section->second.contains("support_threshold") || !section->second.contains("conflict_threshold")) {
    throw UsageError("the abstention stage needs the grounding stage's thresholds (run it first)");
  }
  return {section->second.at("support_threshold"), section->second.at("conflict_threshold")};
}

std::vector<double> grounding_column(const std::vector<VerificationInput>& inputs, const std::vector<ClaimVerdict>& judged,
                                     const std::vector<abstention::ClaimAnswer>& answers, const grounding::GroundingThresholds& thresholds) {
  std::vector<double> values;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    if (!answers[c].answered) {
      values.push_back(0.0);
      continue;
    }
    const auto judgement = grounding::judge_claim(inputs[c], judged[c], thresholds);
    values.push_back(abstention::grounding_confidence(judgement, answers[c].verdict));
  }
  return values;
}

std::vector<double> ciber_column(const std::vector<VerificationInput>& inputs, const std::vector<abstention::ClaimAnswer>& answers,
                                 const ClaimVerifier& judge, double alpha, const ExperimentConfig& config) {
  std::vector<interrogation::InterrogationPair> pairs;
  std::size_t most = 1;
  for (const auto& input : inputs) {
    most = std::max(most, input.documents.size());
    for (const auto& document : input.documents) {
      pairs.push_back(interrogation::make_pair(input.claim_id + ":" + document.doc_id, input.claim_id, input.claim, document));
    }
  }
  const auto& settings = config.interrogation;
  interrogation::BuiltinResponder responder(judge, {settings.temperature, config.seed});
  const auto results = interrogation::interrogate(pairs, interrogation::load_probes(settings.probes), responder, {settings.samples, alpha});
  std::map<std::string, interrogation::ClaimLevelVerdict> by_claim;
  for (auto& verdict : interrogation::claim_level_verdicts(pairs, results, most)) by_claim.emplace(verdict.claim_id, std::move(verdict));
  std::vector<double> values;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    const auto found = by_claim.find(inputs[c].claim_id);
    values.push_back(answers[c].answered && found != by_claim.end()
                         ? abstention::interrogation_confidence(found->second, answers[c].verdict)
                         : 0.0);
  }
  return values;
}

std::vector<double> sure_column(const std::vector<VerificationInput>& inputs, const std::vector<abstention::ClaimAnswer>& answers,
                                const ClaimVerifier& judge, const sufficiency::SureModel& model) {
  const auto scored = sufficiency::score_examples(judge, sufficiency::examples_from_inputs(inputs));
  const auto predictions = sufficiency::predict_scored(model, scored);
  std::vector<double> values;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    values.push_back(answers[c].answered ? abstention::sufficiency_confidence(predictions[c], model.beta, answers[c].verdict) : 0.0);
  }
  return values;
}

/// One line per claim; `unsafe` is the claims table's verdict on each answer (is_unsafe).
void write_answers(const fs::path& file, const std::vector<abstention::ClaimAnswer>& answers, const std::vector<dataset::Claim>& claims,
                   const std::vector<bool>& unsafe) {
  io::AtomicFile out(file);
  for (std::size_t c = 0; c < answers.size(); ++c) {
    const auto& answer = answers[c];
    nlohmann::ordered_json line;
    line["claim_id"] = answer.claim_id;
    line["answered"] = answer.answered;
    line["verdict"] = answer.answered ? std::string(verification::label_name(answer.verdict)) : "";
    line["doc_id"] = answer.doc_id;
    line["cited"] = answer.cited;
    line["probability"] = answer.probability;
    line["unsafe"] = static_cast<bool>(unsafe[c]);
    line["gold"] = std::string(verification::label_name(verification::claim_label(claims[c])));
    if (!answer.reason.empty()) line["reason"] = answer.reason;
    out.stream() << io::json_text(line, file.string()) << '\n';
  }
  out.commit();
}

/// The claims table of one split, and (when `answers_file` is set) its answers.
abstention::ClaimsTable claims_table(StageContext& context, const std::vector<dataset::Claim>& claims, const Judges& judges,
                                     const fs::path& combined_file, double alpha, const sufficiency::SureModel& sure,
                                     const fs::path& answers_file) {
  SciFactVerifiers& data = context.scifact_verifiers();
  const auto items = data.open_inputs(claims);
  std::vector<VerificationInput> open;
  for (const auto& item : items) open.push_back(item.input);
  std::vector<abstention::ClaimAnswer> answers;
  for (const auto& verdict : judges.answerer.verify(open)) answers.push_back(abstention::claim_answer(verdict));
  const auto given = as_given(items);
  const auto judged = judges.judge.verify(given);

  abstention::ClaimsTable table;
  table.strategies = kStrategies;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    table.claim_ids.push_back(claims[c].id);
    table.answered.push_back(answers[c].answered);
    table.unsafe.push_back(abstention::is_unsafe(answers[c], claims[c]));
  }
  std::vector<double> verifier, verifier_citation;
  for (const auto& answer : answers) {
    verifier.push_back(answer.probability);
    verifier_citation.push_back(answer.probability * answer.citation_score);
  }
  table.confidence = {bm25_column(items),
                      combined_column(combined_file, items),
                      verifier,
                      grounding_column(given, judged, answers, chosen_grounding_thresholds(context.results)),
                      ciber_column(given, answers, judges.judge, alpha, context.config),
                      sure_column(given, answers, judges.judge, sure),
                      verifier_citation};
  if (!answers_file.empty()) write_answers(answers_file, answers, claims, table.unsafe);
  return table;
}

double chosen_alpha(const Results& results) {
  const auto section = results.find("interrogation_cv");
  if (section == results.end() || !section->second.contains("alpha")) {
    throw UsageError("the abstention stage needs the interrogation stage's α (run it first)");
  }
  return section->second.at("alpha");
}

}  // namespace

void run_abstention_stage(StageContext& context) {
  SciFactVerifiers& data = context.scifact_verifiers();
  const double alpha = chosen_alpha(context.results);
  const auto sure = sufficiency::load_sure(context.work / "models" / "sufficiency_aggregator.json");
  const fs::path folder = context.work / "abstention";

  if (!data.has_cross_fitted_open()) context.timer.time("cross-fitted open verifier", [&] { (void)data.cross_fitted_open(); });
  abstention::ClaimsTable train, dev;
  context.timer.time("abstention train claims", [&] {
    train = claims_table(context, data.train_claims(), {data.cross_fitted_open(), data.cross_fitted_oracle()},
                         context.work / "gate" / "combined_signal_train.tsv", alpha, sure, {});
    abstention::write_claims_table(train, folder / "train_claims.tsv");
  });
  context.timer.time("abstention dev claims", [&] {
    dev = claims_table(context, data.dev_claims(), {data.open(), data.oracle()}, context.work / "gate" / "combined_signal_test.tsv",
                       alpha, sure, folder / "dev_answers.jsonl");
    abstention::write_claims_table(dev, folder / "dev_claims.tsv");
  });
  context.timer.time("abstention comparison", [&] {
    const auto comparison = abstention::compare_abstention(dev, train, context.config.abstention);
    abstention::write_abstention_comparison(comparison, context.config.abstention, context.work / "tables");
    for (auto& [section, values] : abstention::abstention_results(comparison)) context.results[section] = values;
    spdlog::info("abstention: {} dev claims, {} unsafe if all answered", comparison.claims, comparison.unsafe);
  });
}

}  // namespace claimrag::experiment
