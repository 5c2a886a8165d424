#include "claimrag/sufficiency/command.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/sufficiency/method_numbers.hpp"
#include "claimrag/sufficiency/llm_judge.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/verification/verdict_failures.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::sufficiency {
namespace {

/// One line of a scores file: a distribution per evidence passage, and where it was read.
struct ScoresLine {
  std::vector<PairScore> pairs;
  std::size_t line = 0;
};

/// Pair distributions per example id, one per evidence passage.
std::unordered_map<std::string, ScoresLine> read_scores(const std::filesystem::path& path) {
  std::unordered_map<std::string, ScoresLine> scores;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    fields.refuse_unknown({"id", "pairs"});
    const std::string id = fields.identifier("id");
    simdjson::dom::array pairs;
    if (fields.element("pairs").get_array().get(pairs)) fields.fail("\"pairs\" must be an array");
    std::vector<PairScore> parsed;
    for (const simdjson::dom::element pair : pairs) {
      simdjson::dom::array values;
      if (pair.get_array().get(values)) fields.fail("each pair must be an array [support, refute, neutral(, rationale)]");
      std::vector<double> numbers;
      for (const simdjson::dom::element value : values) {
        double x = 0;
        if (value.get_double().get(x)) {
          std::int64_t i = 0;
          if (value.get_int64().get(i)) fields.fail("a pair holds something other than a number");
          x = static_cast<double>(i);
        }
        if (!std::isfinite(x) || x < 0 || x > 1) fields.fail("a pair value is not a finite number in [0, 1]");
        numbers.push_back(x);
      }
      if (numbers.size() != 3 && numbers.size() != 4) fields.fail("each pair must hold 3 or 4 numbers");
      if (std::abs(numbers[0] + numbers[1] + numbers[2] - 1.0) > 1e-6) fields.fail("a distribution does not sum to 1");
      parsed.push_back({numbers[0], numbers[1], numbers[2], numbers.size() == 4 ? numbers[3] : 0.0, 0.0});
    }
    if (!scores.emplace(id, ScoresLine{std::move(parsed), line}).second) fields.fail("duplicate id \"" + id + "\"");
  });
  return scores;
}

std::vector<ScoredExample> scored_from_file(const std::vector<Example>& examples, const std::filesystem::path& path) {
  const auto scores = read_scores(path);
  std::vector<ScoredExample> scored;
  std::vector<std::size_t> input_of;
  prepare_examples(examples, scored, input_of);
  std::unordered_map<std::string, bool> known;
  for (const auto& example : examples) known.emplace(example.id, true);
  for (const auto& [id, line] : scores) {  // a score for no example is a file for other examples
    if (known.count(id) == 0) throw DataError(path.string(), line.line, "no example has id \"" + id + "\"");
  }
  for (std::size_t e = 0; e < examples.size(); ++e) {
    const auto it = scores.find(examples[e].id);
    if (it == scores.end()) throw DataError(path.string(), "no pair scores for example \"" + examples[e].id + "\"");
    const auto& pairs = it->second.pairs;
    if (pairs.size() != examples[e].evidence.size()) {
      throw DataError(path.string(), it->second.line, "example \"" + examples[e].id + "\" has " + std::to_string(examples[e].evidence.size()) +
                                         " passages but " + std::to_string(pairs.size()) + " pair scores");
    }
    // A passage listed twice is scored once: its two scores must agree, or one would be dropped unseen.
    const auto& evidence = examples[e].evidence;
    for (std::size_t later = 0; later < evidence.size(); ++later) {
      for (std::size_t earlier = 0; earlier < later; ++earlier) {
        if (trimmed(evidence[earlier]) != trimmed(evidence[later])) continue;
        const PairScore& a = pairs[earlier];
        const PairScore& b = pairs[later];
        if (a.support != b.support || a.refute != b.refute || a.neutral != b.neutral || a.rationale != b.rationale) {
          throw DataError(path.string(), it->second.line,
                          "example \"" + examples[e].id + "\" lists passage " + std::to_string(earlier) + " again as passage " +
                              std::to_string(later) + " with a different score");
        }
        break;
      }
    }
    for (const std::size_t kept : scored[e].kept) {
      PairScore pair = pairs[kept];
      pair.overlap = claim_overlap(examples[e].claim, examples[e].evidence[kept]);
      scored[e].pairs.push_back(pair);
    }
  }
  return scored;
}

nlohmann::ordered_json output_line(const Example& example, const ScoredExample& scored, const SetFeatures& features,
                                   const SurePrediction& prediction) {
  nlohmann::ordered_json line{{"id", example.id}, {"label", label_name(static_cast<SufficiencyLabel>(prediction.label))}};
  line["probabilities"] = {{"Supported", prediction.probabilities[0]},
                           {"Refuted", prediction.probabilities[1]},
                           {"Insufficient", prediction.probabilities[2]}};
  line["score"] = prediction.score;
  line["uncertainty"] = prediction.uncertainty;
  line["decision"] = prediction.answer ? "answer" : "abstain";
  if (!scored.reason.empty()) line["reason"] = scored.reason;
  line["passages"] = scored.pairs.size();
  line["duplicates_removed"] = scored.duplicates_removed;
  line["blank_removed"] = scored.blank_removed;
  nlohmann::ordered_json named;
  for (std::size_t j = 0; j < kFeatureCount; ++j) named[std::string(feature_names()[j])] = features[j];
  line["features"] = named;
  if (!scored.failed.empty()) {
    auto failed = nlohmann::ordered_json::array();
    for (const auto& [passage, reason] : scored.failed) failed.push_back({{"passage", passage}, {"reason", reason}});
    line["failed"] = std::move(failed);
  }
  return line;
}

}  // namespace

std::vector<Example> examples_from_inputs(std::span<const verification::VerificationInput> inputs) {
  std::vector<Example> examples;
  for (const auto& input : inputs) {
    Example example;
    example.id = example.claim_id = example.group = input.claim_id;
    example.claim = input.claim;
    for (const auto& document : input.documents) {
      std::string passage;
      for (const auto& sentence : document.sentences) passage += (passage.empty() ? "" : " ") + sentence;
      example.evidence.push_back(std::move(passage));
      example.sources.push_back({document.doc_id, 0});
    }
    examples.push_back(std::move(example));
  }
  return examples;
}

namespace {

void check_scoring(const SufficiencyCommand& command) {
  const bool verifier = !command.model.empty() || command.open_verifier;
  const bool judge = static_cast<bool>(command.judge.open_transport);
  if (static_cast<int>(verifier) + static_cast<int>(!command.scores.empty()) + static_cast<int>(judge) != 1) {
    throw UsageError("sufficiency: give one of --scores, a verifier (--model, --verifier) and --judge");
  }
  if (judge && !command.aggregator.empty()) throw UsageError("sufficiency: --judge decides by itself; give no --aggregator");
  if (!judge && command.aggregator.empty()) throw UsageError("sufficiency: SURE needs --aggregator (or decide with --judge)");
  if (judge && command.judge.model.empty()) throw UsageError("sufficiency: --judge needs --llm-model (the model name the endpoint serves)");
  if (!(command.judge.max_failures >= 0 && command.judge.max_failures <= 1)) throw UsageError("--max-failures must be in [0, 1]");
}

/// The system's decisions on labelled examples, for `command.evaluation`. `failed` examples are
/// left out of the numbers.
struct Decisions {
  std::vector<int> predicted, answered;
  std::vector<double> confidence, p_supported;
  std::vector<bool> failed;
};

void write_evaluation(const SufficiencyCommand& command, const std::vector<Example>& examples, const Decisions& decisions,
                      const std::string& system) {
  if (command.evaluation.empty()) return;
  std::vector<int> gold, predicted, answered;
  std::vector<double> confidence, p_supported;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (decisions.failed[i]) {
      ++failures;
      continue;
    }
    gold.push_back(static_cast<int>(examples[i].label));
    predicted.push_back(decisions.predicted[i]);
    answered.push_back(decisions.answered[i]);
    confidence.push_back(decisions.confidence[i]);
    p_supported.push_back(decisions.p_supported[i]);
  }
  nlohmann::ordered_json report{{"system", system}, {"examples", examples.size()}, {"evaluated", gold.size()}, {"failures", failures}};
  if (gold.empty()) {
    report["numbers"] = nullptr;
  } else {
    const auto numbers = method_numbers(score_method(system, system, gold, predicted, answered, confidence, p_supported));
    report["numbers"] = numbers;
    spdlog::info("sufficiency: {} on {} labelled examples: macro-F1 {:.4f}", system, gold.size(), numbers.at("macro_f1"));
  }
  io::write_file_atomically(command.evaluation, io::json_text(report, command.evaluation.string(), 2) + "\n");
}

void check_labelled(const SufficiencyCommand& command, const std::vector<Example>& examples) {
  if (command.evaluation.empty()) return;
  for (const auto& example : examples) {
    if (!example.labelled) throw UsageError("sufficiency: --evaluation needs a gold \"label\" on every example; \"" + example.id + "\" has none");
  }
  if (examples.empty()) throw UsageError("sufficiency: --evaluation needs at least one example");
}

/// The served judge's run: every example sent, failures counted against --max-failures.
void run_judge(const SufficiencyCommand& command, const std::vector<Example>& examples) {
  const text::PromptTemplate prompt(command.judge.prompt, kJudgePlaceholders);
  const auto transport = command.judge.open_transport();
  std::vector<ScoredExample> prepared;
  const auto decisions = judge_examples(*transport, prompt, judge_chat_options(command.judge.model), examples, prepared);
  std::size_t sent = 0, failures = 0, answered = 0;
  const JudgeDecision* first_failure = nullptr;
  std::string first_failure_id;
  Decisions evaluated;
  std::ostringstream out;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const auto& decision = decisions[i];
    sent += decision.sent ? 1 : 0;
    if (decision.failed() && ++failures == 1) {
      first_failure = &decision;
      first_failure_id = examples[i].id;
    }
    const int label = decision.failed() ? 2 : static_cast<int>(*decision.label);
    const bool answer = !decision.failed() && label == 0;
    answered += answer ? 1 : 0;
    evaluated.predicted.push_back(label);
    evaluated.answered.push_back(answer ? 1 : 0);
    evaluated.confidence.push_back(answer ? 1.0 : 0.0);
    evaluated.p_supported.push_back(answer ? 1.0 : 0.0);
    evaluated.failed.push_back(decision.failed());
    out << io::json_text(judge_output_line(examples[i], prepared[i], decision), command.out.string()) << '\n';
  }
  if (failures > 0) {
    const double share = static_cast<double>(failures) / static_cast<double>(sent);
    const std::string summary = std::to_string(failures) + " of " + std::to_string(sent) + " judge requests failed (first: example \"" +
                                first_failure_id + "\": " + first_failure->failure + ")";
    if (share > command.judge.max_failures) {
      throw DataError("sufficiency: " + summary + ", more than --max-failures " + fmt::format("{:g}", command.judge.max_failures) +
                      " allows; nothing written");
    }
    spdlog::warn("sufficiency: {}; written with \"failure\"", summary);
  }
  io::write_file_atomically(command.out, out.str());
  write_evaluation(command, examples, evaluated, "llm_judge");
  spdlog::info("sufficiency: {} examples judged by {} ({} requests, {} failed), {} answered -> {}", examples.size(),
               command.judge.model, sent, failures, answered, command.out.string());
}

}  // namespace

void run_sufficiency(const SufficiencyCommand& command) {
  check_scoring(command);
  run_sufficiency(command, read_examples(command.examples));
}

void run_sufficiency(const SufficiencyCommand& command, const std::vector<Example>& all_examples) {
  check_scoring(command);
  const std::vector<Example> examples = shard::keep_shard(all_examples, command.shard);
  check_labelled(command, examples);
  if (command.judge.open_transport) {
    run_judge(command, examples);
    return;
  }
  const SureModel aggregator = load_sure(command.aggregator);
  std::vector<ScoredExample> scored;
  if (!command.scores.empty()) {
    scored = scored_from_file(examples, command.scores);
  } else {
    const auto verifier = command.open_verifier ? command.open_verifier() : verification::load_claim_verifier(command.model);
    scored = score_examples(*verifier, examples);
    verification::VerdictFailures failures;
    for (const auto& example : scored) {
      failures.judged += example.kept.size();
      failures.failed += example.failed.size();
      if (failures.first_reason.empty() && !example.failed.empty()) failures.first_reason = example.failed.front().second;
    }
    verification::enforce_max_failures(failures, command.max_failures,
                                       command.verifier_spec.empty() ? "builtin" : command.verifier_spec);
  }
  std::vector<SetFeatures> features;
  const auto predictions = predict_scored(aggregator, scored, &features);
  std::ostringstream out;
  std::size_t answered = 0, unjudged_count = 0;
  Decisions evaluated;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    out << io::json_text(output_line(examples[i], scored[i], features[i], predictions[i]), command.out.string()) << '\n';
    answered += predictions[i].answer ? 1 : 0;
    unjudged_count += scored[i].reason.empty() ? 0 : 1;
    evaluated.predicted.push_back(predictions[i].label);
    evaluated.answered.push_back(predictions[i].answer ? 1 : 0);
    evaluated.confidence.push_back(predictions[i].score);
    evaluated.p_supported.push_back(predictions[i].probabilities[0]);
    evaluated.failed.push_back(false);
  }
  io::write_file_atomically(command.out, out.str());
  write_evaluation(command, examples, evaluated, "sure");
  if (unjudged_count > 0) spdlog::warn("sufficiency: {} example(s) could not be judged (no evidence, or a claim without words): Insufficient", unjudged_count);
  spdlog::info("sufficiency: {} examples, {} answered -> {}", examples.size(), answered, command.out.string());
}

void run_sufficiency_bench(const SufficiencyBenchCommand& command) {
  const auto abstracts = dataset::load_abstracts(command.original / "corpus.jsonl");
  const auto train = dataset::load_claims(command.original / "claims_train.jsonl", &abstracts);
  const auto dev = dataset::load_claims(command.original / "claims_dev.jsonl", &abstracts);
  const auto benchmark = build_benchmark(abstracts, train, dev, command.options);
  write_examples(command.out, benchmark.examples);
  std::map<std::string, std::size_t> counts;
  for (const auto& example : benchmark.examples) ++counts[example.split + " " + std::string(label_name(example.label))];
  for (const auto& [key, count] : counts) spdlog::info("sufficiency-bench: {} {}", key, count);
  spdlog::info("sufficiency-bench: {} examples, {} train claims dropped (family reaches a test abstract), {} claims skipped "
               "(too few sentences of uncited abstracts) -> {}",
               benchmark.examples.size(), benchmark.dropped_train_claims, benchmark.skipped_claims, command.out.string());
}

}  // namespace claimrag::sufficiency
