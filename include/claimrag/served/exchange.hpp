#pragma once
// One JSON exchange with a served model, and the Transport that carries a batch of them: live over
// HTTP (served/http_transport.hpp), from a recording (served/recording.hpp), or live while
// recording. Backends (the LLM judge, TEI) build requests and read replies; they never see which
// transport carries them, so a recorded run replays through the same code.

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

namespace claimrag::served {

/// A POST of `body` to the endpoint's URL followed by `path` ("/chat/completions", "/predict").
struct JsonRequest {
  std::string path;
  nlohmann::json body;
  /// The reply size this request needs, when it may exceed the endpoint's cap (a batch of
  /// embeddings): the attempt's cap is the larger of the two. Not part of the request sent or of
  /// its recording key.
  std::size_t reply_allowance = 0;
};

/// What came of one request: the reply's JSON when it was obtained and accepted, else why not.
struct JsonReply {
  nlohmann::json body;    ///< null when failed
  std::string failure;    ///< "" when answered; else the last attempt's reason ("HTTP status 400: ...")
  int status = 0;         ///< the last attempt's HTTP status; 0 when none came (connection, timeout)
  [[nodiscard]] bool ok() const { return failure.empty(); }
};

/// Checks a 200 reply's body: "" when it is an answer of the API asked, else why it is not ("the
/// reply has no choices"). A refused body fails the attempt, which is retried like any other.
using ReplyCheck = std::function<std::string(const nlohmann::json& body)>;

class Transport {
 public:
  virtual ~Transport() = default;
  /// One reply per request, in request order, whatever the order of completion. A request that
  /// could not be answered gives a failed reply (never an exception); the caller counts it.
  /// ReplayTransport throws DataError for a request its recording lacks.
  [[nodiscard]] virtual std::vector<JsonReply> exchange(std::span<const JsonRequest> requests,
                                                        const ReplyCheck& check) = 0;
  /// The endpoint's normalized base URL.
  [[nodiscard]] virtual const std::string& url() const = 0;
};

}  // namespace claimrag::served
