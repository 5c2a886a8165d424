#pragma once
// Hugging Face Text Embeddings Inference (TEI): the requests claimrag sends to its three routes,
// the checks a reply must pass, and the readers of accepted replies. Every call goes through a
// served::Transport, so it is recorded and replayed like any served exchange.
//
//   POST /predict {"inputs": [[premise, hypothesis], ...], "raw_scores": false, "truncate": true}
//                 → one array of {"label", "score"} per input, in any label order
//   POST /rerank  {"query", "texts": [...], "raw_scores": false, "truncate": true, "return_text": false}
//                 → [{"index", "score"}], one per text, in any order
//   POST /embed   {"inputs": [...], "truncate": true} → one array of floats per input
//
// Inputs are sent in requests of at most `batch_size` items (TEI refuses a request larger than its
// --max-client-batch-size, 32 by default, with status 413). A request that still fails after the
// endpoint's retries, or whose reply has another shape (a count that is not the inputs', a missing
// field, a non-finite number, a /predict or /rerank score outside [0, 1]), is a DataError naming the endpoint's URL, the route and the reason:
// never an empty or neutral answer.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

/// TEI's default --max-client-batch-size: the most inputs one request holds unless told otherwise.
inline constexpr std::size_t kTeiDefaultBatchSize = 32;

/// The URL of a `tei:URL` spec (--cross-encoder, --encoder), else "" (a folder on disk).
/// UsageError when the URL after "tei:" does not start with http:// or https://.
std::string tei_url_of(std::string_view spec);

/// One (premise, hypothesis) pair for /predict.
using TeiPair = std::pair<std::string, std::string>;

/// One label's score in a /predict reply.
struct TeiLabelScore {
  std::string label;
  double score = 0.0;
};

/// The /predict request for `pairs`.
JsonRequest tei_predict_request(std::span<const TeiPair> pairs);
/// The /rerank request of `texts` against `query`.
JsonRequest tei_rerank_request(const std::string& query, std::span<const std::string> texts);
/// The /embed request for `texts`, allowed a reply of 256 KiB per text (a batch of 32 vectors of
/// 4,096 or more dimensions fits whatever --max-reply-bytes).
JsonRequest tei_embed_request(std::span<const std::string> texts);

/// Checks of a reply to a request of `count` inputs: "" when it has the shape described above.
std::string check_tei_predict_reply(const nlohmann::json& body, std::size_t count);
std::string check_tei_rerank_reply(const nlohmann::json& body, std::size_t count);
std::string check_tei_embed_reply(const nlohmann::json& body, std::size_t count);

/// One pair's /predict answer: its label scores (in the reply's order), or, when its request had no
/// accepted reply (failed after the endpoint's retries, or refused by the checks above), the reason
/// naming the URL and the route, with no scores.
struct TeiPrediction {
  std::vector<TeiLabelScore> scores;
  std::string failure;
};

/// Every pair's answer, in input order, in requests of at most `batch_size` pairs (≥ 1): a request
/// without an accepted reply fails its own pairs, not the others', so that a verifier can count
/// them against --max-failures.
std::vector<TeiPrediction> tei_predict_each(Transport& transport, std::span<const TeiPair> pairs, std::size_t batch_size);

/// The label scores of every pair, in input order (each pair's labels in the reply's order).
/// Requests of at most `batch_size` pairs (≥ 1). DataError as described above.
std::vector<std::vector<TeiLabelScore>> tei_predict(Transport& transport, std::span<const TeiPair> pairs,
                                                    std::size_t batch_size);

/// One query and the texts /rerank scores against it.
struct TeiRerankQuery {
  std::string query;
  std::vector<std::string> texts;
};

/// Each query's texts' relevance, [query][text] in input order. Requests of at most `batch_size`
/// texts (a query with more is split; a query without texts sends nothing).
std::vector<std::vector<double>> tei_rerank(Transport& transport, std::span<const TeiRerankQuery> queries,
                                            std::size_t batch_size);

/// Each text's embedding, in text order; all of one dimension (else DataError). Requests of at most
/// `batch_size` texts.
std::vector<std::vector<float>> tei_embed(Transport& transport, std::span<const std::string> texts, std::size_t batch_size);

}  // namespace claimrag::served
