// The bounded reader through the binary: a device or a FIFO given where a configuration, a model
// or a prompt is read is refused by name with exit 3 (the prompt: 2), at once, nothing written;
// a configuration holding 1e400 is a data error naming the file and line, not an internal error.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;

const char* kBoundedInputsPairs = R"({"id": "p1", "claim": "Aspirin lowers fever.", "evidence": "Aspirin lowered fever."}
)";

}  // namespace

TEST(CliBoundedInputs, ADeviceOrAFifoAsConfigModelOrPromptIsRefusedByNameAtOnce) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", kBoundedInputsPairs);
  const auto out = folder.path() / "verdicts.jsonl";
  const std::string verify = "verify --pairs " + pairs.string() + " --out " + out.string();
  const auto fifo = folder.path() / "model.safetensors";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);  // no writer: opening it would wait for ever

  const auto config = run_claimrag(verify + " --config /dev/zero", folder.path());
  EXPECT_EQ(config.exit_code, 3) << config.err;
  EXPECT_NE(config.err.find("/dev/zero: is a device, not a regular file"), std::string::npos) << config.err;
  const auto model = run_claimrag(verify + " --model /dev/zero", folder.path());
  EXPECT_EQ(model.exit_code, 3) << model.err;
  EXPECT_NE(model.err.find("/dev/zero: is a device"), std::string::npos) << model.err;
  const auto fifo_model = run_claimrag(verify + " --model " + fifo.string(), folder.path());
  EXPECT_EQ(fifo_model.exit_code, 3) << fifo_model.err;
  EXPECT_NE(fifo_model.err.find("model.safetensors: is a FIFO (named pipe)"), std::string::npos) << fifo_model.err;
  const auto prompt = run_claimrag(verify + " --verifier llm:http://127.0.0.1:9/v1 --llm-model m --prompt /dev/zero", folder.path());
  EXPECT_EQ(prompt.exit_code, 2) << prompt.err;
  EXPECT_NE(prompt.err.find("--prompt /dev/zero"), std::string::npos) << prompt.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliBoundedInputs, AConfigurationHoldingANumberNoDoubleHoldsNamesItsFileAndLine) {
  claimrag::testing::TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", kBoundedInputsPairs);
  const auto config = folder.write("experiment.json", "{\n  \"seed\": 1e400\n}\n");
  const auto run = run_claimrag("verify --pairs " + pairs.string() + " --out " + (folder.path() / "v.jsonl").string() +
                                    " --config " + config.string(),
                                folder.path());
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.err.find("experiment.json:2: the number 1e400 is out of range"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
}
