#include "claimrag/experiment/retrieval/cross_encoder_rerank.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/rerank/reranker.hpp"

namespace claimrag::experiment {
namespace {

using pretrained::HeadKind;

// The index of the logit whose probability is the relevance; npos for a one-logit head.
std::size_t scored_label(const pretrained::TextModel& model, const std::string& label) {
  const auto& checkpoint = model.model();
  const std::string folder = model.folder().string();
  if (checkpoint.head() == HeadKind::embedding) {
    checkpoint.require_head(HeadKind::score, "a cross-encoder needs a one-logit or classification head");
  }
  if (checkpoint.head() == HeadKind::score) {
    if (!label.empty()) throw UsageError("--label " + label + ": " + folder + " has a one-logit head, which has no labels");
    return std::string::npos;
  }
  const auto& labels = checkpoint.config().labels;
  const auto found = std::find(labels.begin(), labels.end(), label);
  if (label.empty() || found == labels.end()) {
    std::string listed;
    for (const auto& name : labels) listed += (listed.empty() ? "" : ", ") + name;
    throw UsageError(folder + " is a classifier over [" + listed + "]: " +
                     (label.empty() ? std::string("give --label NAME, the label whose probability ranks documents")
                                    : "it has no label '" + label + "'"));
  }
  return static_cast<std::size_t>(found - labels.begin());
}

double relevance(const std::vector<float>& values, std::size_t label) {
  if (label == std::string::npos) return 1.0 / (1.0 + std::exp(-static_cast<double>(values.front())));
  return pretrained::softmax(values)[label];
}

}  // namespace

run::Run rerank_with_cross_encoder(const CrossEncoderRequest& request) {
  if (request.rerank_depth == 0) throw UsageError("--rerank-depth must be >= 1");
  const pretrained::TextModel model(request.cross_encoder);
  const std::size_t label = scored_label(model, request.label);
  const auto corpus = dataset::load_corpus(request.beir_folder / "corpus.jsonl");
  std::unordered_map<std::string, std::string> query_text;
  for (auto& query : dataset::load_queries(request.beir_folder / "queries.jsonl")) query_text[query.id] = std::move(query.text);
  const run::Run input = run::read_trec_run(request.run_file);
  const std::string source = request.run_file.string();

  // Every document of every head, then one batched call.
  std::vector<std::string> passages;
  std::vector<pretrained::TextInput> pairs;
  std::vector<std::size_t> head_size;
  for (const auto& ranking : input.rankings) {
    const auto claim = query_text.find(ranking.query_id);
    if (claim == query_text.end()) throw DataError(source, "query " + ranking.query_id + " is not in queries.jsonl");
    for (const auto& document : ranking.documents) {
      if (corpus.find(document.doc_id) < 0) {
        throw DataError(source, "query " + ranking.query_id + ": document " + document.doc_id + " is not in corpus.jsonl");
      }
    }
    head_size.push_back(std::min(request.rerank_depth, ranking.documents.size()));
  }
  for (std::size_t q = 0; q < input.rankings.size(); ++q) {
    for (std::size_t d = 0; d < head_size[q]; ++d) {
      const auto position = corpus.find(input.rankings[q].documents[d].doc_id);
      passages.push_back(corpus.documents[static_cast<std::size_t>(position)].full_text());
    }
  }
  std::size_t next = 0;
  for (std::size_t q = 0; q < input.rankings.size(); ++q) {
    const std::string& claim = query_text.at(input.rankings[q].query_id);
    for (std::size_t d = 0; d < head_size[q]; ++d) pairs.push_back({claim, passages[next++]});
  }
  const auto outputs = model.run(pairs, request.max_length, request.batch_size, source);
  run::Run reranked;
  reranked.tag = input.tag + "+cross-encoder";
  next = 0;
  for (std::size_t q = 0; q < input.rankings.size(); ++q) {
    std::vector<double> probabilities;
    for (std::size_t d = 0; d < head_size[q]; ++d) probabilities.push_back(relevance(outputs.values[next++], label));
    reranked.add({input.rankings[q].query_id, rerank::reorder_by_probability(input.rankings[q].documents, probabilities)});
  }
  return reranked;
}

void run_cross_encoder_rerank(const CrossEncoderRequest& request) {
  const auto reranked = rerank_with_cross_encoder(request);
  run::write_trec_run(reranked, request.out_file);
  spdlog::info("reranked the top {} of {} queries with {} -> {}", request.rerank_depth, reranked.rankings.size(),
               request.cross_encoder.string(), request.out_file.string());
}

}  // namespace claimrag::experiment
