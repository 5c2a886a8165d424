#include "claimrag/experiment/retrieval/cross_encoder_rerank.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/run/run_shard.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/rerank/reranker.hpp"
#include "claimrag/served/tei.hpp"

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

// The relevance of each head's documents, [query][document], from the folder in one batched call.
std::vector<std::vector<double>> folder_relevances(const pretrained::TextModel& model, std::size_t label,
                                                   const CrossEncoderRequest& request, const std::vector<std::string>& claims,
                                                   const std::vector<std::vector<std::string>>& passages) {
  std::vector<pretrained::TextInput> pairs;
  for (std::size_t q = 0; q < claims.size(); ++q) {
    for (const auto& passage : passages[q]) pairs.push_back({claims[q], passage});
  }
  const auto outputs = model.run(pairs, request.max_length, request.batch_size, request.run_file.string());
  std::vector<std::vector<double>> relevances(claims.size());
  std::size_t next = 0;
  for (std::size_t q = 0; q < claims.size(); ++q) {
    for (std::size_t d = 0; d < passages[q].size(); ++d) relevances[q].push_back(relevance(outputs.values[next++], label));
  }
  return relevances;
}

// The same from TEI's /rerank, every request in one transport call.
std::vector<std::vector<double>> served_relevances(const CrossEncoderRequest& request, const std::vector<std::string>& claims,
                                                   std::vector<std::vector<std::string>> passages) {
  std::vector<served::TeiRerankQuery> queries;
  for (std::size_t q = 0; q < claims.size(); ++q) queries.push_back({claims[q], std::move(passages[q])});
  const auto transport = served::open_transport(request.served);
  return served::tei_rerank(*transport, queries, request.batch_size);
}

}  // namespace

run::Run rerank_with_cross_encoder(const CrossEncoderRequest& request) {
  if (request.rerank_depth == 0) throw UsageError("--rerank-depth must be >= 1");
  const bool served = !request.served.endpoint.url.empty();
  // The model is checked first: a wrong kind of model is refused before the data is read.
  if (served && !request.label.empty()) {
    throw UsageError("--label " + request.label + ": a reranker served by Text Embeddings Inference has one score, no labels");
  }
  std::optional<pretrained::TextModel> model;
  const std::size_t label = served ? std::string::npos : scored_label(model.emplace(request.cross_encoder), request.label);
  const auto corpus = dataset::load_corpus(request.beir_folder / "corpus.jsonl");
  std::unordered_map<std::string, std::string> query_text;
  for (auto& query : dataset::load_queries(request.beir_folder / "queries.jsonl")) query_text[query.id] = std::move(query.text);
  const run::Run input = run::keep_shard(run::read_trec_run(request.run_file), request.shard);
  const std::string source = request.run_file.string();

  // Every document of every head, then one batched call.
  std::vector<std::string> claims;
  std::vector<std::vector<std::string>> passages;
  for (const auto& ranking : input.rankings) {
    const auto claim = query_text.find(ranking.query_id);
    if (claim == query_text.end()) throw DataError(source, "query " + ranking.query_id + " is not in queries.jsonl");
    for (const auto& document : ranking.documents) {
      if (corpus.find(document.doc_id) < 0) {
        throw DataError(source, "query " + ranking.query_id + ": document " + document.doc_id + " is not in corpus.jsonl");
      }
    }
    claims.push_back(claim->second);
    auto& head = passages.emplace_back();
    for (std::size_t d = 0; d < std::min(request.rerank_depth, ranking.documents.size()); ++d) {
      head.push_back(corpus.documents[static_cast<std::size_t>(corpus.find(ranking.documents[d].doc_id))].full_text());
    }
  }
  const auto relevances = served ? served_relevances(request, claims, std::move(passages))
                                 : folder_relevances(*model, label, request, claims, passages);
  run::Run reranked;
  reranked.tag = input.tag + "+cross-encoder";
  for (std::size_t q = 0; q < input.rankings.size(); ++q) {
    reranked.add({input.rankings[q].query_id, rerank::reorder_by_probability(input.rankings[q].documents, relevances[q])});
  }
  return reranked;
}

void run_cross_encoder_rerank(const CrossEncoderRequest& request) {
  const auto reranked = rerank_with_cross_encoder(request);
  run::write_trec_run(reranked, request.out_file);
  spdlog::info("reranked the top {} of {} queries with {} -> {}", request.rerank_depth, reranked.rankings.size(),
               request.served.endpoint.url.empty() ? request.cross_encoder.string() : "tei:" + request.served.endpoint.url,
               request.out_file.string());
}

}  // namespace claimrag::experiment
