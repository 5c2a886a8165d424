// `--replay FILE`: a recording of served exchanges, read whole, checked against its keys, and
// asked for each exchange it holds. A line's key is the hash of its url, path and request, which
// mutations never keep, so the bytes are read twice: as they are, and, when every line is JSON,
// with each key set to its line's own content address, so that what follows the key check (the
// reply, the failure, the status, repeated keys) is reached too.
#include <sstream>
#include <string>
#include <vector>

#include "claimrag/served/recording.hpp"
#include "fuzz_target.hpp"

namespace {

namespace served = claimrag::served;

const std::string kUrl = "http://127.0.0.1:8080/v1";

void replay(const std::string& bytes, const std::vector<served::JsonRequest>& requests) {
  const auto file = claimrag::fuzz::write_file(claimrag::fuzz::scratch_folder(), "exchanges.jsonl", bytes);
  claimrag::fuzz::expect_result_or_refusal([&] {
    served::ReplayTransport transport(file, kUrl);
    (void)transport.exchange(requests, [](const nlohmann::json& body) { return body.is_object() ? "" : "not an object"; });
  });
}

/// The lines with their keys recomputed, and the requests they hold; nullopt unless every
/// non-blank line is a JSON object with a string "url" and "path" and a "request".
std::optional<std::string> with_own_keys(const std::string& bytes, std::vector<served::JsonRequest>& requests) {
  std::istringstream lines(bytes);
  std::string line, rekeyed;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto object = nlohmann::json::parse(line, nullptr, false);
    if (!object.is_object() || !object.contains("url") || !object["url"].is_string() || !object.contains("path") ||
        !object["path"].is_string() || !object.contains("request")) {
      return std::nullopt;
    }
    served::JsonRequest request{object["path"].get<std::string>(), object["request"]};
    object["key"] = served::exchange_key(object["url"].get<std::string>(), request);
    rekeyed += object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    requests.push_back(std::move(request));
  }
  return rekeyed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(claimrag::fuzz::as_text(data, size));
  replay(bytes, {});
  std::vector<served::JsonRequest> requests;
  if (const auto rekeyed = with_own_keys(bytes, requests)) replay(*rekeyed, requests);
  return 0;
}
