// `claimrag predict` over a checkpoint stored as pytorch_model.bin: the same output bytes as its
// safetensors twin, and a hostile pickle refused with exit code 3 and nothing written.

#include <gtest/gtest.h>

#include <filesystem>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

const fs::path kFixtures = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained";

// bert-classifier with its weights replaced by `bin`.
fs::path torch_classifier(const TempFolder& temp, const fs::path& bin) {
  const auto folder = temp.path() / "checkpoint";
  fs::copy(kFixtures / "models/bert-classifier", folder, fs::copy_options::recursive);
  fs::remove(folder / "model.safetensors");
  fs::copy_file(bin, folder / "pytorch_model.bin");
  return folder;
}

const char* kPairs = R"({"id": "a", "text": "the cell grows", "text_pair": "cells grow"}
{"id": "b", "text": "no effect was seen"}
)";

TEST(CliTorchCheckpoint, PredictGivesTheSafetensorsTwinsBytes) {
  TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", kPairs);
  const auto folder = torch_classifier(temp, kFixtures / "torch/bert-classifier/pytorch_model.bin");
  const auto from_torch = run_claimrag("--quiet predict --checkpoint " + folder.string() + " --pairs " + pairs.string() +
                                           " --out " + (temp.path() / "torch.jsonl").string(),
                                       temp.path());
  ASSERT_EQ(from_torch.exit_code, 0) << from_torch.err;
  const auto from_safetensors =
      run_claimrag("--quiet predict --checkpoint " + (kFixtures / "models/bert-classifier").string() + " --pairs " +
                       pairs.string() + " --out " + (temp.path() / "safetensors.jsonl").string(),
                   temp.path());
  ASSERT_EQ(from_safetensors.exit_code, 0) << from_safetensors.err;
  EXPECT_EQ(slurp(temp.path() / "torch.jsonl"), slurp(temp.path() / "safetensors.jsonl"));
  EXPECT_FALSE(slurp(temp.path() / "torch.jsonl").empty());
}

TEST(CliTorchCheckpoint, HostilePickleExitsThreeAndWritesNothing) {
  TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", kPairs);
  for (const char* hostile : {"os-system", "builtins-eval", "truncated-archive"}) {
    const auto folder = torch_classifier(temp, kFixtures / "torch/hostile" / (std::string(hostile) + ".bin"));
    const auto out = temp.path() / "out.jsonl";
    const auto outcome =
        run_claimrag("predict --checkpoint " + folder.string() + " --pairs " + pairs.string() + " --out " + out.string(),
                     temp.path());
    EXPECT_EQ(outcome.exit_code, 3) << hostile << ": " << outcome.err;
    EXPECT_NE(outcome.err.find((folder / "pytorch_model.bin").string()), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << hostile;
    EXPECT_FALSE(fs::exists(fs::path(CLAIMRAG_SOURCE_DIR) / "pwned")) << hostile;
    fs::remove_all(folder);
  }
}

}  // namespace
