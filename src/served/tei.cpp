#include "claimrag/served/tei.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "claimrag/error.hpp"

namespace claimrag::served {
namespace {

using nlohmann::json;

/// How far from 1 the scores of several labels may sum (float rounding in the server's softmax).
constexpr double kProbabilitySumTolerance = 1e-3;

bool is_finite_number(const json& value) { return value.is_number() && std::isfinite(value.get<double>()); }

/// A score TEI gives with raw scores off: a probability.
bool is_probability(const json& value) {
  return is_finite_number(value) && value.get<double>() >= 0.0 && value.get<double>() <= 1.0;
}

/// The reply cap an /embed request of `count` texts needs: room for a 10,000-dimension vector of
/// numbers written in full (about 26 bytes each) per text.
constexpr std::size_t kEmbedReplyBytesPerText = std::size_t{256} << 10;

std::string count_problem(const json& body, std::size_t count, const char* what) {
  if (!body.is_array()) return std::string("the reply is not an array of ") + what;
  if (body.size() != count) {
    return "the reply holds " + std::to_string(body.size()) + " " + what + " for " + std::to_string(count) + " inputs";
  }
  return "";
}

// The [begin, end) ranges of `count` items in chunks of at most `batch_size`.
std::vector<std::pair<std::size_t, std::size_t>> chunks(std::size_t count, std::size_t batch_size) {
  if (batch_size == 0) throw UsageError("the batch size of requests to Text Embeddings Inference must be >= 1");
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t begin = 0; begin < count; begin += batch_size) ranges.emplace_back(begin, std::min(count, begin + batch_size));
  return ranges;
}

// The requests of `items` in chunks of at most `batch_size`, and each one's input count.
struct Batches {
  std::vector<JsonRequest> requests;
  std::vector<std::size_t> counts;
};
template <class Item, class Build>
void add_batches(Batches& batches, std::span<const Item> items, std::size_t batch_size, const Build& build) {
  for (const auto& [begin, end] : chunks(items.size(), batch_size)) {
    batches.requests.push_back(build(items.subspan(begin, end - begin)));
    batches.counts.push_back(end - begin);
  }
}

// Every request through the transport in one call (so that they run concurrently). The transport
// checks each reply's shape (a refused one is retried); the count, which only the request knows,
// is checked here. A request without an accepted answer gets its reason, naming the URL and the
// route, in place of its body.
struct CheckedReply {
  json body;
  std::string failure;  ///< "" when accepted
};
std::vector<CheckedReply> exchange_each(Transport& transport, const Batches& batches, std::string (*check)(const json&, std::size_t)) {
  const auto& [requests, counts] = batches;
  std::vector<CheckedReply> checked;
  if (requests.empty()) return checked;
  const ReplyCheck shape = [check](const json& body) { return check(body, body.is_array() ? body.size() : 0); };
  const auto replies = transport.exchange(requests, shape);
  if (replies.size() != requests.size()) throw InternalError("a transport gave another number of replies than requests");
  for (std::size_t r = 0; r < replies.size(); ++r) {
    const std::string route = transport.url() + ": POST " + requests[r].path;
    if (!replies[r].ok()) {
      checked.push_back({json(), route + " failed: " + replies[r].failure});
    } else if (const std::string problem = check(replies[r].body, counts[r]); !problem.empty()) {
      checked.push_back({json(), route + ": " + problem});
    } else {
      checked.push_back({replies[r].body, ""});
    }
  }
  return checked;
}

// exchange_each where a request without an accepted answer stops the command.
std::vector<json> exchange_checked(Transport& transport, const Batches& batches, std::string (*check)(const json&, std::size_t)) {
  std::vector<json> bodies;
  for (auto& reply : exchange_each(transport, batches, check)) {
    if (!reply.failure.empty()) throw DataError(reply.failure);
    bodies.push_back(std::move(reply.body));
  }
  return bodies;
}

}  // namespace

std::string tei_url_of(std::string_view spec) {
  constexpr std::string_view prefix = "tei:";
  if (!spec.starts_with(prefix)) return "";
  const std::string url(spec.substr(prefix.size()));
  if (!url.starts_with("http://") && !url.starts_with("https://")) {
    throw UsageError("'" + std::string(spec) + "': a served model is named tei:http(s)://host[:port][/path]");
  }
  return url;
}

JsonRequest tei_predict_request(std::span<const TeiPair> pairs) {
  json inputs = json::array();
  for (const auto& [premise, hypothesis] : pairs) inputs.push_back({premise, hypothesis});
  return {"/predict", {{"inputs", std::move(inputs)}, {"raw_scores", false}, {"truncate", true}}};
}

JsonRequest tei_rerank_request(const std::string& query, std::span<const std::string> texts) {
  return {"/rerank",
          {{"query", query},
           {"texts", json(std::vector<std::string>(texts.begin(), texts.end()))},
           {"raw_scores", false},
           {"truncate", true},
           {"return_text", false}}};
}

JsonRequest tei_embed_request(std::span<const std::string> texts) {
  return {"/embed", {{"inputs", json(std::vector<std::string>(texts.begin(), texts.end()))}, {"truncate", true}},
          texts.size() * kEmbedReplyBytesPerText};
}

std::string check_tei_predict_reply(const json& body, std::size_t count) {
  if (std::string problem = count_problem(body, count, "predictions"); !problem.empty()) return problem;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const json& labels = body[i];
    if (!labels.is_array() || labels.empty()) return "prediction " + std::to_string(i) + " is not an array of labels";
    for (const json& item : labels) {
      if (!item.is_object() || !item.contains("label") || !item["label"].is_string() || !item.contains("score") ||
          !is_finite_number(item["score"])) {
        return "prediction " + std::to_string(i) + " holds an item without a \"label\" text and a finite \"score\"";
      }
      if (!is_probability(item["score"])) {
        return "prediction " + std::to_string(i) + " holds the score " + item["score"].dump() + ", outside [0, 1]";
      }
    }
    // With raw scores off, TEI gives a softmax over several labels (a sigmoid for one): scores
    // that do not sum to 1 are not probabilities, whatever each looks like.
    if (labels.size() > 1) {
      double sum = 0.0;
      for (const json& item : labels) sum += item["score"].get<double>();
      if (std::abs(sum - 1.0) > kProbabilitySumTolerance) {
        return "prediction " + std::to_string(i) + "'s scores sum to " + json(sum).dump() +
               ", not 1 (within 0.001): not a probability distribution";
      }
    }
  }
  return "";
}

std::string check_tei_rerank_reply(const json& body, std::size_t count) {
  if (std::string problem = count_problem(body, count, "scores"); !problem.empty()) return problem;
  std::vector<bool> seen(count, false);
  for (const json& item : body) {
    if (!item.is_object() || !item.contains("index") || !item["index"].is_number_unsigned() || !item.contains("score") ||
        !is_finite_number(item["score"])) {
      return "a score is not an object with an \"index\" and a finite \"score\"";
    }
    if (!is_probability(item["score"])) return "a score of " + item["score"].dump() + " is outside [0, 1]";
    const auto index = item["index"].get<std::size_t>();
    if (index >= count || seen[index]) return "the reply's indices are not each of the texts once";
    seen[index] = true;
  }
  return "";
}

std::string check_tei_embed_reply(const json& body, std::size_t count) {
  if (std::string problem = count_problem(body, count, "embeddings"); !problem.empty()) return problem;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const json& vector = body[i];
    if (!vector.is_array() || vector.empty() || !std::all_of(vector.begin(), vector.end(), is_finite_number)) {
      return "embedding " + std::to_string(i) + " is not a non-empty array of finite numbers";
    }
    // Stored as float32: a value past its range (1e300) would become infinity in the index.
    const auto beyond_float = std::find_if(vector.begin(), vector.end(), [](const json& value) {
      return std::abs(value.get<double>()) > static_cast<double>(std::numeric_limits<float>::max());
    });
    if (beyond_float != vector.end()) {
      return "embedding " + std::to_string(i) + " holds " + beyond_float->dump() + ", beyond the range of float32";
    }
    if (vector.size() != body.front().size()) return "the embeddings of one reply differ in dimension";
  }
  return "";
}

std::vector<TeiPrediction> tei_predict_each(Transport& transport, std::span<const TeiPair> pairs, std::size_t batch_size) {
  Batches batches;
  add_batches(batches, pairs, batch_size, tei_predict_request);
  std::vector<TeiPrediction> predictions;
  predictions.reserve(pairs.size());
  const auto replies = exchange_each(transport, batches, check_tei_predict_reply);
  for (std::size_t r = 0; r < replies.size(); ++r) {
    if (!replies[r].failure.empty()) {
      for (std::size_t i = 0; i < batches.counts[r]; ++i) predictions.push_back({{}, replies[r].failure});
      continue;
    }
    for (const json& labels : replies[r].body) {
      auto& pair = predictions.emplace_back();
      for (const json& item : labels) pair.scores.push_back({item["label"].get<std::string>(), item["score"].get<double>()});
    }
  }
  return predictions;
}

std::vector<std::vector<TeiLabelScore>> tei_predict(Transport& transport, std::span<const TeiPair> pairs,
                                                    std::size_t batch_size) {
  std::vector<std::vector<TeiLabelScore>> scores;
  scores.reserve(pairs.size());
  for (auto& prediction : tei_predict_each(transport, pairs, batch_size)) {
    if (!prediction.failure.empty()) throw DataError(prediction.failure);
    scores.push_back(std::move(prediction.scores));
  }
  return scores;
}

std::vector<std::vector<double>> tei_rerank(Transport& transport, std::span<const TeiRerankQuery> queries,
                                            std::size_t batch_size) {
  Batches batches;
  for (const auto& query : queries) {
    add_batches(batches, std::span<const std::string>(query.texts), batch_size,
                [&](std::span<const std::string> texts) { return tei_rerank_request(query.query, texts); });
  }
  const auto bodies = exchange_checked(transport, batches, check_tei_rerank_reply);
  std::vector<std::vector<double>> scores;
  std::size_t next = 0;
  for (const auto& query : queries) {
    auto& relevance = scores.emplace_back(query.texts.size(), 0.0);
    for (const auto& [begin, end] : chunks(query.texts.size(), batch_size)) {
      for (const json& item : bodies[next]) relevance[begin + item["index"].get<std::size_t>()] = item["score"].get<double>();
      ++next;
    }
  }
  return scores;
}

std::vector<std::vector<float>> tei_embed(Transport& transport, std::span<const std::string> texts, std::size_t batch_size) {
  Batches batches;
  add_batches(batches, texts, batch_size, tei_embed_request);
  std::vector<std::vector<float>> vectors;
  vectors.reserve(texts.size());
  for (const json& body : exchange_checked(transport, batches, check_tei_embed_reply)) {
    for (const json& vector : body) {
      vectors.push_back(vector.get<std::vector<float>>());
      if (vectors.back().size() != vectors.front().size()) {
        throw DataError(transport.url(), "POST /embed: the embeddings differ in dimension (" +
                                             std::to_string(vectors.front().size()) + " and " +
                                             std::to_string(vectors.back().size()) + ")");
      }
    }
  }
  return vectors;
}

}  // namespace claimrag::served
