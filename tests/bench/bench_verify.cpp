// `claimrag verify` on SciFact (skipped when data/scifact is missing): the 300 test (= SciFact
// dev) claims from BM25's run, top 3 abstracts each, sentences from the release layout (target
// ≤ 2 s), measured as the subcommand runs it (read the claims, the run and both corpora, verify,
// write the predictions) and as the verification call alone. The verifier is trained once,
// outside the timed loops. `verify --claim` as a whole process is measured with /usr/bin/time -v
// (the closing note gives the command and the numbers).

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <unistd.h>

#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "claimrag/verification/verify_inputs.hpp"
#include "scifact_location.hpp"

namespace {

using namespace claimrag;
namespace fs = std::filesystem;

struct Fixture {
  experiment::ExperimentConfig config;
  experiment::VerifyRequest request;
  std::unique_ptr<verification::ClaimVerifier> verifier;
  fs::path scratch;
};

Fixture& fixture() {
  static Fixture loaded = [] {
    Fixture f;
    const fs::path beir = bench::find_scifact_beir();
    f.scratch = fs::temp_directory_path() / ("claimrag_bench_verify_" + std::to_string(::getpid()));
    fs::create_directories(f.scratch);
    experiment::index_bm25(beir, f.scratch / "index", f.config);
    const auto claims = experiment::select_queries(beir, {"test", ""});
    const auto run = experiment::retrieve_bm25(beir, f.scratch / "index", claims, f.config.bm25, f.config.verification.verify_k);
    run::write_trec_run(run, f.scratch / "bm25.trec");
    f.request.data = beir;
    f.request.claims.split = "test";
    f.request.run = f.scratch / "bm25.trec";
    f.request.original = beir.parent_path() / "original";
    f.request.out = f.scratch / "predictions.jsonl";
    f.verifier = experiment::verifier_for(f.request, f.config);
    return f;
  }();
  return loaded;
}

void BM_VerifyDevClaimsFromRun(benchmark::State& state) {
  if (!bench::have_scifact_layouts(state)) return;
  auto& f = fixture();
  std::ostringstream unused;
  experiment::VerifySummary summary;
  for (auto _ : state) {
    const auto inputs = experiment::verify_inputs(f.request, f.config);
    summary = experiment::deliver_verdicts(*f.verifier, f.request, inputs, unused);
  }
  state.counters["claims"] = static_cast<double>(summary.claims);
  state.counters["documents"] = static_cast<double>(summary.documents);
}
BENCHMARK(BM_VerifyDevClaimsFromRun)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_VerifyCallOnly(benchmark::State& state) {
  if (!bench::have_scifact_layouts(state)) return;
  auto& f = fixture();
  const auto inputs = experiment::verify_inputs(f.request, f.config);
  std::size_t documents = 0;
  for (auto _ : state) {
    const auto verdicts = verification::verify_claims(*f.verifier, inputs);
    documents = 0;
    for (const auto& verdict : verdicts) documents += verdict.documents.size();
    benchmark::DoNotOptimize(documents);
  }
  state.counters["documents_per_s"] = benchmark::Counter(static_cast<double>(documents), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_VerifyCallOnly)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
