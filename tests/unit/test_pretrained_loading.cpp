// Loading checkpoints as the reference library loads them: pytorch_model.bin read without running
// its pickle, safetensors preferred, unused tensors dropped with one warning, missing ones refused,
// the base-model prefix present or absent, safetensors files whose layout is not exact refused, and
// word-embedding tables read in place from the file when it stores them as aligned float32.

#include <gtest/gtest.h>
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

#include "checkpoint_editing.hpp"
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "claimrag/pretrained/weight_table.hpp"
#include "support/captured_log.hpp"

namespace claimrag::pretrained {
namespace {

using nlohmann::json;
using testing::expect_contains;
using testing::load_error;
using testing::copy_checkpoint;
using testing::edit_safetensors;
namespace fs = std::filesystem;

fs::path torch_fixtures() { return testing::pretrained_fixtures() / "torch"; }

// A copy of the safetensors fixture `name` whose weights are replaced by PyTorch files from
// `torch_files` (every file of that folder).
fs::path torch_checkpoint(const testing::TempFolder& temp, const std::string& name, const fs::path& torch_files) {
  const auto folder = copy_checkpoint(temp, name);
  for (const auto& entry : fs::directory_iterator(folder)) {
    const auto file = entry.path().filename().string();
    if (entry.path().extension() == ".safetensors" || file == "model.safetensors.index.json") fs::remove(entry.path());
  }
  for (const auto& entry : fs::directory_iterator(torch_files)) fs::copy_file(entry.path(), folder / entry.path().filename());
  return folder;
}

using testing::CapturedLog;

std::vector<Prediction> run_expected_cases(const PretrainedModel& model, const std::string& name) {
  std::vector<TokenSequence> sequences;
  for (const auto& c : testing::expected_cases(name)) sequences.push_back(c.sequence);
  return model.predict(sequences, RunOptions{2, true});
}

void expect_same_predictions(const std::vector<Prediction>& a, const std::vector<Prediction>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].values, b[i].values) << "case " << i;
    ASSERT_EQ(a[i].hidden_states.size(), b[i].hidden_states.size());
    for (std::size_t l = 0; l < a[i].hidden_states.size(); ++l) {
      EXPECT_TRUE(a[i].hidden_states[l] == b[i].hidden_states[l]) << "case " << i << " layer " << l;
    }
  }
}

// `model` gives the same bits as the unchanged fixture `name`.
void expect_same_as_fixture(const PretrainedModel& model, const std::string& name) {
  expect_same_predictions(run_expected_cases(model, name),
                          run_expected_cases(load_pretrained_model(testing::fixture_checkpoint(name)), name));
}

// `object` with every key but "__metadata__" renamed by `rename`.
json renamed_keys(const json& object, const std::function<std::string(const std::string&)>& rename) {
  json renamed;
  for (const auto& [name, value] : object.items()) renamed[name == "__metadata__" ? name : rename(name)] = value;
  return renamed;
}

class TorchTwin : public ::testing::TestWithParam<std::string> {};

// The same tensors as pytorch_model.bin (transposed views, shared storages, an int64 buffer) give
// the same bits as the safetensors file, and so the reference's outputs.
TEST_P(TorchTwin, GivesTheSameOutputsAsTheSafetensorsFile) {
  const std::string name = GetParam();
  const testing::TempFolder temp;
  const auto folder = torch_checkpoint(temp, name, torch_fixtures() / name);
  const CapturedLog log;
  const auto from_torch = load_pretrained_model(folder);
  EXPECT_EQ(log.text(), "") << "the stored position_ids buffer is dropped silently, as the reference drops it";
  expect_same_as_fixture(from_torch, name);
  const auto torch_predictions = run_expected_cases(from_torch, name);
  const auto cases = testing::expected_cases(name);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (std::size_t k = 0; k < cases[i].values.size(); ++k) {
      EXPECT_NEAR(torch_predictions[i].values[k], cases[i].values[k], 1e-4) << name << " case " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PretrainedLoading, TorchTwin,
                         ::testing::Values("bert-classifier", "bert-reranker-f16", "roberta-classifier-bf16",
                                           "deberta-v3-classifier", "deberta-v1-classifier",
                                           "bert-embedding-sharded"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(PretrainedLoading, SafetensorsIsPreferredWhenBothAreThere) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  // A hostile pytorch_model.bin beside model.safetensors is never opened.
  fs::copy_file(torch_fixtures() / "hostile" / "os-system.bin", folder / "pytorch_model.bin");
  EXPECT_NO_THROW((void)load_pretrained_model(folder));
  fs::remove(folder / "model.safetensors");
  expect_contains(load_error(folder), "'os.system'");
}

struct HostileCase {
  const char* file;
  const char* message;
};

TEST(PretrainedLoading, HostileTorchFilesAreRefusedWithoutRunningThem) {
  const HostileCase cases[] = {
      {"os-system", "the pickle asks for the global 'os.system', which a PyTorch state dict never holds; nothing of the file was run"},
      {"posix-system", "the global 'posix.system'"},
      {"builtins-eval", "the global 'builtins.eval'"},
      {"inst-opcode", "the pickle uses opcode 0x69 at byte 19, which torch's saver never emits"},
      {"truncated-pickle", "the pickle is truncated at byte"},
      {"view-past-storage", "tensor 'bert.embeddings.LayerNorm.bias' [32] reaches past the 64 elements of its storage"},
      {"compressed", "member 'compressed/data.pkl' is compressed (method 8)"},
      {"truncated-archive", "not a readable PyTorch zip archive: no end-of-central-directory record"},
  };
  for (const auto& hostile : cases) {
    const testing::TempFolder temp;
    const auto folder = copy_checkpoint(temp, "bert-classifier");
    fs::remove(folder / "model.safetensors");
    fs::copy_file(torch_fixtures() / "hostile" / (std::string(hostile.file) + ".bin"), folder / "pytorch_model.bin");
    const auto message = load_error(folder);
    expect_contains(message, (folder / "pytorch_model.bin").string() + ": ");
    expect_contains(message, hostile.message);
  }
}

TEST(PretrainedLoading, ShardedTorchIndexNamesItsMissingShard) {
  const testing::TempFolder temp;
  const auto folder = torch_checkpoint(temp, "bert-embedding-sharded", torch_fixtures() / "bert-embedding-sharded");
  fs::remove(folder / "pytorch_model-00002-of-00002.bin");
  expect_contains(load_error(folder), "pytorch_model.bin.index.json: lists shard 'pytorch_model-00002-of-00002.bin'");
}

// Appends a tensor of `count` floats named `name` to a safetensors file's data.
void add_tensor(json& header, std::string& data, const std::string& name, std::int64_t rows, std::int64_t cols) {
  const std::size_t begin = data.size();
  data.append(static_cast<std::size_t>(rows * cols) * sizeof(float), '\0');
  header[name] = {{"dtype", "F32"}, {"shape", {rows, cols}}, {"data_offsets", {begin, data.size()}}};
}

TEST(PretrainedLoading, UnusedTensorsAreDroppedWithOneWarningNamingThem) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "deberta-v3-classifier");
  // DeBERTa-v3 as pretrained: its two pretraining heads stay in many fine-tuned checkpoints.
  edit_safetensors(folder / "model.safetensors", [](json& header, std::string& data) {
    add_tensor(header, data, "lm_predictions.lm_head.dense.weight", 32, 32);
    add_tensor(header, data, "lm_predictions.lm_head.bias", 1, 96);
    add_tensor(header, data, "mask_predictions.classifier.weight", 1, 32);
  });
  const CapturedLog log;
  const auto model = load_pretrained_model(folder);
  const std::string text = log.text();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  expect_contains(text, "[warning] " + folder.string() + ": 3 tensor(s) of the checkpoint are not part of the model "
                        "config.json describes and were ignored: lm_predictions.lm_head.bias, "
                        "lm_predictions.lm_head.dense.weight, mask_predictions.classifier.weight");
  expect_same_as_fixture(model, "deberta-v3-classifier");
}

TEST(PretrainedLoading, PoolersFollowTheReferenceModelOfTheHead) {
  // RoBERTa's classifier has no base-model pooler: a stored one is unused, and said so.
  const testing::TempFolder temp;
  const auto roberta = copy_checkpoint(temp, "roberta-classifier-bf16");
  edit_safetensors(roberta / "model.safetensors", [](json& header, std::string& data) {
    const std::size_t begin = data.size();
    data.append(32 * 2, '\0');
    header["roberta.pooler.dense.bias"] = {{"dtype", "BF16"}, {"shape", {32}}, {"data_offsets", {begin, data.size()}}};
  });
  {
    const CapturedLog log;
    (void)load_pretrained_model(roberta);
    expect_contains(log.text(), "1 tensor(s) of the checkpoint are not part of the model config.json describes and "
                                "were ignored: roberta.pooler.dense.bias");
  }
  // BERT's bare model holds one, unused by sentence embeddings: silent (the fixture stores it).
  const CapturedLog log;
  (void)load_pretrained_model(testing::fixture_checkpoint("bert-embedding-sharded"));
  EXPECT_EQ(log.text(), "");
}

TEST(PretrainedLoading, BasePrefixFollowsTheReferenceRule) {
  const testing::TempFolder temp;
  // A classifier whose base model is stored bare: the reference would load no head from it.
  const auto bare = copy_checkpoint(temp, "deberta-v3-classifier");
  edit_safetensors(bare / "model.safetensors", [](json& header, std::string&) {
    header = renamed_keys(header, [](const std::string& name) { return name.rfind("deberta.", 0) == 0 ? name.substr(8) : name; });
  });
  expect_contains(load_error(bare), "no tensor name starts with 'deberta', so the file holds a bare base model, not the "
                                    "sequence classifier config.json describes");
  // An embedding model stored under the prefix (saved from a model with a head) is the same
  // model, loaded silently.
  const auto prefixed = copy_checkpoint(temp, "bert-embedding-sharded");
  const auto add_prefix = [](const std::string& name) { return "bert." + name; };
  for (const auto* shard : {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}) {
    edit_safetensors(prefixed / shard, [&](json& header, std::string&) { header = renamed_keys(header, add_prefix); });
  }
  auto index = json::parse(io::read_file(prefixed / "model.safetensors.index.json"));
  index["weight_map"] = renamed_keys(index["weight_map"], add_prefix);
  temp.write("bert-embedding-sharded/model.safetensors.index.json", index.dump());
  const CapturedLog log;
  const auto model = load_pretrained_model(prefixed);
  EXPECT_EQ(log.text(), "");
  expect_same_as_fixture(model, "bert-embedding-sharded");
}

TEST(PretrainedLoading, SafetensorsLayoutMustBeExact) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  const auto weights = folder / "model.safetensors";
  const std::string original = io::read_file(weights);
  // Two tensors over the same bytes: classifier.bias moved onto the start of the pooler's bias.
  edit_safetensors(weights, [&](json& header, std::string&) {
    const auto begin = header["bert.pooler.dense.bias"]["data_offsets"][0].get<std::size_t>();
    header["classifier.bias"]["data_offsets"] = {begin, begin + 3 * sizeof(float)};
  });
  expect_contains(load_error(folder), "overlaps the data of another tensor");

  // Bytes no tensor holds, at the end and in the middle.
  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json&, std::string& data) { data.append(8, '\0'); });
  expect_contains(load_error(folder), weights.string() + ": the tensors cover");
  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string&) { header.erase("bert.pooler.dense.bias"); });
  expect_contains(load_error(folder), "leaves data bytes before it that no tensor holds");

  // A tensor named twice in the header (a JSON parser would keep one of them silently).
  temp.write("bert-classifier/model.safetensors", original);
  std::string bytes = io::read_file(weights);
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data(), sizeof length);
  std::string header_text = bytes.substr(8, length);
  const auto entry_begin = header_text.find("\"classifier.bias\"");
  const auto entry_end = header_text.find('}', entry_begin) + 1;
  header_text.insert(1, header_text.substr(entry_begin, entry_end - entry_begin) + ",");
  const std::uint64_t new_length = header_text.size();
  std::string rewritten(reinterpret_cast<const char*>(&new_length), sizeof new_length);
  temp.write("bert-classifier/model.safetensors", rewritten + header_text + bytes.substr(8 + length));
  expect_contains(load_error(folder), weights.string() + ": safetensors header gives key 'classifier.bias' twice");
}


// The rows of a table taken from `folder` beside the matrix take() gives of the same tensor; the
// table is read after the tensors it came from are gone (it keeps their file mapped).
void expect_table_rows_of_take(const fs::path& folder, const std::string& name, bool in_place) {
  WeightTable table;
  nn::Matrix<float> copy;
  {
    CheckpointTensors tensors(folder);
    table = tensors.take_table(name, 104, 32);
    CheckpointTensors again(folder);
    copy = again.take(name, 104, 32);
  }
  EXPECT_EQ(table.in_place(), in_place);
  ASSERT_EQ(table.rows(), 104);
  ASSERT_EQ(table.cols(), 32);
  for (Eigen::Index r = 0; r < table.rows(); ++r) EXPECT_TRUE(table.row(r) == copy.row(r)) << "row " << r;
}

TEST(PretrainedLoading, WordEmbeddingsAreReadInPlaceOnlyWhenStoredAsAlignedFloat32) {
  const testing::TempFolder temp;
  const std::string name = "bert.embeddings.word_embeddings.weight";
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  expect_table_rows_of_take(folder, name, true);
  // A header whose length moves the data off a 4-byte boundary: the table is copied, not mapped.
  edit_safetensors(folder / "model.safetensors", [](json& header, std::string&) {
    for (std::size_t pad = 1; pad <= 4; ++pad) {
      header["__metadata__"] = {{"pad", std::string(pad, 'x')}};
      if ((8 + header.dump().size()) % alignof(float) != 0) return;
    }
  });
  expect_table_rows_of_take(folder, name, false);
  // Half precision is converted.
  expect_table_rows_of_take(copy_checkpoint(temp, "bert-reranker-f16"), name, false);
}

TEST(PretrainedLoading, AWordEmbeddingReadInPlaceIsCheckedForNaNAndInfinity) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  edit_safetensors(folder / "model.safetensors", [](json& header, std::string& data) {
    const auto begin = header["bert.embeddings.word_embeddings.weight"]["data_offsets"][0].get<std::size_t>();
    const float infinity = -std::numeric_limits<float>::infinity();
    std::memcpy(data.data() + begin + 70 * sizeof(float), &infinity, sizeof infinity);
  });
  const auto message = load_error(folder);
  expect_contains(message, (folder / "model.safetensors").string());
  expect_contains(message, "'bert.embeddings.word_embeddings.weight' holds -inf at index 70");
}

}  // namespace
}  // namespace claimrag::pretrained
