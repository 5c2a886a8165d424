#include "claimrag/interrogation/recorded_responder.hpp"

#include <nlohmann/json.hpp>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::interrogation {
namespace {

std::string key_of(const std::string& pair_id, const std::string& probe_id, std::size_t sample) {
  return pair_id + '\x1f' + probe_id + '\x1f' + std::to_string(sample);
}

}  // namespace

RecordedResponder::RecordedResponder(const std::filesystem::path& file) : file_(file) {
  dataset::for_each_json_object(file, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, file_, line);
    fields.refuse_unknown({"pair_id", "probe_id", "sample", "text", "failed"});
    const std::string pair_id = fields.identifier("pair_id");
    const std::string probe_id = fields.string("probe_id");
    std::int64_t sample = 0;
    if (fields.element("sample").get_int64().get(sample) || sample < 0) {
      fields.fail("\"sample\" must be a whole number >= 0");
    }
    const std::string text = fields.string("text");
    const std::string key = key_of(pair_id, probe_id, static_cast<std::size_t>(sample));
    const auto [found, inserted] = answers_.emplace(key, std::make_pair(text, false));
    if (!inserted) {
      fields.fail("a second answer for pair '" + pair_id + "', probe '" + probe_id + "', sample " +
                  std::to_string(sample));
    }
    if (fields.has("failed")) {
      const std::string reason = fields.string("failed");
      if (reason.empty()) fields.fail("\"failed\" must say why the answer could not be obtained");
      if (!text.empty()) fields.fail("an answer that failed has no text");
      failed_.emplace(key, reason);
    }
  });
}

std::string RecordedResponder::failure(const ProbeRequest& request, std::size_t sample) const {
  const auto found = failed_.find(key_of(request.pair->id, request.probe->id, sample));
  return found == failed_.end() ? std::string() : found->second;
}

std::vector<std::vector<std::string>> RecordedResponder::respond(std::span<const ProbeRequest> requests,
                                                                 std::size_t samples) {
  std::vector<std::vector<std::string>> answers(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    answers[i].reserve(samples);
    for (std::size_t k = 0; k < samples; ++k) {
      const auto found = answers_.find(key_of(requests[i].pair->id, requests[i].probe->id, k));
      if (found == answers_.end()) {
        throw DataError(file_.string(), "no answer for pair '" + requests[i].pair->id + "', probe '" +
                                            requests[i].probe->id + "', sample " + std::to_string(k) +
                                            " (the recording holds " + std::to_string(answers_.size()) +
                                            " answers; was it made with other pairs, probes or --samples?)");
      }
      if (!found->second.second) {
        found->second.second = true;
        ++used_;
      }
      if (failed_.count(found->first) > 0) ++failures_;
      answers[i].push_back(found->second.first);
    }
  }
  return answers;
}

void write_recording(const std::filesystem::path& file, const std::vector<RecordedAnswer>& answers) {
  io::AtomicFile out(file);
  for (const RecordedAnswer& answer : answers) {
    nlohmann::ordered_json line;
    line["pair_id"] = answer.pair_id;
    line["probe_id"] = answer.probe_id;
    line["sample"] = answer.sample;
    line["text"] = answer.text;
    if (!answer.failure.empty()) line["failed"] = answer.failure;
    out.stream() << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
  out.commit();
}

}  // namespace claimrag::interrogation
