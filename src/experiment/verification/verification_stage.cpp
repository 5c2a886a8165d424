#include "claimrag/experiment/verification/verification_stage.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "../../verification/verdict_scores.hpp"
#include "claimrag/verification/prediction.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/gate/calibration.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/verification/rationale_selection.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using namespace claimrag::verification;

struct Trained {
  std::unique_ptr<ClaimVerifier> verifier;
  TrainingReport report;
};

Trained train(const std::vector<LabelledInput>& items, const std::vector<std::string>& corpus_texts,
              const VerificationOptions& options, VerifierSetting setting = VerifierSetting::oracle) {
  Trained trained;
  trained.verifier = train_claim_verifier({items, corpus_texts, setting}, options, &trained.report);
  return trained;
}

std::vector<ClaimVerdict> verify_all(const ClaimVerifier& verifier, const std::vector<LabelledInput>& items) {
  std::vector<VerificationInput> inputs;
  for (const auto& item : items) inputs.push_back(item.input);
  return verifier.verify(inputs);
}

/// Every kept abstract SUPPORT (only_labelled: only those we did not call NEI), citing our
/// rationale or, when it is empty, the best sentence.
std::vector<ClaimVerdict> as_support(std::vector<ClaimVerdict> verdicts, bool only_labelled) {
  for (auto& claim : verdicts) {
    for (auto& document : claim.documents) {
      if (only_labelled && document.label == Label::not_enough_info) continue;
      document.label = Label::support;
      if (document.rationale.empty() && !document.sentence_scores.empty()) {
        std::vector<double> scores;
        for (const auto& s : document.sentence_scores) scores.push_back(s.score);
        document.rationale = best_sentences(scores, 1);
      }
    }
  }
  return verdicts;
}

std::map<std::string, double> score(const std::vector<ClaimVerdict>& verdicts, const std::vector<LabelledInput>& items) {
  std::vector<const LabelledInput*> gold;
  for (const auto& item : items) gold.push_back(&item);
  const auto s = detail::verdict_scores(verdicts, gold);
  std::map<std::string, double> named;
  const std::pair<const char*, const detail::F1Scores*> parts[] = {
      {"label_only", &s.label_only}, {"label_rationale", &s.label_rationale}, {"selection", &s.selection}, {"selection_label", &s.selection_label}};
  for (const auto& [name, f] : parts) {
    named[std::string(name) + "_precision"] = f->precision;
    named[std::string(name) + "_recall"] = f->recall;
    named[std::string(name) + "_f1"] = f->f1;
  }
  return named;
}

/// Calibration of the verdicts: each document's verdict with the probability of its label as the
/// confidence, correct when it is the gold label; ECE over 10 equal-width bins.
std::map<std::string, double> calibration(const std::vector<ClaimVerdict>& verdicts, const std::vector<LabelledInput>& items,
                                          double temperature) {
  std::vector<double> confidence;
  std::vector<int> correct;
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    for (std::size_t d = 0; d < verdicts[c].documents.size(); ++d) {
      const auto& document = verdicts[c].documents[d];
      confidence.push_back(document.probabilities[static_cast<std::size_t>(document.label)]);
      correct.push_back(document.label == items[c].gold.at(d).label ? 1 : 0);
    }
  }
  return {{"ece", gate::expected_calibration_error(confidence, correct, 10)},
          {"documents", static_cast<double>(confidence.size())},
          {"temperature", temperature}};
}

/// Document-level label F1 (each (claim, document) verdict against its gold label): per label
/// and their macro mean.
std::map<std::string, double> label_f1s(const std::vector<ClaimVerdict>& verdicts, const std::vector<LabelledInput>& items) {
  std::array<double, label_count> true_positive{}, predicted{}, gold{};
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    for (std::size_t d = 0; d < verdicts[c].documents.size(); ++d) {
      const auto said = static_cast<std::size_t>(verdicts[c].documents[d].label);
      const auto truth = static_cast<std::size_t>(items[c].gold.at(d).label);
      predicted[said] += 1;
      gold[truth] += 1;
      true_positive[said] += said == truth ? 1 : 0;
    }
  }
  std::map<std::string, double> named;
  double macro = 0;
  for (std::size_t k = 0; k < label_count; ++k) {
    const double f1 = predicted[k] + gold[k] == 0 ? 0.0 : 2 * true_positive[k] / (predicted[k] + gold[k]);
    named[std::string(label_name(static_cast<Label>(k))) + "_f1"] = f1;
    macro += f1 / static_cast<double>(label_count);
  }
  named["macro_f1"] = macro;
  return named;
}

/// Share of NOT_ENOUGH_INFO verdicts on the documents free_text_inputs adds to each claim (the
/// last two: a same-topic BM25 neighbour without evidence, then an unrelated abstract).
std::map<std::string, double> off_evidence_rates(const ClaimVerifier& verifier, const std::vector<LabelledInput>& items) {
  const auto verdicts = verify_all(verifier, items);
  double neighbour = 0, unrelated = 0;
  for (const auto& verdict : verdicts) {
    const std::size_t n = verdict.documents.size();
    neighbour += verdict.documents.at(n - 2).label == Label::not_enough_info ? 1 : 0;
    unrelated += verdict.documents.at(n - 1).label == Label::not_enough_info ? 1 : 0;
  }
  const auto claims = static_cast<double>(verdicts.size());
  return {{"neighbour_nei_rate", neighbour / claims}, {"unrelated_nei_rate", unrelated / claims}, {"claims", claims}};
}

const char* const kMetrics[] = {"selection", "selection_label", "label_only", "label_rationale"};

}  // namespace

void run_verification_stage(const ExperimentConfig& config, const SciFactVerifiers& data, const fs::path& work,
                            Results& results) {
  const auto started = std::chrono::steady_clock::now();
  const auto& abstracts = data.abstracts();
  const auto& train_claims = data.train_claims();
  const auto& dev_claims = data.dev_claims();
  const AbstractIndex& index = data.index();
  const auto& corpus_texts = data.corpus_texts();
  const VerificationOptions& options = config.verification.options;
  VerificationOptions claim_only = options;
  claim_only.claim_only = true;

  io::Table table{{"setting", "system"}, {}};
  for (const char* metric : kMetrics) {
    for (const char* part : {"precision", "recall", "f1"}) table.columns.push_back(std::string(metric) + "_" + part);
  }
  // Predictions in SciFact's format (plus our probabilities and sentence scores), one file per row.
  const auto write = [&](const std::string& setting, const std::string& system, const std::vector<ClaimVerdict>& verdicts,
                         const std::vector<LabelledInput>& items) {
    std::vector<ClaimPrediction> predictions;
    for (std::size_t c = 0; c < verdicts.size(); ++c) predictions.push_back(to_prediction(verdicts[c], &items[c].input));
    write_predictions(predictions, work / "verification" / (setting + "_" + system + ".jsonl"));
  };
  const auto add_row = [&](const std::string& setting, const std::string& system, const std::map<std::string, double>& scores) {
    std::vector<std::string> row{setting, system};
    for (const char* metric : kMetrics) {
      for (const char* part : {"precision", "recall", "f1"}) {
        const auto found = scores.find(std::string(metric) + "_" + part);
        row.push_back(found == scores.end() ? "-" : io::fixed(found->second, 4));
      }
    }
    table.rows.push_back(std::move(row));
    results["verification_" + setting + (system == "claimrag" ? "" : "_" + system)] = scores;
  };

  std::map<std::string, double> cv;
  const auto run_setting = [&](const std::string& setting, const std::vector<LabelledInput>& train_items,
                               const std::vector<LabelledInput>& dev_items, Trained trained) {
    trained.verifier->save(work / "models" / ("verifier_" + setting + ".safetensors"));
    cv[setting + "_tau"] = trained.report.tau;
    cv[setting + "_nei_threshold"] = trained.report.nei_threshold;
    for (const auto& [name, value] : trained.report.cross_validation) cv[setting + "_" + name] = value;
    const Trained baseline = train(train_items, corpus_texts, claim_only);
    const auto verdicts = verify_all(*trained.verifier, dev_items);
    results["verification_" + setting + "_calibration"] =
        calibration(verdicts, dev_items, trained.report.cross_validation["temperature"]);
    const std::pair<const char*, std::vector<ClaimVerdict>> systems[] = {
        {"claimrag", verdicts},
        {"always_support", as_support(verdicts, false)},
        {"support_replaced", as_support(verdicts, true)},
        {"claim_only", verify_all(*baseline.verifier, dev_items)}};
    for (const auto& [system, system_verdicts] : systems) {
      write(setting, system, system_verdicts, dev_items);
      add_row(setting, system, score(system_verdicts, dev_items));
    }
  };

  const auto oracle_train = oracle_inputs(train_claims, index);
  const auto oracle_dev = oracle_inputs(dev_claims, index);
  // The oracle and the free-text verifier (what users' own pairs get), each also scored by
  // document label on the oracle dev pairs and on dev claims against abstracts without evidence.
  const auto off_evidence_dev = data.free_text_inputs(dev_claims);
  const auto free_text_train = data.free_text_training_inputs(train_claims);
  std::pair<std::string, Trained> settings[] = {
      {"oracle", train(oracle_train, corpus_texts, options)},
      {"free_text", train(free_text_train, corpus_texts, options, VerifierSetting::free_text)}};
  for (auto& [setting, trained] : settings) {
    results["verification_" + setting + "_off_evidence"] = off_evidence_rates(*trained.verifier, off_evidence_dev);
    results["verification_" + setting + "_labels"] = label_f1s(verify_all(*trained.verifier, oracle_dev), oracle_dev);
    run_setting(setting, setting == "oracle" ? oracle_train : free_text_train, oracle_dev, std::move(trained));
  }

  std::size_t depth = 0;
  for (const std::size_t k : config.verification.open_k_grid) depth = std::max(depth, k);
  const auto train_run = bm25_run(abstracts, train_claims, config.bm25.parameters.k1, config.bm25.parameters.b, depth);
  const auto dev_run = bm25_run(abstracts, dev_claims, config.bm25.parameters.k1, config.bm25.parameters.b, depth);
  std::size_t best_k = 0;
  Trained best;
  std::vector<LabelledInput> best_train;
  for (const std::size_t k : config.verification.open_k_grid) {
    auto items = open_inputs(train_claims, index, train_run, k);
    Trained trained = train(items, corpus_texts, options);
    const double f1 = trained.report.cross_validation["label_rationale_f1"];
    cv["open_k" + std::to_string(k) + "_label_rationale_f1"] = f1;
    spdlog::info("verification open k={}: CV Label+Rationale F1 {:.4f}", k, f1);
    if (best_k == 0 || f1 > best.report.cross_validation["label_rationale_f1"]) {
      best_k = k;
      best = std::move(trained);
      best_train = std::move(items);
    }
  }
  cv["open_k"] = static_cast<double>(best_k);
  run_setting("open", best_train, open_inputs(dev_claims, index, dev_run, best_k), std::move(best));
  results["verification_cv"] = cv;

  const auto paper = config.verification.paper.empty() ? nlohmann::json::object()
                                                       : nlohmann::json::parse(io::read_json_text(config.verification.paper));
  for (const char* setting : {"oracle", "open"}) {
    if (!paper.contains(setting)) continue;
    std::vector<std::string> row{setting, "verisci_paper"};
    for (const char* metric : kMetrics) {
      row.insert(row.end(), {"-", "-", io::fixed(paper.at(setting).at(std::string(metric) + "_f1").get<double>(), 4)});
    }
    table.rows.push_back(std::move(row));
  }
  io::write_tsv(table, work / "tables" / "verification.tsv");
  spdlog::info("verification stage: {:.1f} s",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace claimrag::experiment
