// Interrogation at the size: 1,000 (claim, abstract) pairs × 6 probes (configs/probes.json)
// × K = 10 answers = 60,000 answers sampled, resolved and fused. The verifier is a stand-in that
// returns a fixed distribution per claim, so this measures everything `interrogate` does besides
// the model itself: sampling, resolution, fusion (and, separately, writing the JSON Lines).
// Target for the whole command with the built-in responder: 5 s on 2 cores; the trained
// verifier's own cost (2 calls per pair) is measured in bench_verifier once it exists.
//
// BM_InterrogateSciFactDev does the same with the trained verifier (oracle setting, trained on
// the train claims once, outside the timing) on SciFact's dev claims: every cited abstract plus
// BM25's top 4, 1,313 pairs x 6 probes x K = 10, verifier calls included.
//
// Measured on the 2-core development machine (Release, shared with other builds; mean of 3):
// interrogate ~80 ms wall (~30 ms CPU on the calling thread) for the 60,000 answers; writing the
// 1,000 JSON Lines (every answer with its resolution) ~140 ms; one long GPT-style answer resolves
// in ~1.3 µs. With the trained verifier on SciFact dev (1,313 pairs, 78,780 answers): ~540 ms
// wall, against the 5 s budget.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/experiment/config.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/interrogation/scifact_pairs.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "scifact_location.hpp"
#include "claimrag/interrogation/interrogate.hpp"
#include "claimrag/text/negation.hpp"

namespace {

using namespace claimrag;

/// A deterministic stand-in for the trained verifier: a distribution from the claim's length.
class StandInVerifier final : public verification::ClaimVerifier {
 public:
  std::vector<verification::ClaimVerdict> verify(std::span<const verification::VerificationInput> inputs) const override {
    std::vector<verification::ClaimVerdict> verdicts;
    verdicts.reserve(inputs.size());
    for (const auto& input : inputs) {
      const double s = 0.2 + 0.6 * static_cast<double>(input.claim.size() % 7) / 6.0;
      verification::DocumentVerdict document;
      document.doc_id = input.documents.front().doc_id;
      document.probabilities = {s * 0.8, (1.0 - s) * 0.8, 0.2};
      verdicts.push_back({input.claim_id, {document}, ""});
    }
    return verdicts;
  }
  void save(const std::filesystem::path&) const override {}
};

std::vector<interrogation::InterrogationPair> make_pairs(std::size_t count) {
  std::vector<interrogation::InterrogationPair> pairs;
  for (std::size_t i = 0; i < count; ++i) {
    interrogation::InterrogationPair pair;
    pair.id = std::to_string(i);
    pair.claim_id = pair.id;
    pair.claim = "Treatment " + std::to_string(i) + " increases survival in patients with condition " +
                 std::to_string(i % 37) + ".";
    pair.negated_claim = text::negate_claim(pair.claim).text;
    pair.abstract = std::string(1200, 'a');
    pair.evidence.doc_id = "d" + pair.id;
    pair.evidence.sentences = {pair.abstract};
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

void BM_Interrogate1000x6x10(benchmark::State& state) {
  const auto probes = interrogation::load_probes(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/probes.json");
  const auto pairs = make_pairs(1000);
  const StandInVerifier verifier;
  for (auto _ : state) {
    interrogation::BuiltinResponder responder(verifier, {1.0, 42});
    auto results = interrogation::interrogate(pairs, probes, responder, {10, 0.5});
    benchmark::DoNotOptimize(results.data());
  }
  state.SetItemsProcessed(state.iterations() * 60000);
}
BENCHMARK(BM_Interrogate1000x6x10)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteInterrogation1000x6x10(benchmark::State& state) {
  const auto probes = interrogation::load_probes(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/probes.json");
  const auto pairs = make_pairs(1000);
  const StandInVerifier verifier;
  interrogation::BuiltinResponder responder(verifier, {1.0, 42});
  const auto results = interrogation::interrogate(pairs, probes, responder, {10, 0.5});
  const auto file = std::filesystem::temp_directory_path() / "claimrag_bench_interrogation.jsonl";
  for (auto _ : state) interrogation::write_interrogation(file, pairs, probes, results);
  std::filesystem::remove(file);
}
BENCHMARK(BM_WriteInterrogation1000x6x10)->Unit(benchmark::kMillisecond)->UseRealTime();

struct SciFactDev {
  std::unique_ptr<verification::ClaimVerifier> verifier;
  interrogation::LabelledPairs pairs;
};

/// Null when SciFact's original layout is absent.
const SciFactDev* scifact_dev() {
  static const std::unique_ptr<SciFactDev> loaded = []() -> std::unique_ptr<SciFactDev> {
    const auto original = bench::find_scifact_original();
    if (original.empty()) return nullptr;
    const auto config = experiment::load_config(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/scifact.json");
    const auto abstracts = dataset::load_abstracts(original / "corpus.jsonl");
    const auto index = verification::index_abstracts(abstracts);
    verification::VerifierTrainingData training;
    training.corpus_texts = verification::corpus_texts(abstracts);
    training.claims = verification::oracle_inputs(dataset::load_claims(original / "claims_train.jsonl", &abstracts), index);
    auto dev = std::make_unique<SciFactDev>();
    dev->verifier = verification::train_claim_verifier(training, config.verification.options);
    const auto claims = dataset::load_claims(original / "claims_dev.jsonl", &abstracts);
    const auto& bm25 = config.bm25.parameters;
    dev->pairs = interrogation::scifact_pairs(claims, index, verification::bm25_run(abstracts, claims, bm25.k1, bm25.b, 4), 4);
    return dev;
  }();
  return loaded.get();
}

void BM_InterrogateSciFactDev(benchmark::State& state) {
  const SciFactDev* dev = scifact_dev();
  if (dev == nullptr) {
    state.SkipWithError("SciFact's original layout is absent (scripts/get-data.sh)");
    return;
  }
  const auto probes = interrogation::load_probes(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "configs/probes.json");
  for (auto _ : state) {
    interrogation::BuiltinResponder responder(*dev->verifier, {1.0, 42});
    auto results = interrogation::interrogate(dev->pairs.pairs, probes, responder, {10, 0.5});
    benchmark::DoNotOptimize(results.data());
  }
  state.counters["pairs"] = static_cast<double>(dev->pairs.pairs.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(dev->pairs.pairs.size() * 60));
}
BENCHMARK(BM_InterrogateSciFactDev)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ResolveLongAnswer(benchmark::State& state) {
  interrogation::Probe probe;
  probe.id = "false";
  probe.template_text = "{claim}";
  probe.asks_false = true;
  const std::string claim = "Human activities may cause climate change";
  const std::string text = "Yes, the statement \"" + claim +
                           "\" is not necessarily false based on the information provided in the abstract.";
  for (auto _ : state) benchmark::DoNotOptimize(interrogation::resolve_response(probe, text, claim));
}
BENCHMARK(BM_ResolveLongAnswer);

}  // namespace

BENCHMARK_MAIN();
