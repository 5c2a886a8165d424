#include "claimrag/experiment/systems/ground_answers.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/grounding/answer_generation.hpp"
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

void check_request(const GroundRequest& request) {
  if (request.answers.empty() == request.questions.empty()) throw UsageError("ground needs --answers, or --questions with --generate");
  if (!request.questions.empty()) {
    if (!request.generation.open_transport) throw UsageError("--questions needs --generate llm:URL (the model that answers them)");
    if (request.generation.model.empty()) throw UsageError("--generate needs --llm-model (the model name the endpoint serves)");
    const double share = request.generation.max_failures;
    if (!(share >= 0 && share <= 1)) throw UsageError("--max-failures must be in [0, 1]");
  }
  if (request.generation.open_transport && request.questions.empty()) throw UsageError("--generate answers --questions, not --answers");
  if (request.out.empty()) throw UsageError("ground needs --out");
  if (!request.run.empty() && request.data.empty()) throw UsageError("--run needs --data (the corpus its documents come from)");
  if (!request.original.empty() && request.data.empty()) throw UsageError("--original needs --data");
  if (request.k == 0) throw UsageError("--k must be >= 1");
}

/// The questions' answers written by the served model, as answers to ground; `generated` gets one
/// entry per question. Throws DataError when more fail than the request allows.
std::vector<grounding::AnswerToGround> generated_answers(const GroundRequest& request,
                                                         const std::vector<grounding::QuestionWithContext>& questions,
                                                         std::vector<grounding::GeneratedAnswer>& generated) {
  const auto& generation = request.generation;
  const text::PromptTemplate prompt(generation.prompt, grounding::kAnswerPlaceholders);
  const auto transport = generation.open_transport();
  generated = grounding::generate_answers(*transport, prompt, grounding::answer_chat_options(generation.model), questions);
  std::vector<grounding::AnswerToGround> answers;
  std::size_t failures = 0;
  std::string first_failure;
  for (std::size_t q = 0; q < questions.size(); ++q) {
    if (generated[q].failed()) {
      if (failures++ == 0) first_failure = "question \"" + questions[q].id + "\": " + generated[q].failure;
      continue;
    }
    answers.push_back({questions[q].id, generated[q].text, questions[q].context, questions[q].empty_context_reason, {}});
  }
  if (failures > 0) {
    const std::string summary = std::to_string(failures) + " of " + std::to_string(questions.size()) +
                                " answers could not be generated (first: " + first_failure + ")";
    if (static_cast<double>(failures) > generation.max_failures * static_cast<double>(questions.size())) {
      throw DataError("ground: " + summary + ", more than --max-failures " + fmt::format("{:g}", generation.max_failures) +
                      " allows; nothing written");
    }
    spdlog::warn("ground: {}; written with \"generation_failure\"", summary);
  }
  return answers;
}

/// A generated answer's output line: the grounded line with the question and the model's answer
/// after the id.
nlohmann::ordered_json generated_line(const grounding::QuestionWithContext& question, const grounding::GeneratedAnswer& generated,
                                      const grounding::GroundedAnswer* grounded) {
  nlohmann::ordered_json line{{"id", question.id}, {"question", question.question}};
  if (grounded == nullptr) {
    line["generated_answer"] = nullptr;
    line["generation_failure"] = generated.failure;
    return line;
  }
  line["generated_answer"] = generated.text;
  const auto grounded_json = grounding::grounded_answer_json(*grounded);
  for (const auto& [key, value] : grounded_json.items()) {
    if (key != "id") line[key] = value;
  }
  return line;
}

}  // namespace

GroundSummary run_ground(const GroundRequest& request, const ExperimentConfig& config) {
  check_request(request);
  const double contradict_ratio = request.contradict_ratio.value_or(config.grounding.contradict_ratio);
  if (!verification::contradict_ratio_in_range(contradict_ratio)) throw UsageError("--contradict-ratio must be in (0, 10]");
  const grounding::GroundingThresholds thresholds{
      threshold(request.support_threshold, config.grounding.support_threshold, "--support-threshold"),
      threshold(request.conflict_threshold, config.grounding.conflict_threshold, "--conflict-threshold"),
      config.grounding.verdict_gates_support, contradict_ratio};

  dataset::Corpus corpus;
  std::optional<grounding::ContextPassages> passages;
  if (!request.data.empty()) {
    corpus = dataset::load_corpus(request.data / "corpus.jsonl");
    passages.emplace(corpus, request.original.empty() ? std::vector<dataset::Abstract>{}
                                                      : dataset::load_abstracts(request.original / "corpus.jsonl"));
  }
  std::optional<run::Run> run;
  if (!request.run.empty()) run = run::read_trec_run(request.run);
  const grounding::ContextSources sources{passages ? &*passages : nullptr, run ? &*run : nullptr, request.k};
  std::vector<grounding::AnswerToGround> answers;
  std::vector<grounding::QuestionWithContext> questions;
  if (request.questions.empty()) {
    answers = shard::keep_shard(grounding::read_answers(request.answers, sources), request.shard);
  } else {
    questions = grounding::read_questions(request.questions, sources);
  }

  // The verifier is opened (and, built in, trained) before any answer is generated, so that a
  // verifier that cannot be opened costs no served request.
  const auto verifier = open_verifier({request.verifier, request.model, request.original, {}, request.out, request.served,
                                       request.llm_model, request.llm_prompt},
                                      config);
  std::vector<grounding::GeneratedAnswer> generated;
  if (!questions.empty()) answers = generated_answers(request, questions, generated);
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
  if (request.questions.empty()) {
    for (const auto& answer : grounded) file.stream() << grounding::grounded_answer_json(answer).dump() << '\n';
  } else {
    std::size_t next = 0;  // grounded answers are the generated ones, in question order
    for (std::size_t q = 0; q < questions.size(); ++q) {
      const grounding::GroundedAnswer* answer = generated[q].failed() ? nullptr : &grounded[next++];
      file.stream() << generated_line(questions[q], generated[q], answer).dump() << '\n';
      summary.generation_failures += answer == nullptr ? 1 : 0;
    }
  }
  for (const auto& answer : grounded) {
    ++summary.answers;
    summary.claims += answer.claims.size();
    for (const auto& claim : answer.claims) {
      summary.kept_claims += claim.judgement.label == grounding::ClaimLabel::supported ? 1 : 0;
      summary.conflicting_claims += claim.judgement.label == grounding::ClaimLabel::conflicting ? 1 : 0;
    }
    summary.refused += answer.refused ? 1 : 0;
    summary.partial_before += answer.partial_before ? 1 : 0;
    summary.partial_after += answer.partial_after ? 1 : 0;
  }
  file.commit();
  // The dropped claims by reason: a run that drops nearly everything as irrelevant tells the
  // user the verifier found no support at all, not that it found conflicts.
  spdlog::info("{} answers, {} claims: {} kept, {} dropped as conflicting, {} as irrelevant; {} answers refused; partial "
               "hallucinations {} before, {} after (tau_s {}, tau_c {}, gamma {}, verdict gate {}); {} passages not judged -> {}",
               summary.answers, summary.claims, summary.kept_claims, summary.conflicting_claims,
               summary.claims - summary.kept_claims - summary.conflicting_claims, summary.refused, summary.partial_before,
               summary.partial_after, thresholds.support, thresholds.conflict, thresholds.contradict_ratio,
               thresholds.verdict_gates_support ? "on" : "off", summary.failed_passages, request.out.string());
  if (!request.questions.empty()) {
    spdlog::info("{} questions: {} answers generated by {}, {} failed", questions.size(), questions.size() - summary.generation_failures,
                 request.generation.model, summary.generation_failures);
  }
  return summary;
}

}  // namespace claimrag::experiment
