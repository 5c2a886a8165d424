// `claimrag ground` on SciFact (skipped when data/scifact is missing): 1,000 answers of 3 claims
// (SciFact dev claims, three a answer) with 10 context abstracts each (BM25's top 10 of the
// answer's first claim; sentences from the release layout). Target: ≤ 1 s on 2 cores. Measured as
// the subcommand runs it (read the answers file and the corpora, load nothing else, ground,
// write the output) and as the grounding call alone. The verifier (oracle setting, as `verify
// --pairs` trains it) is trained once, outside the timed loops.
//
// Measured (2 threads, quiet 2-core machine): command 1.0–1.2 s, call 0.91–0.94 s; before the
// verifier shared each document's sentence reading across claims, 1.8 s and 1.7 s.

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/experiment/systems/ground_answers.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "claimrag/grounding/answers_file.hpp"
#include "claimrag/grounding/benchmark.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "scifact_location.hpp"

namespace {

using namespace claimrag;
namespace fs = std::filesystem;

constexpr std::size_t kAnswers = 1000;
constexpr std::size_t kClaims = 3;
constexpr std::size_t kPassages = 10;

struct Fixture {
  experiment::ExperimentConfig config;
  experiment::GroundRequest request;
  std::unique_ptr<verification::ClaimVerifier> verifier;
  std::vector<grounding::AnswerToGround> answers;
  fs::path scratch;
};

Fixture& fixture() {
  static Fixture loaded = [] {
    Fixture f;
    const fs::path beir = bench::find_scifact_beir();
    const fs::path original = beir.parent_path() / "original";
    f.scratch = fs::temp_directory_path() / ("claimrag_bench_grounding_" + std::to_string(::getpid()));
    fs::create_directories(f.scratch);
    const auto abstracts = dataset::load_abstracts(original / "corpus.jsonl");
    const auto claims = dataset::load_claims(original / "claims_dev.jsonl", &abstracts);
    const auto run = verification::bm25_run(abstracts, claims, f.config.bm25.parameters.k1, f.config.bm25.parameters.b, kPassages);
    io::AtomicFile file(f.scratch / "answers.jsonl");
    for (std::size_t a = 0; a < kAnswers; ++a) {
      std::string text;
      for (std::size_t c = 0; c < kClaims; ++c) {
        text += (c == 0 ? "" : " ") + grounding::answer_sentence(claims[(a * kClaims + c) % claims.size()].text);
      }
      std::vector<std::string> context;
      for (const auto& ranked : run.find(claims[(a * kClaims) % claims.size()].id)->documents) context.push_back(ranked.doc_id);
      file.stream() << nlohmann::json{{"id", "a" + std::to_string(a)}, {"answer", text}, {"context", context}}.dump() << '\n';
    }
    file.commit();
    experiment::VerifyRequest training;
    training.pairs = f.scratch / "answers.jsonl";  // selects the oracle setting; never read
    training.out = f.scratch / "unused.jsonl";
    training.original = original;
    f.verifier = experiment::verifier_for(training, f.config);
    f.verifier->save(f.scratch / "verifier.safetensors");
    f.request.answers = f.scratch / "answers.jsonl";
    f.request.out = f.scratch / "grounded.jsonl";
    f.request.data = beir;
    f.request.original = original;
    f.request.model = f.scratch / "verifier.safetensors";
    return f;
  }();
  return loaded;
}

void BM_GroundCommand(benchmark::State& state) {
  if (!bench::have_scifact_layouts(state)) return;
  auto& f = fixture();
  experiment::GroundSummary summary;
  for (auto _ : state) summary = experiment::run_ground(f.request, f.config);
  state.counters["answers"] = static_cast<double>(summary.answers);
  state.counters["claims"] = static_cast<double>(summary.claims);
}
BENCHMARK(BM_GroundCommand)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_GroundCallOnly(benchmark::State& state) {
  if (!bench::have_scifact_layouts(state)) return;
  auto& f = fixture();
  const dataset::Corpus corpus = dataset::load_corpus(f.request.data / "corpus.jsonl");
  const grounding::ContextPassages passages(corpus, dataset::load_abstracts(f.request.original / "corpus.jsonl"));
  const auto answers = grounding::read_answers(f.request.answers, {&passages, nullptr, kPassages});
  std::size_t claims = 0;
  for (auto _ : state) {
    const auto grounded = grounding::ground_answers(*f.verifier, answers, {f.config.grounding.support_threshold, f.config.grounding.conflict_threshold});
    claims = 0;
    for (const auto& answer : grounded) claims += answer.claims.size();
    benchmark::DoNotOptimize(claims);
  }
  state.counters["claim_passages_per_s"] =
      benchmark::Counter(static_cast<double>(claims * kPassages), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GroundCallOnly)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
