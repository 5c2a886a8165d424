// The claim verifier (verification/trained_verifier.hpp) on SciFact (skipped when data/scifact's
// original layout is missing), with the options of configs/scifact.json's "verification" section:
//   BM_TrainClaimVerifier_Oracle / _Open: train_claim_verifier on the 809 train claims, with their
//     cited / gold abstracts (oracle) or BM25's top 3 abstracts (open, as verify_stage.cpp builds it);
//   BM_VerifyDevClaims_Open: verify the 300 dev claims against BM25's top 3 with a verifier trained
//     once, outside the timed loop.
//
// FLOPs, counted analytically (a multiply-add is 2 FLOPs). d_s = sentence features (10), d_l =
// label features, K = 3 classes; the intercepts make the fitted dimensions p_s = d_s + 1 and
// p_l = d_l + 1 (softmax: K·p_l parameters). S = sentences scored, D = documents judged.
//   scoring:   S·d_s·2 (selector) + D·d_l·2 (standardisation: subtract, divide) + D·d_l·K·2 (logits)
//   binary LR, Newton, n rows, per iteration:   n·p_s²·2 (Hessian) + n·p_s·4 (margins, gradient) + p_s³/3 (solve)
//   softmax LR, Newton, n rows, per iteration:  n·(K·p_l)²·2 (Hessian) + n·K·p_l·4 + (K·p_l)³/3 (solve)
//   training (F folds, T = |tau_grid|, n = selector rows = training sentences, m = label rows):
//     selector: F fold fits on (F−1)/F·n rows each + the final fit on n rows = F·n rows of fitting,
//               each at I_s iterations; out-of-fold scoring n·d_s·2;
//     label:    per τ, F fold fits on (F−1)/F·m rows each (m does not depend on τ), + the final fit
//               on m rows = (T·(F−1) + 1)·m rows, each at I_l iterations; out-of-fold scoring of
//               every document at every τ: T·D·(d_l·2 + d_l·K·2).
//   I_s is not kept by the verifier (its selector stores weights only): it is measured by refitting
//   the selector on every training sentence with the same options (fit_logistic_regression
//   reports its Newton steps), and assumed for the fold fits. I_l is the final label model's
//   recorded count (SoftmaxRegressionModel::iterations), likewise assumed for the fold fits. Line
//   search evaluations beyond one per iteration are not counted.
// Feature extraction (TF-IDF fitting and vectors, token sets, Jaccard, coverage, relation
// features, ...) is not counted as FLOPs. Its share of the time is reported: for training,
// feature_share is the measured TF-IDF fit plus the sentence features of every training document
// (computed once), and label_feature_share an estimate of the label features built at every τ
// (the measured cost of one label row × the rows training builds: T·((F−1)·m + D) + m, the
// label_row calls of verifier_training.cpp); for verification, feature_share is the measured
// per-document feature pass (claim and sentence vectors, sentence and label features).

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "../../src/verification/feature_verifier.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/rerank/logistic_regression.hpp"
#include "claimrag/verification/label_features.hpp"
#include "claimrag/verification/rationale_selection.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/sentence_features.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "scifact_location.hpp"

namespace {

using namespace claimrag;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kOpenK = 3;
constexpr double kClasses = static_cast<double>(verification::label_count);

fs::path original_layout() {
  const fs::path beir = bench::find_scifact_beir();
  return beir.empty() ? fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original" : beir.parent_path() / "original";
}

bool have_scifact(benchmark::State& state) {
  const fs::path original = original_layout();
  for (const char* file : {"corpus.jsonl", "claims_train.jsonl", "claims_dev.jsonl"}) {
    if (!fs::exists(original / file)) {
      state.SkipWithError(("SciFact's original layout is missing: " + (original / file).string()).c_str());
      return false;
    }
  }
  spdlog::set_level(spdlog::level::warn);
  return true;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Data {
  experiment::ExperimentConfig config;
  std::vector<dataset::Abstract> abstracts;
  verification::AbstractIndex index;
  verification::VerifierTrainingData oracle, open;
  std::vector<verification::VerificationInput> dev_open;
};

const Data& data() {
  static const Data loaded = [] {
    Data d;
    d.config = experiment::load_config(fs::path(CLAIMRAG_SOURCE_DIR) / "configs/scifact.json");
    const fs::path original = original_layout();
    d.abstracts = dataset::load_abstracts(original / "corpus.jsonl");
    d.index = verification::index_abstracts(d.abstracts);
    std::vector<std::string> corpus_texts = verification::corpus_texts(d.abstracts);
    const auto& bm25 = d.config.bm25.parameters;
    const auto train = dataset::load_claims(original / "claims_train.jsonl", &d.abstracts);
    d.oracle.corpus_texts = corpus_texts;
    d.oracle.claims = verification::oracle_inputs(train, d.index);
    d.open.corpus_texts = std::move(corpus_texts);
    d.open.claims = verification::open_inputs(train, d.index, verification::bm25_run(d.abstracts, train, bm25.k1, bm25.b, kOpenK), kOpenK);
    const auto dev = dataset::load_claims(original / "claims_dev.jsonl", &d.abstracts);
    for (auto& item : verification::open_inputs(dev, d.index, verification::bm25_run(d.abstracts, dev, bm25.k1, bm25.b, kOpenK), kOpenK)) {
      d.dev_open.push_back(std::move(item.input));
    }
    return d;
  }();
  return loaded;
}

double label_dimension(const verification::VerificationOptions& options) {
  return static_cast<double>(options.claim_only ? verification::claim_only_feature_names().size()
                                                : verification::label_feature_names().size());
}

double binary_newton_flops(double n, double p, double iterations) {
  return iterations * (n * p * p * 2 + n * p * 4 + p * p * p / 3);
}

double softmax_newton_flops(double n, double p, double iterations) {
  const double q = kClasses * p;
  return iterations * (n * q * q * 2 + n * q * 4 + q * q * q / 3);
}

double label_scoring_flops(double documents, double d_l) { return documents * (d_l * 2 + d_l * kClasses * 2); }

/// The selector's Newton steps when fitted on every training sentence with `options`.
int selector_iterations(const verification::VerifierTrainingData& training, const tfidf::TfidfVectorizer& vectorizer,
                        const verification::VerificationOptions& options) {
  std::vector<linear::RowMatrixXd> blocks;
  std::vector<int> labels;
  Eigen::Index rows = 0;
  for (const auto& item : training.claims) {
    const auto claim = verification::read_claim(vectorizer, item.input.claim);
    for (std::size_t d = 0; d < item.input.documents.size(); ++d) {
      const auto& sentences = item.input.documents[d].sentences;
      blocks.push_back(verification::sentence_features(claim, verification::read_document(vectorizer, claim, sentences)));
      rows += blocks.back().rows();
      std::vector<int> is_rationale(sentences.size(), 0);
      for (const auto& set : item.gold[d].rationale_sets) {
        for (const std::size_t s : set) {
          if (s < is_rationale.size()) is_rationale[s] = 1;
        }
      }
      labels.insert(labels.end(), is_rationale.begin(), is_rationale.end());
    }
  }
  linear::RowMatrixXd X(rows, static_cast<Eigen::Index>(verification::sentence_feature_names().size()));
  Eigen::Index at = 0;
  for (const auto& block : blocks) {
    X.middleRows(at, block.rows()) = block;
    at += block.rows();
  }
  rerank::LogisticRegressionOptions fit;
  fit.C = options.selector_C;
  fit.class_weight = rerank::ClassWeight::none;
  return rerank::fit_logistic_regression(X, labels, fit).iterations;
}

/// Seconds of the training's feature extraction: `measured`, the TF-IDF fit and the sentence
/// features of every training document, as prepare() computes them once; `label_row`, one label
/// feature row (timed over every document with sentences, at the final selector's probabilities
/// and τ), which training builds many times (see label_feature_share below).
struct FeatureSeconds {
  double measured = 0;
  double label_row = 0;
};

FeatureSeconds training_feature_seconds(const verification::VerifierTrainingData& training,
                                        const verification::detail::FittedVerifier& fitted) {
  FeatureSeconds result;
  const auto start = Clock::now();
  const auto vectorizer = tfidf::TfidfVectorizer::fit(training.corpus_texts, {fitted.options.tfidf_max_features});
  std::vector<verification::ClaimText> claims(training.claims.size());
  std::vector<std::vector<verification::DocumentText>> texts(training.claims.size());
  std::vector<std::vector<std::vector<double>>> probabilities(training.claims.size());
  parallel_for(training.claims.size(), [&](std::size_t c) {
    const auto& input = training.claims[c].input;
    claims[c] = verification::read_claim(vectorizer, input.claim);
    for (const auto& document : input.documents) {
      texts[c].push_back(verification::read_document(vectorizer, claims[c], document.sentences));
      probabilities[c].push_back(fitted.selector.probabilities(verification::sentence_features(claims[c], texts[c].back())));
    }
  });
  result.measured = seconds_since(start);
  std::vector<double> rows(training.claims.size(), 0);
  const auto label_start = Clock::now();
  parallel_for(training.claims.size(), [&](std::size_t c) {
    const auto& input = training.claims[c].input;
    for (std::size_t d = 0; d < input.documents.size(); ++d) {
      const auto& p = probabilities[c][d];
      if (p.empty()) continue;
      auto rationale = verification::select_rationale(p, fitted.tau, fitted.options.max_rationale);
      if (rationale.empty()) rationale = verification::best_sentences(p, 1);
      benchmark::DoNotOptimize(verification::detail::label_row(fitted.options, input.claim, claims[c], texts[c][d],
                                                               input.documents[d], p, rationale, fitted.tau));
      rows[c] += 1;
    }
  });
  const double label_seconds = seconds_since(label_start);
  double total_rows = 0;
  for (const double r : rows) total_rows += r;
  result.label_row = total_rows > 0 ? label_seconds / total_rows : 0;
  return result;
}

void train(benchmark::State& state, const verification::VerifierTrainingData& training) {
  const auto& options = data().config.verification.options;
  std::unique_ptr<verification::ClaimVerifier> verifier;
  verification::TrainingReport report;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    verifier = verification::train_claim_verifier(training, options, &report);
    seconds = seconds_since(start);
  }
  const auto& fitted = dynamic_cast<const verification::detail::FeatureVerifier&>(*verifier).fitted();
  double documents = 0;
  for (const auto& item : training.claims) documents += static_cast<double>(item.input.documents.size());
  const double n = static_cast<double>(report.selector_rows), m = static_cast<double>(report.label_rows);
  const double F = static_cast<double>(options.folds), T = static_cast<double>(options.tau_grid.size());
  const double d_s = static_cast<double>(verification::sentence_feature_names().size()), d_l = label_dimension(options);
  const int I_s = selector_iterations(training, *fitted.vectorizer, options);
  const int I_l = fitted.label.model.iterations;
  const double flops = binary_newton_flops(F * n, d_s + 1, I_s) + n * d_s * 2 +
                       softmax_newton_flops((T * (F - 1) + 1) * m, d_l + 1, I_l) + T * label_scoring_flops(documents, d_l);
  const FeatureSeconds features = training_feature_seconds(training, fitted);
  // label_row calls in training: per τ, the F fold fits' rows ((F−1)·m) and the out-of-fold
  // prediction of every document with sentences; then the final fit's m rows.
  double scored_documents = 0;
  for (const auto& item : training.claims) {
    for (const auto& document : item.input.documents) scored_documents += document.sentences.empty() ? 0 : 1;
  }
  const double label_row_calls = T * ((F - 1) * m + scored_documents) + m;
  state.counters["claims"] = static_cast<double>(training.claims.size());
  state.counters["documents"] = documents;
  state.counters["sentences"] = n;
  state.counters["label_rows"] = m;
  state.counters["seconds"] = seconds;
  state.counters["selector_newton_iters"] = I_s;
  state.counters["label_newton_iters"] = I_l;
  state.counters["FLOPs"] = flops;
  state.counters["GFLOP/s"] = flops / seconds / 1e9;
  state.counters["feature_share"] = features.measured / seconds;
  state.counters["label_feature_share"] = features.label_row * label_row_calls / seconds;
}

void BM_TrainClaimVerifier_Oracle(benchmark::State& state) {
  if (!have_scifact(state)) return;
  train(state, data().oracle);
}
BENCHMARK(BM_TrainClaimVerifier_Oracle)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

void BM_TrainClaimVerifier_Open(benchmark::State& state) {
  if (!have_scifact(state)) return;
  train(state, data().open);
}
BENCHMARK(BM_TrainClaimVerifier_Open)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

/// The per-document feature pass of FeatureVerifier::verify, without the models' arithmetic
/// (the selector's probabilities it needs for the label features are included: S·d_s·2 FLOPs).
double verification_feature_seconds(const verification::detail::FittedVerifier& fitted,
                                    const std::vector<verification::VerificationInput>& inputs) {
  const auto start = Clock::now();
  parallel_for(inputs.size(), [&](std::size_t c) {
    const auto& input = inputs[c];
    const auto claim = verification::read_claim(*fitted.vectorizer, input.claim);
    for (const auto& document : input.documents) {
      const auto text = verification::read_document(*fitted.vectorizer, claim, document.sentences);
      const auto p = fitted.selector.probabilities(verification::sentence_features(claim, text));
      auto rationale = verification::select_rationale(p, fitted.tau, fitted.options.max_rationale);
      if (rationale.empty()) rationale = verification::best_sentences(p, 1);
      benchmark::DoNotOptimize(
          verification::detail::label_row(fitted.options, input.claim, claim, text, document, p, rationale, fitted.tau));
    }
  });
  return seconds_since(start);
}

void BM_VerifyDevClaims_Open(benchmark::State& state) {
  if (!have_scifact(state)) return;
  const Data& d = data();
  static const std::unique_ptr<verification::ClaimVerifier> verifier =
      verification::train_claim_verifier(d.open, d.config.verification.options);
  double seconds = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    benchmark::DoNotOptimize(verifier->verify(d.dev_open));
    seconds += seconds_since(start);
  }
  const auto& fitted = dynamic_cast<const verification::detail::FeatureVerifier&>(*verifier).fitted();
  double documents = 0, sentences = 0;
  for (const auto& input : d.dev_open) {
    documents += static_cast<double>(input.documents.size());
    for (const auto& document : input.documents) sentences += static_cast<double>(document.sentences.size());
  }
  const double d_s = static_cast<double>(verification::sentence_feature_names().size());
  const double flops = sentences * d_s * 2 + label_scoring_flops(documents, label_dimension(fitted.options));
  const double per_call = seconds / static_cast<double>(state.iterations());
  constexpr int kFeatureRepeats = 5;
  double feature_seconds = 0;
  for (int r = 0; r < kFeatureRepeats; ++r) feature_seconds += verification_feature_seconds(fitted, d.dev_open);
  const double iterations = static_cast<double>(state.iterations());
  state.counters["claims"] = static_cast<double>(d.dev_open.size());
  state.counters["documents"] = documents;
  state.counters["sentences"] = sentences;
  state.counters["claims/s"] = benchmark::Counter(static_cast<double>(d.dev_open.size()) * iterations, benchmark::Counter::kIsRate);
  state.counters["documents/s"] = benchmark::Counter(documents * iterations, benchmark::Counter::kIsRate);
  state.counters["FLOPs"] = flops;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * iterations / 1e9, benchmark::Counter::kIsRate);
  state.counters["feature_share"] = feature_seconds / kFeatureRepeats / per_call;
}
BENCHMARK(BM_VerifyDevClaims_Open)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
