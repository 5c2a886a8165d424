// The evidence stage on SciFact (skipped when data/scifact is missing): verifier training on the
// real training pairs (pseudo-gold positives, 3 BM25 negatives each; target < 20 s) and
// extraction for the 300 test claims from BM25's test run (target < 1 s). FLOPs as
// verifier_flops.hpp counts them; "process_cpu_s" is the CPU time of every thread (std::clock),
// beside the wall time that Google Benchmark reports, since the machine is shared.

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <ctime>
#include <filesystem>
#include <memory>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/experiment/evidence/evidence_stage.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "verifier_flops.hpp"

namespace {

using namespace claimrag;

const std::filesystem::path kBeir = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";

struct Fixture {
  experiment::ExperimentConfig config;
  std::unique_ptr<experiment::EvidenceData> data;
  std::vector<evidence::LabelledPair> pairs;
  std::mt19937_64 rng{42};  ///< after the negatives' draws: where training starts
};

Fixture& fixture() {
  static Fixture loaded = [] {
    Fixture f;
    f.data = std::make_unique<experiment::EvidenceData>(kBeir, f.config.evidence.min_sentence_characters);
    f.pairs = experiment::verifier_training_pairs(*f.data, f.config, "train", "pseudo", "", f.rng);
    return f;
  }();
  return loaded;
}

double seconds_of_cpu(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

void BM_TrainEvidenceVerifier(benchmark::State& state) {
  if (!std::filesystem::exists(kBeir / "corpus.jsonl")) {
    state.SkipWithError("data/scifact is missing");
    return;
  }
  spdlog::set_level(spdlog::level::warn);
  auto& f = fixture();
  double cpu = 0;
  std::unique_ptr<experiment::EvidenceVerifier> trained;
  for (auto _ : state) {
    std::mt19937_64 rng = f.rng;
    const std::clock_t start = std::clock();
    trained = std::make_unique<experiment::EvidenceVerifier>(experiment::train_evidence_verifier(f.pairs, f.config.verifier, false, rng));
    cpu = seconds_of_cpu(start);
  }
  // The shuffles start where the model's initialisation left the generator.
  std::mt19937_64 rng = f.rng;
  const verifier::VerifierModel<float> replay(trained->vocabulary.size(), experiment::verifier_options(f.config.verifier), rng);
  verifier::TrainingSet set;
  for (const auto& pair : f.pairs) {
    set.pairs.push_back(verifier::encode_pair(trained->vocabulary, text::tokenize(pair.claim), text::tokenize(pair.sentence.text),
                                              f.config.verifier.max_length));
  }
  verifier::TrainingOptions options;
  options.epochs = f.config.verifier.epochs;
  options.batch_size = f.config.verifier.batch_size;
  const double flops = bench::training_flops(set, experiment::verifier_options(f.config.verifier), options, rng);
  state.counters["pairs"] = static_cast<double>(f.pairs.size());
  state.counters["vocabulary"] = static_cast<double>(trained->vocabulary.size());
  state.counters["final_loss"] = trained->epoch_losses.back();
  state.counters["process_cpu_s"] = cpu;
  state.counters["GFLOP"] = flops * 1e-9;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainEvidenceVerifier)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_ExtractEvidence(benchmark::State& state) {
  if (!std::filesystem::exists(kBeir / "corpus.jsonl")) {
    state.SkipWithError("data/scifact is missing");
    return;
  }
  spdlog::set_level(spdlog::level::warn);
  auto& f = fixture();
  std::mt19937_64 rng = f.rng;
  const auto trained = experiment::train_evidence_verifier(f.pairs, f.config.verifier, false, rng);
  const auto qrels = dataset::load_split(kBeir, "test");
  const auto claims = dataset::queries_of_split(f.data->queries(), qrels, "test");
  const auto index = bm25::build_index(f.data->corpus(), f.data->corpus().checksum);
  const bm25::Searcher searcher(index, f.config.bm25.parameters);
  run::Run run;
  for (const auto& claim : claims) run.add(bm25::to_ranking(index, claim.id, searcher.search(claim.text, 10)));
  double cpu = 0;
  std::size_t selected = 0;
  for (auto _ : state) {
    const std::clock_t start = std::clock();
    const auto selections = experiment::extract_evidence(trained, *f.data, claims, run, f.config.evidence,
                                                         f.config.verifier.scoring_batch_size, "bm25");
    cpu += seconds_of_cpu(start);
    selected = selections.size();
  }
  std::vector<verifier::EncodedPair> pairs;
  for (const auto& claim : claims) {
    for (const auto& candidate : evidence::select_candidates(claim.text, *run.find(claim.id), f.data->sentences(),
                                                             {f.config.evidence.candidate_documents, f.config.evidence.sentences_per_document},
                                                             "bm25")) {
      pairs.push_back(verifier::encode_pair(trained.vocabulary, text::tokenize(claim.text), text::tokenize(candidate.sentence.text),
                                            f.config.verifier.max_length));
    }
  }
  const double flops = bench::scoring_flops(pairs, experiment::verifier_options(f.config.verifier), f.config.verifier.scoring_batch_size);
  state.counters["claims"] = static_cast<double>(selected);
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["process_cpu_s"] = cpu / static_cast<double>(state.iterations());
  state.counters["GFLOP"] = flops * 1e-9;
  state.counters["GFLOP/s"] = benchmark::Counter(flops * 1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExtractEvidence)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
