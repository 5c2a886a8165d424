#pragma once
// Small corpora for the reranker's tests: one written out by hand (features computed by hand in
// test_rerank_features.cpp), and a seeded synthetic BEIR folder big enough to train on.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"

namespace claimrag::test {

/// d1 "Cats" / "cats eat fish", d2 "Dogs" / "dogs eat meat", d3 "" / "birds sing".
inline dataset::Corpus hand_corpus() {
  dataset::Corpus corpus;
  corpus.documents = {{"d1", "Cats", "cats eat fish"}, {"d2", "Dogs", "dogs eat meat"}, {"d3", "", "birds sing"}};
  for (std::uint32_t d = 0; d < corpus.documents.size(); ++d) corpus.position[corpus.documents[d].id] = d;
  corpus.checksum = "0123456789abcdef";
  return corpus;
}

/// A BEIR folder: `documents` abstracts of 20–60 words over a 60-word vocabulary, and 40 claims,
/// each made of 4–8 words of one abstract (its single relevant document, id "doc<i>"); claims
/// 0–27 are judged in qrels/train.tsv, 28–39 in qrels/test.tsv. Everything from mt19937_64(seed).
inline void write_synthetic_beir(const std::filesystem::path& folder, std::size_t documents = 150,
                                 std::uint64_t seed = 42) {
  std::filesystem::create_directories(folder / "qrels");
  std::mt19937_64 rng(seed);
  std::vector<std::string> vocabulary;
  for (int w = 0; w < 60; ++w) vocabulary.push_back(std::to_string(w).insert(0, 1, 'w'));
  std::uniform_int_distribution<std::size_t> word(0, vocabulary.size() - 1);
  std::uniform_int_distribution<int> length(20, 60);
  std::vector<std::vector<std::string>> texts(documents);
  std::ofstream corpus(folder / "corpus.jsonl");
  for (std::size_t d = 0; d < documents; ++d) {
    // Zipf-like: low word ids are common, so BM25's idf matters.
    const int words = length(rng);
    std::string text;
    for (int i = 0; i < words; ++i) {
      const std::size_t w = std::min(word(rng), word(rng));
      texts[d].push_back(vocabulary[w]);
      if (i > 0) text += ' ';
      text += vocabulary[w];
    }
    corpus << R"({"_id": "doc)" << d << R"(", "title": "Title )" << d % 7 << R"(", "text": ")" << text << "\"}\n";
  }
  std::ofstream queries(folder / "queries.jsonl");
  std::ofstream train(folder / "qrels/train.tsv");
  std::ofstream test(folder / "qrels/test.tsv");
  train << "query-id\tcorpus-id\tscore\n";
  test << "query-id\tcorpus-id\tscore\n";
  std::uniform_int_distribution<std::size_t> pick_document(0, documents - 1);
  std::uniform_int_distribution<int> claim_length(4, 8);
  for (int q = 0; q < 40; ++q) {
    const std::size_t target = pick_document(rng);
    std::uniform_int_distribution<std::size_t> pick_word(0, texts[target].size() - 1);
    std::string claim;
    const int words = claim_length(rng);
    for (int i = 0; i < words; ++i) {
      // Mostly the target's words, sometimes noise.
      if (i > 0) claim += ' ';
      claim += i % 4 == 3 ? vocabulary[word(rng)] : texts[target][pick_word(rng)];
    }
    queries << R"({"_id": "q)" << q << R"(", "text": ")" << claim << "\"}\n";
    (q < 28 ? train : test) << "q" << q << "\tdoc" << target << "\t1\n";
  }
}

}  // namespace claimrag::test
