// BM25 at scale: synthetic corpora of 10 k, 100 k and 1 M documents (dataset/synthetic_corpus.hpp:
// Zipf words, SciFact's document lengths) and 1,000 synthetic claims of SciFact's claim lengths.
//   BM_Build/N          build time and peak memory (VmHWM, reset before), postings, index bytes
//   BM_Open/N           load_index (map and check) and a Searcher, as retrieve before its first
//                       claim; first_pass_s: the claims once on the fresh mapping (checks postings)
//   BM_Query/N/k/p      per-claim latency p50 / p99 on one thread, p = 0 exhaustive, 1 MaxScore
//   BM_Batch/N/k/p/t    the 1,000 claims through search_many on t threads (claims per second)
//   BM_Xapian*/N/k      Xapian 1.4 on the same tokens (BM25 k1 1.2, b 0.75, no positions), when
//                       built with Xapian (scripts/bench.sh installs libxapian-dev); its 1 M corpus
//                       only with CLAIMRAG_BENCH_XAPIAN_1M=1 (its build takes minutes).
// Every corpus is built once and kept while its benchmarks run. Peak memory is the process's
// VmHWM after a reset, so it includes the generated corpus held in memory (and what the allocator
// kept from an earlier scale): an upper bound on the build's own peak, not its measure.
//
// Measured on the 2-core development machine (Release, shared with two other builds, load average
// 3 to 6, so every time is inflated), index format 2 (memory-mapped), 1,000 claims, p50 / p99 per
// claim on one thread, exhaustive (search) → MaxScore (search_pruned):
//   10 k   k=10 0.059 / 0.13 → 0.067 / 0.28 ms   k=200 0.11 / 0.18 → 0.22 / 0.58 ms
//   100 k  k=10 0.56 / 4.6 → 0.34 / 4.4 ms       k=200 0.63 / 1.4 → 0.83 / 3.2 ms
//   1 M    k=10 5.7 / 13 → 2.2 / 14 ms (its benchmarks run alone; in the full run, with a
//          compilation beside it, 28 / 70 → 15 / 57 ms wall for 7.1 → 4.2 ms of CPU per claim)
// Build 0.25 / 2.4 / 19 s; index 15 / 133 / 1,311 MB; open (map, check, searcher) 0.5 / 0.8 /
// 4.2 ms; first pass 0.11 / 0.99 / 7.0 s. Xapian 1.4: build 14 / 53 s, p50 / p99 at k=10
// 0.49 / 4.6 and 5.7 / 32 ms (10 k / 100 k). Synthetic claims drawn from the documents' Zipf law
// carry many frequent words, which is hard for pruning; SciFact's own claims are rarer-worded.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/synthetic_corpus.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "scifact_location.hpp"

#ifdef CLAIMRAG_HAVE_XAPIAN
#include <xapian.h>
#endif

using namespace claimrag;

namespace {

namespace fs = std::filesystem;
constexpr std::size_t kClaims = 1000;

std::size_t token_count(std::string_view text) {
  std::size_t count = 0;
  text::for_each_token(text, [&](std::string_view) { ++count; });
  return count;
}

/// SciFact's document and claim lengths in tokens, or fixed means when SciFact is absent.
struct Lengths {
  std::vector<std::uint32_t> documents{225};
  std::vector<std::uint32_t> claims{13};
};

const Lengths& lengths() {
  static const Lengths measured = [] {
    Lengths l;
    const auto beir = bench::find_scifact_beir();
    if (beir.empty()) return l;
    l.documents.clear();
    for (const auto& d : dataset::load_corpus(beir / "corpus.jsonl").documents) {
      l.documents.push_back(static_cast<std::uint32_t>(token_count(d.title) + token_count(d.text)));
    }
    l.claims.clear();
    for (const auto& q : dataset::load_queries(beir / "queries.jsonl")) l.claims.push_back(static_cast<std::uint32_t>(token_count(q.text)));
    return l;
  }();
  return measured;
}

std::size_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  }
  return 0;
}
void reset_peak_resident() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Scale {
  std::size_t documents = 0;
  dataset::Corpus corpus;
  std::vector<std::string> claims;
  std::unique_ptr<bm25::InvertedIndex> index;  ///< mapped from `file`, as retrieve reads it
  fs::path file;
  double build_seconds = 0;
  std::size_t build_peak = 0;
  std::size_t index_bytes = 0;
  std::uint64_t postings = 0;
  double first_pass_seconds = 0;  ///< the claims once, exhaustively, on the fresh mapping (checks postings)
  ~Scale() {
    if (!file.empty()) fs::remove(file);
  }
};

/// The corpus of `documents` documents, its index and claims; the previous scale is freed first.
Scale& scale(std::size_t documents) {
  static std::unique_ptr<Scale> current;
  if (current && current->documents == documents) return *current;
  current.reset();
  auto s = std::make_unique<Scale>();
  s->documents = documents;
  dataset::SyntheticCorpusOptions options;
  options.lengths = lengths().documents;
  s->corpus = dataset::synthetic_corpus(documents, options);
  s->claims = dataset::synthetic_claims(kClaims, lengths().claims, options);
  const std::size_t before = peak_resident_bytes();
  reset_peak_resident();
  const auto start = std::chrono::steady_clock::now();
  {
    const auto built = bm25::build_index(s->corpus, "synthetic");
    s->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s->build_peak = peak_resident_bytes();
    s->file = fs::temp_directory_path() / ("claimrag_bench_bm25_" + std::to_string(documents) + ".index");
    bm25::save_index(built, s->file);
  }
  (void)before;
  s->index = std::make_unique<bm25::InvertedIndex>(bm25::load_index(s->file));
  s->index_bytes = s->index->image().size();
  s->postings = s->index->posting_count();
  const auto first_pass = std::chrono::steady_clock::now();
  const bm25::Searcher searcher(*s->index, {1.2, 0.75});
  for (const auto& claim : s->claims) benchmark::DoNotOptimize(searcher.search(claim, 10).data());
  s->first_pass_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - first_pass).count();
  current = std::move(s);
  return *current;
}

void BM_Build(benchmark::State& state) {
  Scale& s = scale(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) state.SetIterationTime(s.build_seconds);
  state.counters["build_s"] = s.build_seconds;
  state.counters["peak_rss_MB"] = static_cast<double>(s.build_peak) / 1e6;
  state.counters["index_MB"] = static_cast<double>(s.index_bytes) / 1e6;
  state.counters["postings"] = static_cast<double>(s.postings);
}

void BM_Open(benchmark::State& state) {
  Scale& s = scale(static_cast<std::size_t>(state.range(0)));
  // What retrieve does before its first claim: map and check the index, then set up the searcher
  // (one length norm per document). The file is in the page cache, as for a sweep's second process.
  for (auto _ : state) {
    const auto loaded = bm25::load_index(s.file);
    const bm25::Searcher searcher(loaded, {1.2, 0.75});
    benchmark::DoNotOptimize(&searcher);
  }
  state.counters["first_pass_s"] = s.first_pass_seconds;
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

void BM_Query(benchmark::State& state) {
  Scale& s = scale(static_cast<std::size_t>(state.range(0)));
  const auto k = static_cast<std::size_t>(state.range(1));
  const bool pruned = state.range(2) != 0;
  const bm25::Searcher searcher(*s.index, {1.2, 0.75});
  std::vector<double> milliseconds;
  for (auto _ : state) {
    for (const auto& claim : s.claims) {
      const auto start = std::chrono::steady_clock::now();
      auto hits = pruned ? searcher.search_pruned(claim, k) : searcher.search(claim, k);
      benchmark::DoNotOptimize(hits.data());
      milliseconds.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  state.counters["p50_ms"] = percentile(milliseconds, 0.50);
  state.counters["p99_ms"] = percentile(milliseconds, 0.99);
  state.SetItemsProcessed(static_cast<std::int64_t>(milliseconds.size()));
}

void BM_Batch(benchmark::State& state) {
  Scale& s = scale(static_cast<std::size_t>(state.range(0)));
  const auto k = static_cast<std::size_t>(state.range(1));
  const bool pruned = state.range(2) != 0;
  omp_set_num_threads(static_cast<int>(state.range(3)));
  const bm25::Searcher searcher(*s.index, {1.2, 0.75});
  std::vector<std::string_view> texts(s.claims.begin(), s.claims.end());
  for (auto _ : state) {
    auto hits = pruned ? searcher.search_many_pruned(texts, k) : searcher.search_many(texts, k);
    benchmark::DoNotOptimize(hits.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(texts.size()));
}

void scales(benchmark::internal::Benchmark* b) {
  for (const long n : {10000L, 100000L, 1000000L}) b->Args({n});
}
void query_args(benchmark::internal::Benchmark* b) {
  for (const long n : {10000L, 100000L, 1000000L}) {
    for (const long k : {10L, 100L, 200L}) {
      for (const long pruned : {0L, 1L}) b->Args({n, k, pruned});
    }
  }
}
void batch_args(benchmark::internal::Benchmark* b) {
  for (const long n : {10000L, 100000L, 1000000L}) {
    for (const long pruned : {0L, 1L}) {
      for (const long threads : {1L, 2L}) b->Args({n, 10, pruned, threads});
    }
  }
}

BENCHMARK(BM_Build)->Apply(scales)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Open)->Apply(scales)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Query)->Apply(query_args)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Batch)->Apply(batch_args)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef CLAIMRAG_HAVE_XAPIAN
/// The same corpus in a Xapian database on disk (terms = claimrag's tokens, wdf = frequency).
struct XapianScale {
  std::size_t documents = 0;
  fs::path folder;
  double build_seconds = 0;
  std::size_t build_peak = 0;
  ~XapianScale() {
    if (!folder.empty()) fs::remove_all(folder);
  }
};

XapianScale& xapian_scale(std::size_t documents) {
  static std::unique_ptr<XapianScale> current;
  if (current && current->documents == documents) return *current;
  current.reset();
  Scale& s = scale(documents);
  auto x = std::make_unique<XapianScale>();
  x->documents = documents;
  x->folder = fs::temp_directory_path() / ("claimrag_bench_xapian_" + std::to_string(documents));
  fs::remove_all(x->folder);
  reset_peak_resident();
  const auto start = std::chrono::steady_clock::now();
  {
    Xapian::WritableDatabase database(x->folder.string(), Xapian::DB_CREATE_OR_OVERWRITE);
    for (const auto& document : s.corpus.documents) {
      Xapian::Document entry;
      text::for_each_token(document.text, [&](std::string_view token) { entry.add_term(std::string(token)); });
      database.add_document(entry);
    }
    database.commit();
  }
  x->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  x->build_peak = peak_resident_bytes();
  current = std::move(x);
  return *current;
}

void BM_XapianBuild(benchmark::State& state) {
  XapianScale& x = xapian_scale(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) state.SetIterationTime(x.build_seconds);
  state.counters["build_s"] = x.build_seconds;
  state.counters["peak_rss_MB"] = static_cast<double>(x.build_peak) / 1e6;
}

void BM_XapianQuery(benchmark::State& state) {
  const auto documents = static_cast<std::size_t>(state.range(0));
  XapianScale& x = xapian_scale(documents);
  const auto& claims = scale(documents).claims;
  const auto k = static_cast<Xapian::doccount>(state.range(1));
  Xapian::Database database(x.folder.string());
  Xapian::Enquire enquire(database);
  enquire.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5));
  std::vector<double> milliseconds;
  for (auto _ : state) {
    for (const auto& claim : claims) {
      const auto start = std::chrono::steady_clock::now();
      std::vector<std::string> terms;
      text::for_each_token(claim, [&](std::string_view token) { terms.emplace_back(token); });
      enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()));
      const Xapian::MSet matches = enquire.get_mset(0, k);
      benchmark::DoNotOptimize(matches.size());
      milliseconds.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  state.counters["p50_ms"] = percentile(milliseconds, 0.50);
  state.counters["p99_ms"] = percentile(milliseconds, 0.99);
  state.SetItemsProcessed(static_cast<std::int64_t>(milliseconds.size()));
}

void xapian_scales(benchmark::internal::Benchmark* b) {
  const char* large = std::getenv("CLAIMRAG_BENCH_XAPIAN_1M");
  for (const long n : {10000L, 100000L, 1000000L}) {
    if (n == 1000000L && !(large && std::string(large) == "1")) continue;
    b->Args({n});
  }
}
void xapian_query_args(benchmark::internal::Benchmark* b) {
  const char* large = std::getenv("CLAIMRAG_BENCH_XAPIAN_1M");
  for (const long n : {10000L, 100000L, 1000000L}) {
    if (n == 1000000L && !(large && std::string(large) == "1")) continue;
    for (const long k : {10L, 100L, 200L}) b->Args({n, k});
  }
}
BENCHMARK(BM_XapianBuild)->Apply(xapian_scales)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_XapianQuery)->Apply(xapian_query_args)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK_MAIN();
