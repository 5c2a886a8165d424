#include "claimrag/experiment/verification/verify_stage.hpp"

#include <spdlog/spdlog.h>

#include <optional>

#include "claimrag/bm25/search.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/utf8.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/verification/wordless_claims.hpp"
#include "claimrag/verification/prediction.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "claimrag/verification/verdict_failures.hpp"
#include "claimrag/verification/verdict_report.hpp"
#include "claimrag/verification/verification_pairs.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::experiment {
namespace {

using verification::VerificationInput;

/// The corpus and the sentences the verifier reads of it; the sentences refer to the corpus.
struct CorpusView {
  std::filesystem::path corpus_path;
  dataset::Corpus corpus;
  std::optional<verification::DocumentSentences> sentences;
};

void load_corpus_view(const VerifyRequest& request, CorpusView& view) {
  view.corpus_path = request.data / "corpus.jsonl";
  view.corpus = dataset::load_corpus(view.corpus_path);
  if (request.original.empty()) {
    view.sentences.emplace(view.corpus);
  } else {
    const auto abstracts_path = request.original / "corpus.jsonl";
    view.sentences.emplace(view.corpus, dataset::load_abstracts(abstracts_path), abstracts_path);
  }
}

std::vector<VerificationInput> run_inputs(const VerifyRequest& request, std::size_t k) {
  const auto claims = select_queries(request.data, request.claims);
  const run::Run run = run::read_trec_run(request.run);
  std::size_t ranked = 0;
  for (const auto& claim : claims) ranked += run.find(claim.id) != nullptr ? 1 : 0;
  if (ranked == 0 && !claims.empty() && !run.rankings.empty()) {
    throw DataError(request.run.string(), "ranks none of the " + std::to_string(claims.size()) +
                                              " claims to verify (first claim id " + claims.front().id +
                                              "): a run of other claims?");
  }
  if (ranked < claims.size()) {
    spdlog::warn("{} of {} claims have no ranking in {}: verdict NEI with reason \"{}\"", claims.size() - ranked,
                 claims.size(), request.run.string(), verification::kNoRetrievedAbstract);
  }
  CorpusView view;
  load_corpus_view(request, view);
  return verification::inputs_from_run(claims, run, *view.sentences, k, request.run.string());
}

std::vector<VerificationInput> claim_inputs(const VerifyRequest& request, const ExperimentConfig& config, std::size_t k) {
  CorpusView view;
  load_corpus_view(request, view);
  // --index is optional: on SciFact building the index in memory adds about 0.15 s, within the
  // half-second budget of a one-claim call.
  const bm25::InvertedIndex index = request.index.empty()
                                        ? bm25::build_index(view.corpus, view.corpus.checksum)
                                        : load_checked_index(request.index, view.corpus, view.corpus_path);
  const bm25::Searcher searcher(index, config.bm25.parameters);
  run::Run run;
  run.tag = "bm25";
  run.add(bm25::to_ranking(index, "claim", searcher.search(request.claim, k)));
  if (run.rankings.front().documents.empty()) spdlog::warn("no abstract shares a word with the claim");
  const std::vector<dataset::Query> claims{{"claim", request.claim, "{}"}};
  return verification::inputs_from_run(claims, run, *view.sentences, k, "BM25 retrieval");
}

void warn_truncation(std::size_t truncated) {
  if (truncated > 0) spdlog::warn("{} sentences were cut to the model's maximum length (counted in the output)", truncated);
}

}  // namespace

VerifyMode verify_mode(const VerifyRequest& request) {
  const bool by_run = !request.run.empty();
  const bool by_pairs = !request.pairs.empty();
  const bool by_claim = !request.claim.empty();
  if (by_run + by_pairs + by_claim != 1) throw UsageError("give exactly one of --run, --pairs and --claim");
  const auto refuse = [](bool given, const char* flag, const char* mode) {
    if (given) throw UsageError(std::string(flag) + " does not apply with " + mode);
  };
  const auto require = [](bool given, const char* flag, const char* mode) {
    if (!given) throw UsageError(std::string(mode) + " needs " + flag);
  };
  const bool selects_claims = !request.claims.split.empty() || !request.claims.queries_file.empty();
  if (!request.model.empty() && !request.save_model.empty()) {
    throw UsageError("--save-model saves a trained verifier: give it without --model");
  }
  if (by_claim) {
    if (request.claim.find_first_not_of(" \t\r\n") == std::string::npos) throw UsageError("--claim is empty");
    if (const auto at = io::invalid_utf8_offset(request.claim)) {
      throw DataError("--claim", "invalid UTF-8 at byte " + std::to_string(*at));
    }
    require(!request.data.empty(), "--data", "--claim");
    refuse(selects_claims, "--split/--queries", "--claim");
    refuse(!request.out.empty(), "--out (the verdict goes to stdout)", "--claim");
    refuse(request.shard != nullptr, "--shard", "--claim");
    return VerifyMode::claim;
  }
  refuse(request.json, "--json", by_run ? "--run" : "--pairs");
  refuse(!request.index.empty(), "--index", by_run ? "--run" : "--pairs");
  require(!request.out.empty(), "--out", by_run ? "--run" : "--pairs");
  if (by_pairs) {
    refuse(selects_claims, "--split/--queries", "--pairs");
    refuse(request.k > 0, "--k", "--pairs");
    return VerifyMode::pairs;
  }
  require(!request.data.empty(), "--data", "--run");
  require(selects_claims, "--split or --queries", "--run");
  return VerifyMode::run;
}

std::size_t documents_per_claim(const VerifyRequest& request, const ExperimentConfig& config) {
  return request.k > 0 ? request.k : config.verification.verify_k;
}

std::vector<VerificationInput> verify_inputs(const VerifyRequest& request, const ExperimentConfig& config) {
  switch (verify_mode(request)) {
    case VerifyMode::pairs: return verification::read_verification_pairs(request.pairs);
    case VerifyMode::run: return run_inputs(request, documents_per_claim(request, config));
    case VerifyMode::claim: return claim_inputs(request, config, documents_per_claim(request, config));
  }
  throw InternalError("verify_inputs: unknown mode");
}

VerifySummary deliver_verdicts(const verification::ClaimVerifier& verifier, const VerifyRequest& request,
                               std::span<const VerificationInput> inputs, std::ostream& out) {
  const auto verdicts = verification::verify_claims(verifier, inputs);
  VerifySummary summary;
  summary.claims = verdicts.size();
  for (const auto& verdict : verdicts) {
    summary.documents += verdict.documents.size();
    summary.claims_without_documents += verdict.documents.empty() ? 1 : 0;
    summary.not_enough_evidence += verification::not_enough_evidence(verdict) ? 1 : 0;
  }
  summary.truncated_sentences = verification::truncated_sentence_count(verdicts);
  const auto failures = verification::count_failures(verdicts);
  verification::enforce_max_failures(failures, request.max_failures, request.verifier);
  summary.failed = failures.failed;
  switch (verify_mode(request)) {
    case VerifyMode::pairs:
      verification::write_pair_verdicts(request.out, inputs, verdicts);
      break;
    case VerifyMode::run: {
      std::vector<verification::ClaimPrediction> predictions;
      predictions.reserve(verdicts.size());
      for (std::size_t c = 0; c < verdicts.size(); ++c) predictions.push_back(verification::to_prediction(verdicts[c], &inputs[c]));
      verification::write_predictions(predictions, request.out);
      break;
    }
    case VerifyMode::claim:
      out << (request.json ? verification::claim_verdict_json(inputs.front(), verdicts.front()).dump(2) + "\n"
                           : verification::claim_verdict_text(inputs.front(), verdicts.front()));
      out.flush();
      break;
  }
  warn_truncation(summary.truncated_sentences);
  return summary;
}

}  // namespace claimrag::experiment

namespace claimrag::experiment {
namespace {

/// Training data on SciFact's train claims, gold-labelled from the release layout, as `verify` will
/// see its inputs: BM25's top k abstracts of each claim (the open setting, for claims with a run or
/// a query).
verification::VerifierTrainingData training_data(const std::filesystem::path& original, const ExperimentConfig& config,
                                                 std::size_t k) {
  const auto corpus_file = original / "corpus.jsonl";
  const auto train_file = original / "claims_train.jsonl";
  if (!std::filesystem::exists(corpus_file) || !std::filesystem::exists(train_file)) {
    throw UsageError("training the verifier needs SciFact's release layout with gold rationales (" + train_file.string() +
                     " or " + corpus_file.string() + " is missing): give --original DIR, or a trained --model FILE");
  }
  const auto abstracts = dataset::load_abstracts(corpus_file);
  const auto train_claims = dataset::load_claims(train_file, &abstracts);
  verification::VerifierTrainingData data;
  data.corpus_texts = verification::corpus_texts(abstracts);
  const auto index = verification::index_abstracts(abstracts);
  const auto& bm25 = config.bm25.parameters;
  const auto run = verification::bm25_run(abstracts, train_claims, bm25.k1, bm25.b, k);
  data.claims = verification::open_inputs(train_claims, index, run, k);
  return data;
}

}  // namespace

std::unique_ptr<verification::ClaimVerifier> verifier_for(const VerifyRequest& request, const ExperimentConfig& config) {
  const bool builtin = request.verifier.empty() || parse_verifier_spec(request.verifier).kind == "builtin";
  if (verify_mode(request) == VerifyMode::pairs || !builtin) {
    return open_verifier({request.verifier, request.model, request.original, request.save_model, request.out, request.served,
                          request.llm_model, request.llm_prompt},
                         config);
  }
  const auto& options = config.verification.options;
  if (!request.model.empty()) return verification::guard_wordless_claims(verification::load_claim_verifier(request.model, &options));
  const std::filesystem::path original = request.original.empty() ? std::filesystem::path(config.data.original) : request.original;
  const std::size_t k = documents_per_claim(request, config);
  const auto data = training_data(original, config, k);
  verification::TrainingReport report;
  auto verifier = verification::train_claim_verifier(data, options, &report);
  spdlog::info("verifier trained on {} train claims (BM25 top {}): tau {}, NEI threshold {}, cross-validated Label+Rationale F1 {:.4f}",
               data.claims.size(), k,
               report.tau, report.nei_threshold, report.cross_validation["label_rationale_f1"]);
  if (!request.save_model.empty()) verifier->save(request.save_model);
  return verification::guard_wordless_claims(std::move(verifier));
}

VerifySummary run_verify(const VerifyRequest& request, const ExperimentConfig& config, std::ostream& out) {
  const auto inputs = shard::keep_shard(verify_inputs(request, config), request.shard);
  const auto verifier = verifier_for(request, config);
  const auto summary = deliver_verdicts(*verifier, request, inputs, out);
  spdlog::info("{} claims, {} documents verified; {} without documents, {} with not enough evidence, {} pairs not judged{}",
               summary.claims, summary.documents, summary.claims_without_documents, summary.not_enough_evidence, summary.failed,
               request.out.empty() ? std::string() : " -> " + request.out.string());
  return summary;
}

}  // namespace claimrag::experiment
