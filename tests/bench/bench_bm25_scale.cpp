// BM25 at scale: synthetic corpora of 10 k, 100 k and 1 M documents (dataset/synthetic_corpus.hpp:
// Zipf words, SciFact's document lengths) and 1,000 synthetic claims of SciFact's claim lengths.
//   BM_Build/N          the streaming build (bm25/streaming_build.hpp), in a child process of its
//                       own (`--build-child N FILE`) fed one generated document at a time: build_s
//                       (inside the builder; generate_s apart), peak_rss_MB (the child's VmHWM from
//                       the first document on: program, generator and builder), peak_per_index,
//                       growth_per_index (the peak less what was resident before the first
//                       document, over the index size), runs spilled
//   BM_Open/N           load_index (map and check) and a Searcher, as retrieve before its first
//                       claim; first_pass_s: the claims once on the fresh mapping (checks postings)
//   BM_Query/N/k/p      per-claim latency p50 / p99 on one thread, p = 0 exhaustive, 1 MaxScore
//   BM_Batch/N/k/p/t    the 1,000 claims through search_many on t threads (claims per second)
//   BM_Xapian*/N/k      Xapian 1.4 on the same tokens (BM25 k1 1.2, b 0.75, no positions), when
//                       built with Xapian (scripts/bench.sh installs libxapian-dev); its 1 M corpus
//                       only with CLAIMRAG_BENCH_XAPIAN_1M=1 (its build takes minutes).
//   BM_XapianBuild/N    Xapian's build measured as claimrag's, in a child (`--xapian-child N DIR`),
//                       and claimrag's build time and peak over Xapian's
// Every index is built once and kept on disk until exit; scales are mapped one at a time. No corpus
// is held in memory. `--write-corpus N FOLDER` writes the same N documents as a BEIR
// corpus.jsonl, to time `claimrag index` itself on them.
//
// Measured on the 2-core development machine (Release, load average 0.9 to 1.2 but 1.4 to 2.8 for
// Xapian's 1 M queries), index format 2 (memory-mapped), 1,000 claims, p50 / p99 per claim on one
// thread, exhaustive (search) → MaxScore (search_pruned), k=10:
//   10 k   0.059 / 0.12 → 0.064 / 0.28 ms    Xapian 0.46 / 2.5 ms
//   100 k  0.58 / 1.3 → 0.35 / 1.8 ms        Xapian 3.4 / 22 ms
//   1 M    5.9 / 13 → 2.0 / 13 ms           Xapian 29 / 191 ms
// Streaming build 0.14 / 1.27 / 15.3 s, peak 29 / 150 / 311 MB for indexes of 15 / 133 / 1,311 MB
// (1.94 / 1.13 / 0.24 ×), 4 / 8 / 19 runs; Xapian 1.4: build 1.65 / 16.9 / 186 s, peak 92 / 93 /
// 93 MB. Open (map, check, searcher) 0.54 / 0.81 / 3.5 ms; first pass 0.07 / 0.63 / 6.6 s.
// Synthetic claims drawn from the documents' Zipf law carry many frequent words, which is hard for
// pruning; SciFact's own claims are rarer-worded.

#include <benchmark/benchmark.h>
#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <map>
#include <memory>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/bm25/streaming_build.hpp"
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

std::size_t status_bytes(const char* field) {
  std::ifstream status("/proc/self/status");
  const std::string prefix = std::string(field) + ":";
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stoull(line.substr(prefix.size())) * 1024;
  }
  return 0;
}
std::size_t peak_resident_bytes() { return status_bytes("VmHWM"); }
void reset_peak_resident() { std::ofstream("/proc/self/clear_refs") << "5"; }

dataset::SyntheticCorpusOptions corpus_options() {
  dataset::SyntheticCorpusOptions options;
  options.lengths = lengths().documents;
  return options;
}

fs::path index_file(std::size_t documents) {
  return fs::temp_directory_path() / ("claimrag_bench_bm25_" + std::to_string(documents) + ".index");
}

/// What the streaming build of one scale measured, in a child process of its own.
struct BuildFigures {
  double build_seconds = 0;     ///< inside the builder (add_document + finish), generation excluded
  double generate_seconds = 0;  ///< drawing the synthetic documents
  std::size_t peak_bytes = 0;   ///< the child's VmHWM from the first document on: the whole process
  std::size_t start_bytes = 0;  ///< of which resident before the first document (program, generator)
  std::size_t index_bytes = 0;
  std::size_t runs = 0;
};

/// The child's work (run as `bench_bm25_scale --build-child N FILE`): generate N documents one at
/// a time and feed them to the streaming builder, which writes FILE; print the figures.
int build_child(std::size_t documents, const fs::path& file) {
  dataset::SyntheticDocuments source(corpus_options());  // reads SciFact's lengths, then frees them
  malloc_trim(0);  // gives SciFact's freed corpus back, so that the peak is the build's
  reset_peak_resident();
  const std::size_t start_bytes = status_bytes("VmRSS");
  bm25::StreamingIndexBuilder builder(file);
  std::chrono::steady_clock::duration building{}, generating{};
  for (std::size_t d = 0; d < documents; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto document = source.next();
    const auto t1 = std::chrono::steady_clock::now();
    builder.add_document(document.id, document.title, document.text);
    generating += t1 - t0;
    building += std::chrono::steady_clock::now() - t1;
  }
  const auto t2 = std::chrono::steady_clock::now();
  const auto summary = builder.finish("synthetic");
  building += std::chrono::steady_clock::now() - t2;
  std::printf("%.6f %.6f %zu %zu %llu %zu\n", std::chrono::duration<double>(building).count(),
              std::chrono::duration<double>(generating).count(), peak_resident_bytes(), start_bytes,
              static_cast<unsigned long long>(summary.index_bytes), summary.runs);
  return 0;
}

/// `bench_bm25_scale --write-corpus N FOLDER`: the same N documents as FOLDER/corpus.jsonl, to time
/// `claimrag index` itself (JSONL reading included) on them.
int write_corpus(std::size_t documents, const fs::path& folder) {
  dataset::SyntheticDocuments source(corpus_options());
  fs::create_directories(folder);
  std::ofstream out(folder / "corpus.jsonl", std::ios::binary);
  for (std::size_t d = 0; d < documents; ++d) {
    const auto document = source.next();  // ids and words need no JSON escaping
    out << "{\"_id\": \"" << document.id << "\", \"title\": \"\", \"text\": \"" << document.text << "\"}\n";
  }
  return out ? 0 : 1;
}

/// Runs this program as `bench_bm25_scale ARGUMENTS` and reads the numbers it prints. A build
/// measured in a child process of its own has a peak that is its own, not what this process holds
/// (other scales' mappings, what the allocator kept).
std::vector<double> child_figures(const std::string& arguments, std::size_t count) {
  const std::string command = fs::read_symlink("/proc/self/exe").string() + " " + arguments;
  std::unique_ptr<FILE, int (*)(FILE*)> child(popen(command.c_str(), "r"), pclose);
  std::vector<double> figures(count);
  for (auto& figure : figures) {
    if (!child || std::fscanf(child.get(), "%lf", &figure) != 1) {
      std::fprintf(stderr, "the child failed: %s\n", command.c_str());
      std::exit(1);
    }
  }
  return figures;
}

BuildFigures build_in_child(std::size_t documents) {
  const auto v = child_figures("--build-child " + std::to_string(documents) + " " + index_file(documents).string(), 6);
  return {v[0], v[1], static_cast<std::size_t>(v[2]), static_cast<std::size_t>(v[3]), static_cast<std::size_t>(v[4]),
          static_cast<std::size_t>(v[5])};
}

/// What was built once per scale, with the built files (at `path_of(documents)`) removed at exit.
template <typename Figures>
class BuiltOnce {
 public:
  explicit BuiltOnce(fs::path (*path_of)(std::size_t)) : path_of_(path_of) {}
  ~BuiltOnce() {
    for (const auto& [n, f] : figures_) fs::remove_all(path_of_(n));
  }
  template <typename Build>
  const Figures& get(std::size_t documents, Build build) {
    auto found = figures_.find(documents);
    if (found == figures_.end()) found = figures_.emplace(documents, build(path_of_(documents))).first;
    return found->second;
  }

 private:
  fs::path (*path_of_)(std::size_t);
  std::map<std::size_t, Figures> figures_;
};

const BuildFigures& built(std::size_t documents) {
  static BuiltOnce<BuildFigures> indexes(index_file);
  return indexes.get(documents, [&](const fs::path&) { return build_in_child(documents); });
}

struct Scale {
  std::size_t documents = 0;
  std::vector<std::string> claims;
  std::unique_ptr<bm25::InvertedIndex> index;  ///< mapped from the file, as retrieve reads it
  double first_pass_seconds = 0;  ///< the claims once, exhaustively, on the fresh mapping (checks postings)
};

/// The index of `documents` documents mapped, and the claims; the previous scale is unmapped first.
Scale& scale(std::size_t documents) {
  static std::unique_ptr<Scale> current;
  if (current && current->documents == documents) return *current;
  current.reset();
  auto s = std::make_unique<Scale>();
  s->documents = documents;
  built(documents);
  s->claims = dataset::synthetic_claims(kClaims, lengths().claims, corpus_options());
  s->index = std::make_unique<bm25::InvertedIndex>(bm25::load_index(index_file(documents)));
  const auto first_pass = std::chrono::steady_clock::now();
  const bm25::Searcher searcher(*s->index, {1.2, 0.75});
  for (const auto& claim : s->claims) benchmark::DoNotOptimize(searcher.search(claim, 10).data());
  s->first_pass_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - first_pass).count();
  current = std::move(s);
  return *current;
}

void BM_Build(benchmark::State& state) {
  const BuildFigures& f = built(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) state.SetIterationTime(f.build_seconds);
  state.counters["build_s"] = f.build_seconds;
  state.counters["generate_s"] = f.generate_seconds;
  state.counters["peak_rss_MB"] = static_cast<double>(f.peak_bytes) / 1e6;
  state.counters["start_rss_MB"] = static_cast<double>(f.start_bytes) / 1e6;
  state.counters["index_MB"] = static_cast<double>(f.index_bytes) / 1e6;
  state.counters["peak_per_index"] = static_cast<double>(f.peak_bytes) / static_cast<double>(f.index_bytes);
  state.counters["growth_per_index"] =
      static_cast<double>(f.peak_bytes - std::min(f.peak_bytes, f.start_bytes)) / static_cast<double>(f.index_bytes);
  state.counters["runs"] = static_cast<double>(f.runs);
}

void BM_Open(benchmark::State& state) {
  Scale& s = scale(static_cast<std::size_t>(state.range(0)));
  // What retrieve does before its first claim: map and check the index, then set up the searcher
  // (one length norm per document). The file is in the page cache, as for a sweep's second process.
  for (auto _ : state) {
    const auto loaded = bm25::load_index(index_file(s.documents));
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
  double build_seconds = 0;      ///< inside Xapian (add_document + commit), generation excluded
  std::size_t build_peak = 0;    ///< the child's VmHWM from the first document on
  std::size_t start_bytes = 0;   ///< of which resident before the first document
};

fs::path xapian_folder(std::size_t documents) {
  return fs::temp_directory_path() / ("claimrag_bench_xapian_" + std::to_string(documents));
}

/// The child's work (`bench_bm25_scale --xapian-child N FOLDER`), as build_child's for Xapian.
int xapian_child(std::size_t documents, const fs::path& folder) {
  dataset::SyntheticDocuments source(corpus_options());
  malloc_trim(0);
  reset_peak_resident();
  const std::size_t start_bytes = status_bytes("VmRSS");
  std::chrono::steady_clock::duration building{};
  {
    Xapian::WritableDatabase database(folder.string(), Xapian::DB_CREATE_OR_OVERWRITE);
    for (std::size_t d = 0; d < documents; ++d) {
      const auto document = source.next();
      const auto start = std::chrono::steady_clock::now();
      Xapian::Document entry;
      text::for_each_token(document.text, [&](std::string_view token) { entry.add_term(std::string(token)); });
      database.add_document(entry);
      building += std::chrono::steady_clock::now() - start;
    }
    const auto start = std::chrono::steady_clock::now();
    database.commit();
    building += std::chrono::steady_clock::now() - start;
  }
  std::printf("%.6f %zu %zu\n", std::chrono::duration<double>(building).count(), peak_resident_bytes(), start_bytes);
  return 0;
}

/// Every scale's Xapian database, built once.
const XapianScale& xapian_scale(std::size_t documents) {
  static BuiltOnce<XapianScale> databases(xapian_folder);
  return databases.get(documents, [&](const fs::path& folder) {
    fs::remove_all(folder);
    const auto v = child_figures("--xapian-child " + std::to_string(documents) + " " + folder.string(), 3);
    return XapianScale{v[0], static_cast<std::size_t>(v[1]), static_cast<std::size_t>(v[2])};
  });
}

void BM_XapianBuild(benchmark::State& state) {
  const auto documents = static_cast<std::size_t>(state.range(0));
  const XapianScale& x = xapian_scale(documents);
  const BuildFigures& ours = built(documents);
  for (auto _ : state) state.SetIterationTime(x.build_seconds);
  state.counters["build_s"] = x.build_seconds;
  state.counters["peak_rss_MB"] = static_cast<double>(x.build_peak) / 1e6;
  state.counters["start_rss_MB"] = static_cast<double>(x.start_bytes) / 1e6;
  state.counters["claimrag_build_ratio"] = ours.build_seconds / x.build_seconds;
  state.counters["claimrag_peak_ratio"] = static_cast<double>(ours.peak_bytes) / static_cast<double>(x.build_peak);
}

void BM_XapianQuery(benchmark::State& state) {
  const auto documents = static_cast<std::size_t>(state.range(0));
  xapian_scale(documents);
  const auto claims = dataset::synthetic_claims(kClaims, lengths().claims, corpus_options());
  const auto k = static_cast<Xapian::doccount>(state.range(1));
  Xapian::Database database(xapian_folder(documents).string());
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

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--build-child") {
    return build_child(std::stoull(argv[2]), argv[3]);
  }
  if (argc == 4 && std::string(argv[1]) == "--write-corpus") return write_corpus(std::stoull(argv[2]), argv[3]);
#ifdef CLAIMRAG_HAVE_XAPIAN
  if (argc == 4 && std::string(argv[1]) == "--xapian-child") return xapian_child(std::stoull(argv[2]), argv[3]);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
