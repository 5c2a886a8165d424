#pragma once
// The recorded responder: answers read from JSON Lines {"pair_id", "probe_id", "sample", "text"}
// (sample counted from 0), so that an external model's run can be re-scored without the model.
// `interrogate` writes the same format for every run (--record), so any run can be replayed.
//
// A (pair, probe, sample) asked for and absent from the file is a DataError naming it: a recording
// that does not cover the run was made with other probes, pairs or K, and filling the gaps with
// Neutral answers would bias every verdict silently. Answers in the file that the run does not ask
// for are allowed (replaying K = 5 of a K = 10 recording) and counted in unused().
//
// An answer the recorded run could not obtain is a line with "failed": REASON (and empty text); a
// replay counts it as a failure again (failures(), failure()), never as an answer.

#include <filesystem>
#include <string>
#include <unordered_map>

#include "claimrag/interrogation/responder.hpp"

namespace claimrag::interrogation {

class RecordedResponder final : public Responder {
 public:
  /// Reads the whole file; DataError `file:line` for malformed lines, duplicates, negative samples.
  explicit RecordedResponder(const std::filesystem::path& file);
  [[nodiscard]] std::vector<std::vector<std::string>> respond(std::span<const ProbeRequest> requests,
                                                              std::size_t samples) override;
  /// Answers in the file that no respond() call has asked for so far.
  [[nodiscard]] std::size_t unused() const { return answers_.size() - used_; }
  [[nodiscard]] std::size_t failures() const override { return failures_; }
  [[nodiscard]] std::string failure(const ProbeRequest& request, std::size_t sample) const override;

 private:
  std::filesystem::path file_;
  std::unordered_map<std::string, std::pair<std::string, bool>> answers_;  ///< key -> (text, used)
  std::unordered_map<std::string, std::string> failed_;                    ///< key -> why it failed
  std::size_t used_ = 0;
  std::size_t failures_ = 0;  ///< failed answers asked for
};

/// One line of the recorded format, as written by write_recording.
struct RecordedAnswer {
  std::string pair_id;
  std::string probe_id;
  std::size_t sample = 0;
  std::string text;
  std::string failure = {};  ///< why the answer could not be obtained; "" when it was
};

/// Writes answers in the recorded format, atomically, in the order given.
void write_recording(const std::filesystem::path& file, const std::vector<RecordedAnswer>& answers);

}  // namespace claimrag::interrogation
