#include "claimrag/experiment/systems/interrogation_stage.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/interrogation/evaluation.hpp"
#include "claimrag/interrogation/scifact_pairs.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/metrics/bootstrap.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using namespace claimrag::interrogation;

/// One row of the tables: a named system's verdict on every pair.
struct System {
  std::string name;
  std::vector<Answer> verdicts;
};

/// The verifier's own verdict per pair (its NEI threshold applied), or its most probable label.
std::vector<Answer> verifier_verdicts(const verification::ClaimVerifier& verifier, const std::vector<InterrogationPair>& pairs,
                                      bool most_probable) {
  std::vector<verification::VerificationInput> inputs;
  for (const auto& pair : pairs) inputs.push_back({pair.claim_id, pair.claim, {pair.evidence}});
  const auto verdicts = verifier.verify(inputs);
  std::vector<Answer> answers;
  for (const auto& verdict : verdicts) {
    if (verdict.documents.empty()) {
      answers.push_back(Answer::neutral);
      continue;
    }
    const auto& document = verdict.documents.front();
    const verification::Label label = most_probable ? sample_label(document.probabilities, 0.0, 0.0) : document.label;
    answers.push_back(label == verification::Label::support      ? Answer::support
                      : label == verification::Label::contradict ? Answer::refute
                                                                 : Answer::neutral);
  }
  return answers;
}

std::map<std::string, double> named(const ClassificationScores& scores) {
  return {{"accuracy", scores.accuracy},
          {"macro_f1", scores.macro_f1},
          {"f1_support", scores.f1[0]},
          {"f1_refute", scores.f1[1]},
          {"f1_neutral", scores.f1[2]},
          {"pairs", static_cast<double>(scores.items)}};
}

const System& find_system(const std::vector<System>& systems, const std::string& name) {
  for (const auto& system : systems) {
    if (system.name == name) return system;
  }
  throw InternalError("interrogation stage: no system " + name);
}

/// Our rows, then the paper's rows of the same systems for each model it reports.
io::Table score_table(const std::vector<std::string>& names, const std::vector<System>& systems,
                      const std::vector<Answer>& gold, const nlohmann::json& paper) {
  io::Table table{{"system", "accuracy", "macro_f1", "f1_support", "f1_refute", "f1_neutral"}, {}};
  for (const auto& name : names) {
    const auto s = classification_scores(gold, find_system(systems, name).verdicts);
    table.rows.push_back({name, io::fixed(s.accuracy, 4), io::fixed(s.macro_f1, 4), io::fixed(s.f1[0], 4),
                          io::fixed(s.f1[1], 4), io::fixed(s.f1[2], 4)});
  }
  if (!paper.contains("models")) return table;
  for (const auto& [model, rows] : paper.at("models").items()) {
    for (const auto& name : names) {
      if (!rows.contains(name)) continue;
      const auto& row = rows.at(name);
      table.rows.push_back({"paper_" + model + "_" + name, io::fixed(row.at(0).get<double>(), 4),
                            io::fixed(row.at(1).get<double>(), 4), "-", "-", "-"});
    }
  }
  return table;
}

double choose_alpha(const LabelledPairs& train, const std::vector<PairInterrogation>& results, const std::vector<Probe>& probes,
                    const InterrogationConfig& config, std::map<std::string, double>& cv) {
  double best_alpha = config.alpha_grid.front();
  double best = -1.0;
  for (const double alpha : config.alpha_grid) {
    const auto scores = classification_scores(train.gold, verdicts(results, probes, ProbeSubset::all, VerdictSource::meta, alpha));
    cv["macro_f1@alpha=" + io::fixed(alpha, 2)] = scores.macro_f1;
    if (scores.macro_f1 > best) {
      best = scores.macro_f1;
      best_alpha = alpha;
    }
  }
  cv["alpha"] = best_alpha;
  cv["macro_f1"] = best;
  cv["rag_macro_f1"] = classification_scores(train.gold, verdicts(results, probes, ProbeSubset::all, VerdictSource::baseline, 0)).macro_f1;
  return best_alpha;
}

void write_dev_verdicts(const fs::path& file, const LabelledPairs& dev, const std::vector<System>& systems,
                        const std::vector<PairInterrogation>& results, const std::vector<Probe>& probes, double alpha) {
  io::AtomicFile out(file);
  out.stream() << "pair_id\tgold\tretrieved";
  for (const auto& system : systems) out.stream() << '\t' << system.name;
  out.stream() << "\tall_confidence\n";
  for (std::size_t i = 0; i < dev.pairs.size(); ++i) {
    out.stream() << dev.pairs[i].id << '\t' << answer_name(dev.gold[i]) << '\t' << (dev.retrieved[i] ? 1 : 0);
    for (const auto& system : systems) out.stream() << '\t' << answer_name(system.verdicts[i]);
    out.stream() << '\t' << io::fixed(refuse(results[i], probes, ProbeSubset::all, alpha).meta.confidence, 6) << '\n';
  }
  out.commit();
}

}  // namespace

void run_interrogation_stage(StageContext& context) {
  const ExperimentConfig& config = context.config;
  const InterrogationConfig& settings = config.interrogation;
  SciFactVerifiers& data = context.scifact_verifiers();
  const auto probes = load_probes(settings.probes);
  const auto& bm25 = config.bm25.parameters;
  const auto labelled = [&](const std::vector<dataset::Claim>& claims) {
    const auto run = verification::bm25_run(data.abstracts(), claims, bm25.k1, bm25.b, std::max<std::size_t>(settings.retrieved_k, 1));
    return scifact_pairs(claims, data.index(), run, settings.retrieved_k);
  };
  const LabelledPairs train = labelled(data.train_claims());
  const LabelledPairs dev = labelled(data.dev_claims());
  const BuiltinResponderOptions sampling{settings.temperature, config.seed};
  const InterrogationOptions asking{settings.samples, 0.5};

  std::map<std::string, double> cv;
  double alpha = 0.5;
  context.timer.time("interrogation train (alpha)", [&] {
    BuiltinResponder responder(data.cross_fitted_oracle(), sampling);
    alpha = choose_alpha(train, interrogate(train.pairs, probes, responder, asking), probes, settings, cv);
  });
  spdlog::info("interrogation: alpha {} chosen on {} train pairs (meta macro-F1 {:.4f})", alpha, train.pairs.size(), cv["macro_f1"]);

  std::vector<PairInterrogation> results;
  std::vector<System> systems;
  context.timer.time("interrogation dev", [&] {
    BuiltinResponder responder(data.oracle(), sampling);
    results = interrogate(dev.pairs, probes, responder, {settings.samples, alpha});
    const auto of = [&](ProbeSubset subset, VerdictSource source) { return verdicts(results, probes, subset, source, alpha); };
    systems = {{"rag", of(ProbeSubset::all, VerdictSource::baseline)},
               {"ag", of(ProbeSubset::agree_only, VerdictSource::meta)},
               {"cf", of(ProbeSubset::conflict_only, VerdictSource::meta)},
               {"wp", of(ProbeSubset::all, VerdictSource::wp)},
               {"wig", of(ProbeSubset::all, VerdictSource::wig)},
               {"wbu", of(ProbeSubset::all, VerdictSource::wbu)},
               {"all", of(ProbeSubset::all, VerdictSource::meta)},
               {"verifier", verifier_verdicts(data.oracle(), dev.pairs, false)},
               {"verifier_argmax", verifier_verdicts(data.oracle(), dev.pairs, true)}};
  });

  for (const auto& system : systems) context.results["interrogation_" + system.name] = named(classification_scores(dev.gold, system.verdicts));
  context.results["interrogation_cv"] = cv;
  std::size_t per_class[answer_count] = {0, 0, 0};
  for (const Answer gold : dev.gold) ++per_class[static_cast<std::size_t>(gold)];
  context.results["interrogation_pairs"] = {{"train", static_cast<double>(train.pairs.size())},
                                            {"dev", static_cast<double>(dev.pairs.size())},
                                            {"dev_support", static_cast<double>(per_class[0])},
                                            {"dev_refute", static_cast<double>(per_class[1])},
                                            {"dev_neutral", static_cast<double>(per_class[2])}};

  const auto paper = settings.paper.empty() ? nlohmann::json::object() : nlohmann::json::parse(io::read_json_text(settings.paper));
  io::write_tsv(score_table({"rag", "ag", "cf", "all", "verifier", "verifier_argmax"}, systems, dev.gold, paper),
                context.work / "tables" / "interrogation_strategies.tsv");
  io::write_tsv(score_table({"rag", "wp", "wig", "wbu", "all", "verifier", "verifier_argmax"}, systems, dev.gold, paper),
                context.work / "tables" / "interrogation_fusion.tsv");

  // Paired bootstrap over claims (a claim's abstracts are not independent of each other).
  io::Table gains{{"comparison", "metric", "estimate", "lower_95", "upper_95", "resamples"}, {}};
  const metrics::BootstrapOptions bootstrap{settings.bootstrap_resamples, 0.95, config.seed};
  const auto& all = find_system(systems, "all").verdicts;
  for (const char* other : {"rag", "verifier", "verifier_argmax"}) {
    const auto& against = find_system(systems, other).verdicts;
    for (const char* metric : {"macro_f1", "accuracy"}) {
      const bool f1 = std::string(metric) == "macro_f1";
      const auto interval = metrics::cluster_bootstrap(
          dev.claim_index,
          [&](std::span<const std::size_t> items) {
            const auto a = classification_scores(dev.gold, all, items);
            const auto b = classification_scores(dev.gold, against, items);
            return f1 ? a.macro_f1 - b.macro_f1 : a.accuracy - b.accuracy;
          },
          bootstrap);
      const std::string comparison = std::string("all_vs_") + other;
      gains.rows.push_back({comparison, metric, io::fixed(interval.estimate, 4), io::fixed(interval.lower, 4),
                            io::fixed(interval.upper, 4), std::to_string(interval.resamples)});
      auto& section = context.results["interrogation_gain_" + comparison];
      section[std::string(metric)] = interval.estimate;
      section[std::string(metric) + "_lower"] = interval.lower;
      section[std::string(metric) + "_upper"] = interval.upper;
    }
  }
  io::write_tsv(gains, context.work / "tables" / "interrogation_gain.tsv");
  write_dev_verdicts(context.work / "interrogation" / "dev_verdicts.tsv", dev, systems, results, probes, alpha);
}

}  // namespace claimrag::experiment
