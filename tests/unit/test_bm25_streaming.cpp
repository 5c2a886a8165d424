// The streaming BM25 build: byte-identical to the in-memory build for any run budget, on hand-made
// corpora (empty, duplicate and single documents, none), synthetic ones and SciFact's; the corpus
// checksum the loader records; and its error paths, which leave neither output nor temporaries.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/streaming_build.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/dataset/synthetic_corpus.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

namespace fs = std::filesystem;

dataset::Corpus corpus_of(const std::vector<std::pair<std::string, std::string>>& documents) {
  dataset::Corpus corpus;
  for (const auto& [title, text] : documents) {
    const std::string id = "d" + std::to_string(corpus.documents.size());
    corpus.position.emplace(id, static_cast<std::uint32_t>(corpus.documents.size()));
    corpus.documents.push_back({id, title, text});
  }
  return corpus;
}

std::string image_of(const bm25::InvertedIndex& index) {
  const auto image = index.image();
  return {reinterpret_cast<const char*>(image.data()), image.size()};
}

/// Every run spilled after at most a few postings.
bm25::StreamingBuildOptions tiny_runs() { return {.run_budget_bytes = 20 * 7, .small_run_bytes = 0}; }
/// Everything in one run in memory.
bm25::StreamingBuildOptions one_run() { return {.run_budget_bytes = std::size_t{1} << 30, .small_run_bytes = std::size_t{1} << 30}; }

bm25::StreamingBuildSummary stream(const dataset::Corpus& corpus, const fs::path& path, bm25::StreamingBuildOptions options) {
  bm25::StreamingIndexBuilder builder(path, options);
  for (const auto& d : corpus.documents) builder.add_document(d.id, d.title, d.text);
  return builder.finish("checksum");
}

std::vector<std::string> files_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void expect_streams_like_memory(const dataset::Corpus& corpus, bool expect_many_runs) {
  const TempFolder folder;
  const std::string expected = image_of(bm25::build_index(corpus, "checksum"));
  for (const auto& options : {tiny_runs(), one_run()}) {
    const auto path = folder.path() / "bm25.index";
    const auto summary = stream(corpus, path, options);
    EXPECT_EQ(io::read_file(path), expected) << "budget " << options.run_budget_bytes;
    EXPECT_EQ(summary.index_bytes, expected.size());
    EXPECT_EQ(summary.documents, corpus.documents.size());
    if (options.run_budget_bytes == one_run().run_budget_bytes) {
      EXPECT_EQ(summary.runs, 0u);
    } else if (expect_many_runs) {
      EXPECT_GT(summary.runs, 3u);
    }
    EXPECT_EQ(files_in(folder.path()), std::vector<std::string>{"bm25.index"});  // no run left behind
  }
}

}  // namespace

TEST(Bm25Streaming, MatchesTheInMemoryBuildOnHandMadeCorpora) {
  expect_streams_like_memory(corpus_of({}), false);
  expect_streams_like_memory(corpus_of({{"", "one lonely document"}}), false);
  expect_streams_like_memory(corpus_of({{"", ""}, {"Title only", ""}, {"", "   ...  "}, {"", "x"}}), false);
  expect_streams_like_memory(corpus_of({{"A b", "c a a"},
                                        {"", "same words here"},
                                        {"", ""},
                                        {"", "same words here"},
                                        {"", "same words here"},
                                        {"Z", "zeta a b c d e f g h"},
                                        {"", "a a a a a a a b"},
                                        {"", ""}}),
                             true);
}

TEST(Bm25Streaming, MatchesTheInMemoryBuildOnSyntheticCorpora) {
  for (const std::uint64_t seed : {1u, 2u}) {
    dataset::SyntheticCorpusOptions options;
    options.vocabulary = seed == 1 ? 300 : 5;  // the second: nearly every document a duplicate
    options.lengths = {0, 1, 3, 20, 120};
    options.seed = seed;
    expect_streams_like_memory(dataset::synthetic_corpus(1200, options), true);
  }
}

TEST(Bm25Streaming, SyntheticDocumentsAreTheSyntheticCorpusOneAtATime) {
  dataset::SyntheticCorpusOptions options;
  options.lengths = {4, 9};
  const auto corpus = dataset::synthetic_corpus(50, options);
  dataset::SyntheticDocuments source(options);
  for (const auto& expected : corpus.documents) {
    const auto document = source.next();
    EXPECT_EQ(document.id, expected.id);
    EXPECT_EQ(document.text, expected.text);
  }
}

TEST(Bm25Streaming, ReadsCorpusJsonlAsTheLoaderDoesAndRecordsItsChecksum) {
  const TempFolder folder;
  const auto corpus_path = folder.write("corpus.jsonl",
                                        "\xEF\xBB\xBF{\"_id\": 7, \"title\": \"Cats\", \"text\": \"cats purr\"}\r\n"
                                        "\n"
                                        "{\"_id\": \"b\", \"text\": \"dogs bark at cats\"}\n"
                                        "{\"_id\": \"c\", \"title\": null, \"text\": \"\"}");
  const auto loaded = dataset::load_corpus(corpus_path);
  const auto summary = bm25::write_index_streaming(corpus_path, folder.path() / "out" / "bm25.index", tiny_runs());
  EXPECT_EQ(io::read_file(folder.path() / "out" / "bm25.index"), image_of(bm25::build_index(loaded, loaded.checksum)));
  EXPECT_EQ(loaded.checksum, io::file_checksum(corpus_path));
  EXPECT_EQ(bm25::load_index(folder.path() / "out" / "bm25.index").corpus_checksum(), loaded.checksum);
  EXPECT_EQ(summary.documents, 3u);
  EXPECT_GT(summary.runs, 0u);
}

TEST(Bm25Streaming, MatchesTheInMemoryBuildOnSciFact) {
  const fs::path corpus_path = fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir/corpus.jsonl";
  if (!fs::exists(corpus_path)) GTEST_SKIP() << "SciFact is not in data/ (scripts/get-data.sh)";
  const TempFolder folder;
  const auto corpus = dataset::load_corpus(corpus_path);
  const std::string expected = image_of(bm25::build_index(corpus, corpus.checksum));
  // 2 MB runs: a dozen of them; then everything in one.
  for (const auto& options : {bm25::StreamingBuildOptions{.run_budget_bytes = 2 << 20, .small_run_bytes = 0}, one_run()}) {
    const auto summary = bm25::write_index_streaming(corpus_path, folder.path() / "bm25.index", options);
    EXPECT_EQ(io::read_file(folder.path() / "bm25.index"), expected);
    EXPECT_EQ(summary.runs == 0, options.run_budget_bytes == one_run().run_budget_bytes);
  }
}

TEST(Bm25Streaming, ABadLineNamesFileAndLineAndLeavesNothingBehind) {
  const TempFolder folder;
  std::string lines;
  for (int i = 0; i < 40; ++i) lines += "{\"_id\": \"d" + std::to_string(i) + "\", \"text\": \"w" + std::to_string(i % 7) + " common\"}\n";
  const auto corpus_path = folder.write("data/corpus.jsonl", lines + "{\"_id\": \"bad\", \"text\": \n");
  const auto out = folder.path() / "index" / "bm25.index";
  expect_error<DataError>([&] { bm25::write_index_streaming(corpus_path, out, tiny_runs()); },
                          corpus_path.string() + ":41: malformed JSON");
  EXPECT_FALSE(fs::exists(out));
  if (fs::exists(out.parent_path())) {
    EXPECT_TRUE(files_in(out.parent_path()).empty());
  }
}

TEST(Bm25Streaming, AFailedBuildLeavesAnExistingIndexUntouched) {
  const TempFolder folder;
  const auto out = folder.write("index/bm25.index", "the previous index");
  const auto duplicate = folder.write("dup/corpus.jsonl",
                                      "{\"_id\": \"a\", \"text\": \"x y\"}\n{\"_id\": \"b\", \"text\": \"y z\"}\n"
                                      "{\"_id\": \"a\", \"text\": \"z\"}\n");
  expect_error<DataError>([&] { bm25::write_index_streaming(duplicate, out, tiny_runs()); },
                          duplicate.string() + ":3: duplicate document id \"a\" (first on line 1)");
  const auto empty = folder.write("empty/corpus.jsonl", "\n  \n");
  expect_error<DataError>([&] { bm25::write_index_streaming(empty, out, tiny_runs()); }, "holds no JSON object (an empty input is refused)");
  expect_error<DataError>([&] { bm25::write_index_streaming(folder.path() / "missing.jsonl", out); }, "no such file");
  EXPECT_EQ(io::read_file(out), "the previous index");
  EXPECT_EQ(files_in(out.parent_path()), std::vector<std::string>{"bm25.index"});
}

TEST(Bm25Streaming, ABuilderDroppedBeforeFinishRemovesItsRuns) {
  const TempFolder folder;
  {
    bm25::StreamingIndexBuilder builder(folder.path() / "bm25.index", tiny_runs());
    for (int i = 0; i < 30; ++i) builder.add_document("d" + std::to_string(i), "", "alpha beta gamma delta");
    EXPECT_FALSE(files_in(folder.path()).empty());  // runs were spilled
  }
  EXPECT_TRUE(files_in(folder.path()).empty());
}

TEST(JsonlStreaming, LinesAcrossChunksAndLongerThanAChunkReadWhole) {
  const TempFolder folder;
  std::string contents;
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i) {
    // Lines of varied lengths, so that the 1 MiB chunks end inside lines, and one of 3 MB.
    texts.push_back(i == 1500 ? std::string(3 << 20, 'q') : std::string(static_cast<std::size_t>(100 + i % 977), 'a' + i % 26));
    contents += "{\"_id\": \"d" + std::to_string(i) + "\", \"text\": \"" + texts.back() + "\"}" + (i % 3 == 0 ? "\r\n" : "\n");
  }
  const auto path = folder.write("corpus.jsonl", contents);
  std::size_t seen = 0;
  const std::string checksum = dataset::for_each_document(path, [&](dataset::Document& document, std::size_t line) {
    EXPECT_EQ(line, seen + 1);
    EXPECT_EQ(document.id, "d" + std::to_string(seen));
    EXPECT_EQ(document.text, texts[seen]);
    ++seen;
  });
  EXPECT_EQ(seen, texts.size());
  EXPECT_EQ(checksum, io::checksum_hex(contents));
}
