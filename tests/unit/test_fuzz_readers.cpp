// Fuzzing the readers of every file claimrag reads back (BM25 index, dense model and document
// matrix, reranker, verifier, TREC run): seeded mutations, checksums recomputed so that the
// structural checks are what is tested, and one rule: a damaged file is a DataError, never a
// crash, a hang or another exception. Inputs that once crashed are kept in tests/fuzz/kept/.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <span>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <typeinfo>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/index_format.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dense/model_io.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/rerank/model_io.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "claimrag/verifier/model_io.hpp"
#include "fuzz_mutations.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::TempFolder;

namespace {

constexpr int kReaderRounds = 400;

dataset::Corpus small_corpus() {
  dataset::Corpus corpus;
  corpus.documents = {{"d1", "Aspirin", "aspirin lowers stroke risk"},
                      {"d2", "Statins", "statins lower cholesterol and stroke risk"},
                      {"d3", "Sleep", "sleep loss raises blood pressure"}};
  return corpus;
}

using claimrag::testing::Reader;

void load_and_search_index(const fs::path& file) {
  const auto index = bm25::load_index(file);
  const bm25::Searcher searcher(index, {});
  for (const char* query : {"stroke risk", "aspirin", "blood pressure sleep", "zzz"}) {
    (void)searcher.search(query, 3);
    for (std::uint32_t d = 0; d < index.document_count(); ++d) (void)searcher.score(query, d);
  }
}

void fuzz(const std::string& original, const fs::path& file, const Reader& read,
          const std::function<void(std::string&)>& reseal, std::uint64_t seed) {
  claimrag::testing::fuzz_reader(original, file, read, reseal, seed, kReaderRounds);
}

using claimrag::testing::no_reseal;
void reseal_bm25_index(std::string& bytes) { bm25::format::seal(std::as_writable_bytes(std::span(bytes))); }
void reseal_safetensors(std::string& bytes) { io::reseal_safetensors(bytes); }

rerank::RerankerModel small_reranker() {
  rerank::RerankerModel model;
  model.features.names = {"bm25", "tfidf_cosine", "jaccard", "doc_length", "query_length"};
  model.features.corpus_checksum = "583bb75e36954ff0";
  model.features.tfidf_fingerprint = "178383c54193eb86";
  model.features.tfidf_max_features = 100;
  model.classifier.weights = Eigen::VectorXd::LinSpaced(5, -1.0, 1.0);
  model.classifier.intercept = 0.5;
  model.training = {100, 1.0, rerank::ClassWeight::balanced, "train"};
  return model;
}

}  // namespace

TEST(FuzzReaders, Bm25IndexWithRecomputedChecksum) {
  TempFolder folder;
  const auto file = folder.path() / "bm25.index";
  bm25::save_index(bm25::build_index(small_corpus(), "c"), file);
  fuzz(io::read_file(file), file, load_and_search_index, reseal_bm25_index, 1);
  fuzz(io::read_file(file), file, load_and_search_index, no_reseal, 2);
}

TEST(FuzzReaders, Bm25IndexWithForgedOffsetsIsRefusedNotSearched) {
  TempFolder folder;
  const auto file = folder.path() / "bm25.index";
  bm25::save_index(bm25::build_index(small_corpus(), "c"), file);
  const std::string original = io::read_file(file);
  bm25::format::IndexHeader header;
  std::memcpy(&header, original.data() + bm25::format::kPrefixBytes, sizeof header);
  const auto offsets_at = header.sections[bm25::format::kPostingOffsets].offset;
  const auto postings = header.postings;
  // The checksums are valid: only the contents lie.
  for (const std::uint64_t forged : {std::uint64_t{1} << 40, postings + 1}) {
    std::string damaged = original;
    std::memcpy(damaged.data() + offsets_at + 8, &forged, sizeof forged);  // term 1's first posting
    reseal_bm25_index(damaged);
    io::write_file_atomically(file, damaged, true);
    claimrag::testing::expect_error<DataError>([&] { load_and_search_index(file); }, "inconsistent index contents");
  }
  // Postings out of document order: search binary-searches them. Refused when first read.
  const auto index = bm25::build_index(small_corpus(), "c");
  const auto stroke = static_cast<std::uint32_t>(index.term_id("stroke"));
  ASSERT_EQ(index.document_frequency(stroke), 2u);
  std::uint64_t first = 0;
  std::memcpy(&first, original.data() + offsets_at + 8 * stroke, sizeof first);
  std::string unordered = original;
  char* documents = unordered.data() + header.sections[bm25::format::kPostingDocuments].offset;
  std::swap_ranges(documents + 4 * first, documents + 4 * first + 4, documents + 4 * first + 4);
  reseal_bm25_index(unordered);
  io::write_file_atomically(file, unordered, true);
  const auto opened = bm25::load_index(file);
  claimrag::testing::expect_error<DataError>([&] { (void)opened.postings(stroke); }, "out of range or order");
  claimrag::testing::expect_error<DataError>([&] { load_and_search_index(file); }, "out of range or order");
}

TEST(FuzzReaders, DenseModelAndDocumentMatrix) {
  TempFolder folder;
  dense::DenseOptions options;
  options.dimension = 4;
  options.quiet = true;
  const auto vocabulary = dense::Vocabulary::build({"alpha beta gamma", "delta"});
  dense::DualEncoder<float> model(static_cast<std::int32_t>(vocabulary.size()), options);
  std::mt19937_64 rng(42);
  model.initialise(rng);
  const auto model_file = folder.path() / "model.safetensors";
  dense::save_model(model_file, model, vocabulary);
  fuzz(io::read_file(model_file), model_file, [&](const fs::path& file) { (void)dense::load_model(file, options); },
       reseal_safetensors, 3);

  const auto matrix_file = folder.path() / "documents.safetensors";
  const nn::Matrix<float> documents = nn::Matrix<float>::Random(3, 4);
  dense::save_document_matrix(matrix_file, documents, "f");
  fuzz(io::read_file(matrix_file), matrix_file,
       [](const fs::path& file) { (void)dense::load_document_matrix(file, "f", 3); }, reseal_safetensors, 4);
}

TEST(FuzzReaders, RerankerModel) {
  TempFolder folder;
  const auto file = folder.path() / "reranker.safetensors";
  rerank::save_model(small_reranker(), file);
  fuzz(io::read_file(file), file, [](const fs::path& path) { (void)rerank::load_model(path); }, reseal_safetensors, 5);
  fuzz(io::read_file(file), file, [](const fs::path& path) { (void)rerank::load_model(path); }, no_reseal, 6);
}

TEST(FuzzReaders, VerifierModel) {
  TempFolder folder;
  const verifier::Vocabulary vocabulary({"aspirin", "stroke", "risk"});
  verifier::VerifierOptions options;
  options.num_classes = 2;
  options.d_model = 4;
  options.heads = 2;
  options.d_ff = 6;
  options.max_length = 8;
  std::mt19937_64 rng(42);
  const verifier::VerifierModel<float> model(vocabulary.size(), options, rng);
  const auto file = folder.path() / "verifier.safetensors";
  verifier::save_verifier(file, model, vocabulary, {});
  fuzz(io::read_file(file), file, [](const fs::path& path) { (void)verifier::load_verifier(path); }, reseal_safetensors, 7);
}

TEST(FuzzReaders, TrecRun) {
  TempFolder folder;
  const auto file = folder.path() / "run.trec";
  const std::string run = "q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.25 bm25\nq2 Q0 d3 1 0.5 bm25\n";
  fuzz(run, file, [](const fs::path& path) { (void)run::read_trec_run(path); }, no_reseal, 8);
}

// A SentencePiece model, loaded as a DeBERTa-v2 folder's spm.model is, then used.
void load_sentencepiece_and_encode(const fs::path& model) {
  TempFolder folder;
  fs::copy_file(model, folder.path() / "spm.model");
  (void)tokenizer::load_tokenizer(folder.path(), "deberta-v2")->encode("Aspirin lowers the risk of stroke.", std::nullopt, 0);
}

// Inputs that once crashed a reader, kept as files: each must now be a DataError.
TEST(FuzzReaders, KeptCrashingInputsAreRefused) {
  const fs::path kept = fs::path(CLAIMRAG_SOURCE_DIR) / "tests" / "fuzz" / "kept";
  const std::map<std::string, Reader> readers = {
      {"bm25", load_and_search_index},
      {"rerank", [](const fs::path& path) { (void)rerank::load_model(path); }},
      {"verifier", [](const fs::path& path) { (void)verifier::load_verifier(path); }},
      {"run", [](const fs::path& path) { (void)run::read_trec_run(path); }},
      {"spm", load_sentencepiece_and_encode},
  };
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kept)) {
    const std::string name = entry.path().filename().string();
    const auto reader = readers.find(name.substr(0, name.find('_')));
    ASSERT_NE(reader, readers.end()) << name << ": name it <reader>_<what>";
    ++files;
    EXPECT_THROW(reader->second(entry.path()), DataError) << name;
  }
  EXPECT_GT(files, 0);
}
