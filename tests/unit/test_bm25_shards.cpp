// The document-sharded BM25 index: statistics computed, written and read back (and their bad
// files refused by file and line); shards that score every document with the whole corpus's
// statistics, so that N shards searched together give the hits of one index over the corpus, bit
// for bit and in the same tie order, exhaustive or pruned, on a corpus of deliberate ties and a
// synthetic Zipf corpus, for N = 1, 2, 3, 4, 7 and more shards than documents; and the refusal of
// statistics of another corpus and of shard metadata that disagrees with its index.

#include <gtest/gtest.h>
#include <omp.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/bm25/collection_statistics.hpp"
#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/index_format.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/bm25/shard_index.hpp"
#include "claimrag/bm25/sharded_search.hpp"
#include "claimrag/bm25/streaming_build.hpp"
#include "claimrag/dataset/synthetic_corpus.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/input_file.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

namespace fs = std::filesystem;

void write_corpus(const fs::path& file, const dataset::Corpus& corpus) {
  std::ofstream out(file);
  for (const auto& d : corpus.documents) out << nlohmann::json{{"_id", d.id}, {"title", d.title}, {"text", d.text}}.dump() << "\n";
}

/// Documents written to repeat each other, so that many scores tie exactly, within and across shards.
dataset::Corpus tie_corpus() {
  const std::vector<std::string> texts{"aspirin lowers risk", "aspirin lowers risk", "vitamin raises bone density",
                                       "aspirin lowers risk", "no effect of aspirin", "vitamin raises bone density",
                                       "aspirin lowers risk", "bone", "aspirin", "aspirin lowers risk",
                                       "no effect of aspirin", "vitamin raises bone density", "aspirin lowers risk"};
  dataset::Corpus corpus;
  for (const auto& text : texts) corpus.documents.push_back({"t" + std::to_string(corpus.documents.size()), "", text});
  return corpus;
}

dataset::Corpus zipf_corpus() {
  return dataset::synthetic_corpus(600, {.vocabulary = 400, .zipf_exponent = 1.0, .lengths = {5, 40, 120}, .seed = 7});
}

/// The shards 0..count-1 of the corpus file, built with `statistics`.
std::vector<bm25::InvertedIndex> build_shards(const fs::path& corpus_file, const fs::path& folder, std::size_t count,
                                              const bm25::CollectionStatistics& statistics) {
  std::vector<bm25::InvertedIndex> shards;
  const std::uint64_t total = statistics.documents;
  std::uint64_t first = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t size = total / count + (k < total % count ? 1 : 0);
    const bm25::ShardBuild build{k, count, first, size, &statistics, io::checksum_hex(bm25::statistics_text(statistics))};
    const auto path = folder / ("shard" + std::to_string(k) + ".index");
    bm25::write_shard_index_streaming(corpus_file, path, build, "statistics.tsv");
    shards.push_back(bm25::load_index(path));
    first += size;
  }
  return shards;
}

void expect_same_hits(const std::vector<bm25::Hit>& whole, const std::vector<bm25::ShardHit>& sharded,
                      const std::vector<bm25::InvertedIndex>& shards, const std::string& context) {
  ASSERT_EQ(whole.size(), sharded.size()) << context;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    const auto& shard = *shards[sharded[i].shard].shard();
    EXPECT_EQ(whole[i].document, shard.first_document + sharded[i].document) << context << " rank " << i;
    EXPECT_EQ(whole[i].score, sharded[i].score) << context << " rank " << i;  // the same bits, not close
  }
}

/// For each shard count, the sharded hits of every query and depth equal one index's.
void expect_shards_search_like_one_index(const dataset::Corpus& corpus, const std::vector<std::string>& queries) {
  const TempFolder folder;
  const auto corpus_file = folder.path() / "corpus.jsonl";
  write_corpus(corpus_file, corpus);
  bm25::write_index_streaming(corpus_file, folder.path() / "whole.index");
  const auto whole = bm25::load_index(folder.path() / "whole.index");
  const bm25::Searcher searcher(whole, {});
  const auto statistics = bm25::compute_statistics(corpus_file);
  std::vector<std::string_view> texts(queries.begin(), queries.end());
  for (const std::size_t count : {1, 2, 3, 4, 7, 20}) {
    const auto shard_folder = folder.path() / std::to_string(count);
    fs::create_directories(shard_folder);
    const auto shards = build_shards(corpus_file, shard_folder, count, statistics);
    const bm25::ShardedSearcher sharded(shards, {});
    for (const std::size_t k : {1, 2, 3, 5, 1000}) {
      for (const bool pruned : {false, true}) {
        const auto expected = pruned ? searcher.search_many_pruned(texts, k) : searcher.search_many(texts, k);
        const auto got = sharded.search_many(texts, k, pruned);
        for (std::size_t q = 0; q < texts.size(); ++q) {
          expect_same_hits(expected[q], got[q], shards,
                           std::to_string(count) + " shards, k " + std::to_string(k) + (pruned ? " pruned" : "") + ", " + queries[q]);
        }
      }
    }
  }
}

}  // namespace

TEST(Bm25Statistics, CountsDocumentsLengthsAndFrequencies) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", tie_corpus());
  const auto statistics = bm25::compute_statistics(folder.path() / "corpus.jsonl");
  EXPECT_EQ(statistics.documents, 13u);
  // Token counts: 3 × 6 (aspirin lowers risk), 4 × 3, 4 × 2 (no effect of aspirin), 1 (bone), 1 (aspirin).
  EXPECT_EQ(statistics.total_length, 18u + 12u + 8u + 1u + 1u);
  EXPECT_EQ(statistics.document_frequency("aspirin"), 6u + 2u + 1u);
  EXPECT_EQ(statistics.document_frequency("bone"), 4u);
  EXPECT_EQ(statistics.document_frequency("absent"), 0u);
  EXPECT_TRUE(std::is_sorted(statistics.terms.begin(), statistics.terms.end()));
  EXPECT_EQ(statistics.corpus_checksum, io::file_checksum(folder.path() / "corpus.jsonl"));
}

TEST(Bm25Statistics, ReadBackAsWritten) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", zipf_corpus());
  const auto statistics = bm25::compute_statistics(folder.path() / "corpus.jsonl");
  bm25::write_statistics(statistics, folder.path() / "statistics.tsv");
  const auto read = bm25::read_statistics(folder.path() / "statistics.tsv");
  EXPECT_EQ(bm25::statistics_text(read), bm25::statistics_text(statistics));
  EXPECT_EQ(read.terms, statistics.terms);
  EXPECT_EQ(read.total_length, statistics.total_length);
}

TEST(Bm25Statistics, RefusesBadFilesByFileAndLine) {
  const TempFolder folder;
  const auto file = folder.path() / "statistics.tsv";
  const std::string header =
      R"({"format":"claimrag-bm25-statistics","version":1,"corpus_checksum":"c","documents":3,"total_length":9,"terms":2})";
  const auto expect_refused = [&](const std::string& text, const std::string& fragment) {
    std::ofstream(file) << text;
    expect_error<DataError>([&] { (void)bm25::read_statistics(file); }, file.string() + fragment);
  };
  expect_refused("term\t1\n", ":1: not a BM25 statistics file");
  expect_refused(header + "\nb\t1\na\t2\n", ":3: term \"a\" is out of byte order or repeated");
  expect_refused(header + "\na\t1\na\t2\n", ":3: term \"a\" is out of byte order or repeated");
  expect_refused(header + "\na\t4\nb\t1\n", ":2: document frequency \"4\" is not an integer in [1, 3]");
  expect_refused(header + "\na\t0\nb\t1\n", ":2: document frequency \"0\"");
  expect_refused(header + "\na 1\n", ":2: expected term<TAB>document frequency");
  expect_refused(header + "\na\t1\n", ": holds 1 terms, its header says 2");
  expect_refused(R"({"format":"claimrag-bm25-statistics","version":2})" "\n", ":1: statistics format version 2");
  // Fields of another JSON type are refused as such, not left to the JSON library's type error.
  expect_refused(R"({"format":1,"version":1})" "\n", ":1: not a BM25 statistics file");
  expect_refused(R"({"format":"claimrag-bm25-statistics","version":"1"})" "\n", ":1: statistics format version \"1\"");
  expect_refused(R"({"format":"claimrag-bm25-statistics","version":1,"corpus_checksum":2})" "\n", ":1: the header has no corpus_checksum");
  expect_refused(R"({"format":"claimrag-bm25-statistics","version":1,"corpus_checksum":"c","documents":"3"})" "\n",
                 ":1: the header has no non-negative integer \"documents\"");
}

TEST(Bm25Shards, SearchLikeOneIndexOnACorpusOfTies) {
  expect_shards_search_like_one_index(tie_corpus(), {"aspirin", "aspirin lowers risk", "bone density vitamin", "no effect",
                                                     "aspirin aspirin bone", "unknown words only", "risk of bone"});
}

TEST(Bm25Shards, SearchLikeOneIndexOnAZipfCorpus) {
  const auto corpus = zipf_corpus();
  std::vector<std::string> queries;
  for (std::size_t d = 0; d < corpus.documents.size(); d += 37) queries.push_back(corpus.documents[d].text.substr(0, 60));
  expect_shards_search_like_one_index(corpus, queries);
}

TEST(Bm25Shards, SameHitsForAnyThreadCount) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", zipf_corpus());
  const auto statistics = bm25::compute_statistics(folder.path() / "corpus.jsonl");
  const auto shards = build_shards(folder.path() / "corpus.jsonl", folder.path(), 3, statistics);
  const bm25::ShardedSearcher sharded(shards, {});
  const std::vector<std::string_view> queries{"w1 w2 w3", "w10 w5", "w7 w7 w30", "w2"};
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = sharded.search_many(queries, 10);
  omp_set_num_threads(2);
  const auto two = sharded.search_many(queries, 10);
  omp_set_num_threads(threads);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t q = 0; q < one.size(); ++q) {
    ASSERT_EQ(one[q].size(), two[q].size());
    for (std::size_t i = 0; i < one[q].size(); ++i) {
      EXPECT_EQ(one[q][i].shard, two[q][i].shard);
      EXPECT_EQ(one[q][i].document, two[q][i].document);
      EXPECT_EQ(one[q][i].score, two[q][i].score);
    }
  }
}

TEST(Bm25Shards, RecordTheWholeCorpusStatistics) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", tie_corpus());
  const auto statistics = bm25::compute_statistics(folder.path() / "corpus.jsonl");
  const auto shards = build_shards(folder.path() / "corpus.jsonl", folder.path(), 2, statistics);
  ASSERT_NE(shards[1].shard(), nullptr);
  EXPECT_EQ(shards[1].shard()->first_document, 7u);
  EXPECT_EQ(shards[1].document_count(), 6u);
  EXPECT_EQ(shards[1].collection_document_count(), 13u);
  EXPECT_EQ(shards[1].collection_average_document_length(), 40.0 / 13.0);
  const auto aspirin = static_cast<std::uint32_t>(shards[1].term_id("aspirin"));
  EXPECT_EQ(shards[1].collection_document_frequency(aspirin), 9u);
  EXPECT_EQ(shards[1].document_frequency(aspirin), 4u);  // t8, t9, t10, t12 of t7..t12
}

TEST(Bm25Shards, RefuseStatisticsOfAnotherCorpus) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", tie_corpus());
  write_corpus(folder.path() / "other.jsonl", zipf_corpus());
  const auto other = bm25::compute_statistics(folder.path() / "other.jsonl");
  const bm25::ShardBuild build{0, 2, 0, 7, &other, "x"};
  const auto index = folder.path() / "shard.index";
  expect_error<DataError>(
      [&] { bm25::write_shard_index_streaming(folder.path() / "corpus.jsonl", index, build, "statistics.tsv"); },
      "statistics.tsv: was computed from another corpus than");
  EXPECT_FALSE(fs::exists(index));
  EXPECT_EQ(claimrag::testing::entries_in(folder.path()), 2u);  // no temporaries left
}

TEST(Bm25Shards, RefuseMetadataThatDisagreesWithTheIndex) {
  const TempFolder folder;
  write_corpus(folder.path() / "corpus.jsonl", tie_corpus());
  const auto statistics = bm25::compute_statistics(folder.path() / "corpus.jsonl");
  (void)build_shards(folder.path() / "corpus.jsonl", folder.path(), 2, statistics);
  const auto path = folder.path() / "shard0.index";
  const std::string image = io::read_file(path, io::kModelInput);
  // Forges one field of the metadata behind valid checksums, keeping its length.
  const auto expect_refused = [&](const std::string& field, const std::string& forged, const std::string& fragment) {
    std::string bytes = image;
    const auto at = bytes.find(field);
    ASSERT_NE(at, std::string::npos) << field;
    bytes.replace(at, field.size(), forged);
    bm25::format::seal(std::as_writable_bytes(std::span(bytes)));
    const auto forged_path = folder.path() / "forged.index";
    std::ofstream(forged_path, std::ios::binary) << bytes;
    expect_error<DataError>([&] { (void)bm25::load_index(forged_path); }, forged_path.string() + ": " + fragment);
  };
  // "aspirin", the first term: 9 documents of the corpus, 5 of this shard (t0, t1, t3, t4, t6).
  expect_refused("\"document_frequencies\":[9,", "\"document_frequencies\":[1,",
                 "shard metadata: term 0's corpus document frequency is not in [5, 13]");
  expect_refused("\"first_document\":0", "\"first_document\":9", "shard metadata places the shard's documents beyond");
  expect_refused("\"shard\":0,", "\"shard\":2,", "shard metadata names shard 2 of 2");
}
