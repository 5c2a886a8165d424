// Every vector unit this CPU runs writes the same bytes: `predict` (f32 and int8; BERT, RoBERTa in
// bfloat16 and DeBERTa's disentangled attention) and `verify --pairs` on a checkpoint, with CLAIMRAG_VECTOR_UNIT forcing
// each unit in turn; a unit that is unknown or that this CPU does not run is refused with exit 2
// and nothing written. (The built-in verifier's logistic models never reach the vector kernels;
// the SciFact regression check runs the reproduction, whose trained models do, on two units.)

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "claimrag/kernels/vector_unit.hpp"
#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/scoped_variable.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::kernels::available_vector_units;
using claimrag::kernels::VectorUnit;
using claimrag::kernels::vector_unit_name;
using claimrag::testing::Outcome;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

using claimrag::testing::kModels;

// CLAIMRAG_VECTOR_UNIT set to `unit` for the commands run while it lives.
class ForcedUnit {
 public:
  explicit ForcedUnit(const std::string& unit) : variable_(claimrag::kernels::kVectorUnitVariable, unit.c_str()) {}

 private:
  claimrag::testing::ScopedVariable variable_;
};

// The bytes `arguments` writes to `out` (a file in `folder`) under each unit this CPU runs.
std::map<std::string, std::string> output_per_unit(const std::string& arguments, const fs::path& out, TempFolder& folder) {
  std::map<std::string, std::string> outputs;
  for (const VectorUnit unit : available_vector_units()) {
    const std::string name = vector_unit_name(unit);
    const ForcedUnit forced(name);
    const Outcome outcome = run_claimrag("--verbose " + arguments + " --out " + out.string(), folder.path());
    EXPECT_EQ(outcome.exit_code, 0) << name << ": " << outcome.err;
    // The comparison means something only if the command really ran on the unit forced.
    EXPECT_NE(outcome.err.find("vector unit: " + name), std::string::npos) << outcome.err;
    outputs[name] = slurp(out);
    EXPECT_FALSE(outputs[name].empty()) << name;
  }
  return outputs;
}

void expect_same_bytes_on_every_unit(const std::map<std::string, std::string>& outputs) {
  ASSERT_FALSE(outputs.empty());
  const auto& [first_unit, first] = *outputs.begin();
  for (const auto& [unit, bytes] : outputs) EXPECT_EQ(bytes, first) << unit << " against " << first_unit;
}

fs::path unit_pairs(TempFolder& folder) {
  return folder.write("pairs.jsonl",
                      "{\"id\":\"a\",\"text\":\"the drug reduces the risk of cancer in older patients\",\"text_pair\":\"the drug reduces risk\"}\n"
                      "{\"id\":\"b\",\"text\":\"no effect on cells was seen at any dose\",\"text_pair\":\"the protein has a high effect on cells\"}\n"
                      "{\"id\":\"c\",\"text\":\"a cat sat on the mat\",\"text_pair\":\"the dog ran\"}\n");
}

TEST(CliVectorUnits, PredictWritesTheSameBytesOnEveryUnit) {
  TempFolder folder;
  const auto pairs = unit_pairs(folder);
  for (const std::string model : {"bert-classifier", "roberta-classifier-bf16", "deberta-v1-classifier"}) {
    for (const std::string precision : {"f32", "int8"}) {
      SCOPED_TRACE(model + " " + precision);
      expect_same_bytes_on_every_unit(output_per_unit("predict --checkpoint " + kModels + model + " --pairs " + pairs.string() +
                                            " --precision " + precision + " --threads 2",
                                        folder.path() / "predictions.jsonl", folder));
    }
  }
}

TEST(CliVectorUnits, VerifyWritesTheSameBytesOnEveryUnit) {
  TempFolder folder;
  SCOPED_TRACE("checkpoint");
  expect_same_bytes_on_every_unit(output_per_unit("verify --pairs examples/pairs.jsonl --verifier checkpoint:" + kModels +
                                        "bert-classifier",
                                    folder.path() / "verdicts.jsonl", folder));
}

TEST(CliVectorUnits, AnUnknownUnitOrOneThisCpuDoesNotRunIsRefused) {
  TempFolder folder;
  const auto pairs = unit_pairs(folder);
  const auto out = folder.path() / "predictions.jsonl";
  std::vector<std::string> refused{"avx1024", "AVX2"};
  if (!claimrag::kernels::cpu_runs(VectorUnit::avx512)) refused.push_back("avx512");
  if (!claimrag::kernels::cpu_runs(VectorUnit::avx2)) refused.push_back("avx2");
  for (const std::string& unit : refused) {
    const ForcedUnit forced(unit);
    const Outcome outcome = run_claimrag("predict --checkpoint " + kModels + "bert-classifier --pairs " + pairs.string() +
                                             " --out " + out.string(),
                                         folder.path());
    EXPECT_EQ(outcome.exit_code, 2) << unit << ": " << outcome.err;
    EXPECT_NE(outcome.err.find("CLAIMRAG_VECTOR_UNIT=" + unit), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << unit;
  }
}

}  // namespace
