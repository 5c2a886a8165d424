// interrogate when answers cannot be obtained: more failures than --max-failures allows is a
// non-zero exit with nothing written, fewer are recorded as failures, and a replay of that
// recording counts them as failures again instead of turning them into answers.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/interrogation_inputs.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::json_lines;

namespace {

// Two samples of each probe; one of the four answers could not be obtained by the recorded run.
struct FailureInputs : claimrag::testing::InterrogationInputs {
  FailureInputs()
      : InterrogationInputs(R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "Yes"}
{"pair_id": "p1", "probe_id": "o", "sample": 1, "text": "", "failed": "HTTP status 500"}
{"pair_id": "p1", "probe_id": "f", "sample": 0, "text": "No"}
{"pair_id": "p1", "probe_id": "f", "sample": 1, "text": "No"}
)") {}
  std::string base() const {
    return "interrogate --pairs " + pairs.string() + " --probes " + probes.string() + " --samples 2 --out " + out.string();
  }
};

}  // namespace

TEST(CliInterrogateFailures, EveryAttemptRefusedIsANonZeroExitWithNothingWritten) {
  const FailureInputs inputs;
  // Port 1 of 127.0.0.1: nothing listens there, so every connection is refused at once.
  const auto outcome = run_claimrag(inputs.base() + " --responder http --endpoint http://127.0.0.1:1/v1 --llm-model m"
                                                    " --retries 0 --timeout 2",
                                    inputs.folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find("4 of 4 answers could not be obtained"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(inputs.out));
  EXPECT_FALSE(fs::exists(inputs.folder.path() / "out.responses.jsonl"));
}

TEST(CliInterrogateFailures, AReplayedFailureIsAFailureAgainNotAnAnswer) {
  const FailureInputs inputs;
  const std::string replay = inputs.base() + " --responder recorded:" + inputs.recording.string();
  const auto strict = run_claimrag(replay, inputs.folder.path());
  EXPECT_EQ(strict.exit_code, 3) << strict.err;
  EXPECT_NE(strict.err.find("1 of 4 answers could not be obtained"), std::string::npos) << strict.err;
  EXPECT_NE(strict.err.find("HTTP status 500"), std::string::npos) << strict.err;
  EXPECT_FALSE(fs::exists(inputs.out));
  // Allowed a quarter of failures, the run is written and its own recording keeps the failure.
  const auto record = inputs.folder.path() / "again.jsonl";
  const auto lenient = run_claimrag(replay + " --max-failures 0.25 --record " + record.string(), inputs.folder.path());
  ASSERT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_EQ(json_lines(record), json_lines(inputs.recording));
}
