// Reciprocal rank fusion at the paper's size: 300 claims × 2 runs × 200 documents, document ids
// drawn from 5,183 SciFact-like numeric ids so that the runs overlap as retrievers' runs do.
// Target: under 5 ms per fusion.
//
// Measured on the 2-core development machine (Release, load average 7-9 from other builds; best
// of 10 repetitions): ~10.3 ms CPU (~40 ms wall) per fusion. About half of the CPU time is the
// kernel zero-filling fresh pages for the 2.4 MB output run (60,000 ScoredDocuments), which
// glibc returns to the system between iterations: with MALLOC_TRIM_THRESHOLD_=100000000 the same
// loop takes ~5.1 ms CPU (~7.8 ms wall). The rest is hashing the 120,000 document ids into the
// candidate table and ordering ~400 candidates per claim.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "claimrag/fusion/rrf.hpp"

namespace {

using namespace claimrag;

run::Run random_run(const std::string& tag, const std::vector<std::string>& doc_ids, std::mt19937_64& rng) {
  run::Run result;
  result.tag = tag;
  std::vector<std::size_t> order(doc_ids.size());
  for (int q = 0; q < 300; ++q) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    // The first 400 of a fixed-seed shuffle: two runs share about 1/13 of their documents by
    // chance; mix in a common head so that the overlap is closer to two retrievers'.
    std::shuffle(order.begin(), order.end(), rng);
    run::Ranking ranking{std::to_string(q), {}};
    for (std::size_t i = 0; i < 200; ++i) {
      const std::size_t pick = i % 3 == 0 ? (static_cast<std::size_t>(q) * 7 + i) % doc_ids.size() : order[i];
      if (std::any_of(ranking.documents.begin(), ranking.documents.end(),
                      [&](const run::ScoredDocument& d) { return d.doc_id == doc_ids[pick]; })) {
        continue;
      }
      ranking.documents.push_back({doc_ids[pick], 200.0 - static_cast<double>(i)});
    }
    result.add(std::move(ranking));
  }
  return result;
}

void BM_Rrf300x2x200(benchmark::State& state) {
  std::mt19937_64 rng(42);
  std::vector<std::string> doc_ids;
  std::uniform_int_distribution<long> id(1000, 99999999);
  for (int d = 0; d < 5183; ++d) doc_ids.push_back(std::to_string(id(rng)));
  const run::Run a = random_run("bm25", doc_ids, rng);
  const run::Run b = random_run("dense", doc_ids, rng);
  const std::vector<fusion::NamedRun> runs = {{&a, "a"}, {&b, "b"}};
  std::size_t documents = 0;
  for (auto _ : state) {
    const run::Run fused = fusion::reciprocal_rank_fusion(runs);
    documents = 0;
    for (const auto& ranking : fused.rankings) documents += ranking.documents.size();
    benchmark::DoNotOptimize(documents);
  }
  state.counters["fused_documents"] = static_cast<double>(documents);
}
BENCHMARK(BM_Rrf300x2x200)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
