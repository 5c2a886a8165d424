#include "claimrag/experiment/systems/ground_answers.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/grounding/answers_file.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/verification/verdict_failures.hpp"

namespace claimrag::experiment {
namespace {

double threshold(const std::optional<double>& given, double configured, const char* flag) {
  const double value = given.value_or(configured);
  if (!(value >= 0 && value <= 1)) throw UsageError(std::string(flag) + " must be in [0, 1]");
  return value;
}

}  // namespace

GroundSummary run_ground(const GroundRequest& request, const ExperimentConfig& config) {
  if (request.answers.empty()) throw UsageError("ground needs --answers");
  if (request.out.empty()) throw UsageError("ground needs --out");
  if (!request.run.empty() && request.data.empty()) throw UsageError("--run needs --data (the corpus its documents come from)");
  if (!request.original.empty() && request.data.empty()) throw UsageError("--original needs --data");
  if (request.k == 0) throw UsageError("--k must be >= 1");
  const grounding::GroundingThresholds thresholds{
      threshold(request.support_threshold, config.grounding.support_threshold, "--support-threshold"),
      threshold(request.conflict_threshold, config.grounding.conflict_threshold, "--conflict-threshold"),
      /*verdict_gates_support=*/true};

  dataset::Corpus corpus;
  std::optional<grounding::ContextPassages> passages;
  if (!request.data.empty()) {
    corpus = dataset::load_corpus(request.data / "corpus.jsonl");
    passages.emplace(corpus, request.original.empty() ? std::vector<dataset::Abstract>{}
                                                      : dataset::load_abstracts(request.original / "corpus.jsonl"));
  }
  std::optional<run::Run> run;
  if (!request.run.empty()) run = run::read_trec_run(request.run);
  const auto answers = grounding::read_answers(
      request.answers, {passages ? &*passages : nullptr, run ? &*run : nullptr, request.k});

  const auto verifier = open_verifier({request.verifier, request.model, request.original, {}, request.out, request.served,
                                       request.llm_model, request.llm_prompt},
                                      config);
  const auto grounded = grounding::ground_answers(*verifier, answers, thresholds);
  verification::VerdictFailures failures;
  for (const auto& answer : grounded) {
    for (const auto& claim : answer.claims) {
      failures.judged += claim.judgement.judged_passages;
      failures.failed += claim.judgement.failed_passages.size();
      if (failures.first_reason.empty() && !claim.judgement.failed_passages.empty()) {
        failures.first_reason = claim.judgement.failed_passages.front().second;
      }
    }
  }
  verification::enforce_max_failures(failures, request.max_failures, request.verifier);
  GroundSummary summary;
  summary.failed_passages = failures.failed;
  io::AtomicFile file(request.out);
  for (const auto& answer : grounded) {
    file.stream() << grounding::grounded_answer_json(answer).dump() << '\n';
    ++summary.answers;
    summary.claims += answer.claims.size();
    for (const auto& claim : answer.claims) summary.kept_claims += claim.judgement.label == grounding::ClaimLabel::supported ? 1 : 0;
    summary.refused += answer.refused ? 1 : 0;
    summary.partial_before += answer.partial_before ? 1 : 0;
    summary.partial_after += answer.partial_after ? 1 : 0;
  }
  file.commit();
  spdlog::info("{} answers, {} claims: {} kept, {} answers refused; partial hallucinations {} before, {} after (tau_s {}, "
               "tau_c {}); {} passages not judged -> {}",
               summary.answers, summary.claims, summary.kept_claims, summary.refused, summary.partial_before,
               summary.partial_after, thresholds.support, thresholds.conflict, summary.failed_passages, request.out.string());
  return summary;
}

}  // namespace claimrag::experiment
