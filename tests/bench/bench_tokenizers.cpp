// Tokenizing one very long word with the tokenizers of real checkpoints (their own files, from
// ../shared/data/hf-tokenizers): each must take time linear or n·log n in the word's length.
// Words of 10^3 … 10^6 random letters: one pre-tokenised word for byte-level BPE (RoBERTa),
// WordPiece (BERT) and SentencePiece (DeBERTa-v3). Skipped when the files are absent.
//
//   build/bench_tokenizers --benchmark_filter=Roberta

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "claimrag/tokenizer/tokenizer.hpp"

namespace {

namespace fs = std::filesystem;

fs::path checkpoint_folder(const char* name) {
  return fs::path(CLAIMRAG_SOURCE_DIR) / ".." / "shared" / "data" / "hf-tokenizers" / name;
}

std::string random_letters(std::size_t length) {
  std::mt19937_64 rng(42);
  std::string word(length, 'a');
  for (char& c : word) c = static_cast<char>('a' + rng() % 26);
  return word;
}

void tokenize_one_word(benchmark::State& state, const char* folder_name, const char* model_type) {
  const fs::path folder = checkpoint_folder(folder_name);
  if (!fs::exists(folder)) {
    state.SkipWithError(("no " + folder.string()).c_str());
    return;
  }
  const auto tokenizer = claimrag::tokenizer::load_tokenizer(folder, model_type);
  const std::string word = random_letters(static_cast<std::size_t>(state.range(0)));
  std::size_t tokens = 0;
  for (auto _ : state) {
    const auto encoding = tokenizer->encode(word, std::nullopt, 0);
    tokens = encoding.input_ids.size();
    benchmark::DoNotOptimize(tokens);
  }
  state.counters["tokens"] = static_cast<double>(tokens);
  state.SetComplexityN(state.range(0));
}

void BM_RobertaByteLevelBpe(benchmark::State& state) { tokenize_one_word(state, "FacebookAI__roberta-large-mnli", "roberta"); }
void BM_BertWordPiece(benchmark::State& state) { tokenize_one_word(state, "google-bert__bert-base-uncased", "bert"); }
void BM_DebertaSentencePiece(benchmark::State& state) { tokenize_one_word(state, "microsoft__deberta-v3-base", "deberta-v2"); }

}  // namespace

BENCHMARK(BM_RobertaByteLevelBpe)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_BertWordPiece)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_DebertaSentencePiece)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)->Complexity();

BENCHMARK_MAIN();
