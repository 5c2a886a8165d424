// The files of a model folder are inputs like any other: every command that runs a model folder
// refuses an output that is one of its files (weights, shards, config, tokenizer and pooling files)
// with exit 2 and replaces nothing; a model file that is a FIFO, a device, a loop of links or too
// large, and a configuration or weights that break the model, are refused naming the file or
// folder (exit 3), with no temporary left behind.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

namespace {

const fs::path kModelFolders = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/models";
using claimrag::testing::kTiny;

// A copy of a fixture model folder, so that a failure of the rule cannot damage the fixture.
fs::path copy_model(const std::string& name, const TempFolder& folder) {
  const fs::path copy = folder.path() / name;
  fs::copy(kModelFolders / name, copy, fs::copy_options::recursive);
  return copy;
}

// Every file under `root`, by relative path, with its bytes.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), root).string()] = slurp(entry.path());
  }
  return files;
}

std::string write_inputs(const TempFolder& folder) {
  folder.write("pairs.jsonl", R"({"id": "p1", "text": "the drug reduces risk", "text_pair": "the drug lowers risk"})"
                              "\n");
  folder.write("vpairs.jsonl", R"({"id": "p1", "claim": "the drug reduces risk", "evidence": "the drug reduces risk of cancer"})"
                               "\n");
  folder.write("examples.jsonl", R"({"id": "e1", "claim": "the drug reduces risk", "evidence": ["the drug reduces risk of cancer"]})"
                                 "\n");
  folder.write("probes.json", R"({"probes": [{"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"}]})");
  return folder.path().string();
}

// Runs `arguments` with {out} replaced by `out`, and checks the refusal: exit 2, the message
// naming the input, and not one byte of the model folder changed.
void expect_refused(const std::string& arguments, const fs::path& out, const fs::path& model, const TempFolder& folder) {
  const auto before = snapshot(model);
  std::string command = arguments;
  command.replace(command.find("{out}"), 5, out.string());
  const auto outcome = run_claimrag(command, folder.path());
  EXPECT_EQ(outcome.exit_code, 2) << command << "\n" << outcome.err;
  EXPECT_NE(outcome.err.find("refusing to overwrite an input"), std::string::npos) << command << "\n" << outcome.err;
  EXPECT_EQ(snapshot(model), before) << command;
}

TEST(CliModelFolderInputs, PredictAndEveryVerifyingCommandRefuseToWriteOverACheckpointFile) {
  TempFolder folder;
  const std::string in = write_inputs(folder);
  const fs::path model = copy_model("bert-classifier", folder);
  const std::string spec = " --verifier checkpoint:" + model.string();
  const std::vector<std::string> commands = {
      "predict --checkpoint " + model.string() + " --pairs " + in + "/pairs.jsonl --out {out}",
      "verify --pairs " + in + "/vpairs.jsonl --out {out}" + spec,
      "ground --data " + kTiny + " --answers data/fixtures/grounding/answers.jsonl --out {out}" + spec,
      "sufficiency --examples " + in + "/examples.jsonl --aggregator data/fixtures/sufficiency/aggregator.json --out {out}" + spec,
      "interrogate --pairs " + in + "/vpairs.jsonl --probes " + in + "/probes.json --samples 1 --responder builtin --out {out}" + spec,
  };
  for (const std::string file : {"model.safetensors", "config.json", "vocab.txt", "tokenizer_config.json"}) {
    for (const auto& command : commands) expect_refused(command, model / file, model, folder);
  }
  // Through a symbolic link to the file, and a path spelt another way.
  fs::create_symlink(model / "config.json", folder.path() / "link.json");
  expect_refused(commands[0], folder.path() / "link.json", model, folder);
  expect_refused(commands[1], model / ".." / model.filename() / "vocab.txt", model, folder);
}

TEST(CliModelFolderInputs, EncodersAndCrossEncodersRefuseToWriteOverTheirShardsAndPoolingFiles) {
  TempFolder folder;
  const std::string in = write_inputs(folder);
  const fs::path encoder = copy_model("bert-embedding-sharded", folder);
  const fs::path reranker = copy_model("bert-reranker-f16", folder);
  std::vector<fs::path> encoder_files;
  for (const auto& entry : fs::recursive_directory_iterator(encoder)) {
    if (entry.is_regular_file()) encoder_files.push_back(entry.path());
  }
  ASSERT_GE(encoder_files.size(), 7U);  // config, index, two shards, modules.json, pooling config, tokenizer files
  for (const auto& file : encoder_files) {
    expect_refused("predict --checkpoint " + encoder.string() + " --pairs " + in + "/pairs.jsonl --out {out}", file, encoder, folder);
  }
  // index writes a folder: the model's own folder is refused as one.
  expect_refused("index --data " + kTiny + " --method dense --encoder " + encoder.string() + " --out {out}", encoder, encoder, folder);
  const auto run = folder.write("bm25.trec", "q1 Q0 d6 1 3.0 bm25\nq1 Q0 d1 2 2.0 bm25\n");
  for (const std::string file : {"model.safetensors", "config.json", "vocab.txt"}) {
    expect_refused("rerank --data " + kTiny + " --run " + run.string() + " --cross-encoder " + reranker.string() + " --out {out}",
                   reranker / file, reranker, folder);
  }
  // retrieve reads the encoder its index recorded, whether or not --encoder names it.
  const auto index = folder.path() / "index";
  const auto built = run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder " + encoder.string() + " --out " +
                                      index.string(),
                                  folder.path());
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const std::string retrieve = "retrieve --data " + kTiny + " --index " + index.string() + " --method dense --split test --k 3 --out {out}";
  expect_refused(retrieve + " --encoder " + encoder.string(), encoder / "config.json", encoder, folder);
  expect_refused(retrieve, encoder / "vocab.txt", encoder, folder);
}

// Runs predict on `model` and expects exit 3 with every fragment in the message, and no
// temporary beside the output.
void expect_model_refused(const fs::path& model, const std::vector<std::string>& fragments, const TempFolder& folder) {
  const std::string in = write_inputs(folder);
  const auto out = folder.path() / "out" / "predictions.jsonl";
  const auto outcome =
      run_claimrag("--quiet predict --checkpoint " + model.string() + " --pairs " + in + "/pairs.jsonl --out " + out.string(), folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  for (const auto& fragment : fragments) EXPECT_NE(outcome.err.find(fragment), std::string::npos) << fragment << "\n" << outcome.err;
  EXPECT_FALSE(fs::exists(out));
  if (fs::exists(out.parent_path())) {
    EXPECT_TRUE(fs::is_empty(out.parent_path())) << "a temporary was left behind";
  }
}

TEST(CliModelFolderInputs, SpecialFilesLoopsAndOversizedFilesAreRefusedByName) {
  TempFolder folder;
  const fs::path model = copy_model("bert-classifier", folder);
  fs::remove(model / "config.json");
  ASSERT_EQ(::mkfifo((model / "config.json").c_str(), 0600), 0);
  expect_model_refused(model, {"config.json", "FIFO"}, folder);
  fs::remove(model / "config.json");
  fs::create_symlink("/dev/zero", model / "config.json");
  expect_model_refused(model, {"config.json", "device"}, folder);
  fs::remove(model / "config.json");
  fs::copy_file(kModelFolders / "bert-classifier" / "config.json", model / "config.json");
  fs::remove(model / "vocab.txt");
  fs::create_symlink("vocab.txt", model / "vocab.txt");
  expect_model_refused(model, {"vocab.txt", "too many levels of symbolic links"}, folder);
  fs::remove(model / "vocab.txt");
  // Sparse files: their size is what counts.
  folder.write("bert-classifier/vocab.txt", "[PAD]\n");
  fs::resize_file(model / "vocab.txt", (std::uintmax_t{256} << 20) + 1);
  expect_model_refused(model, {"vocab.txt", "256 MiB"}, folder);
  fs::copy_file(kModelFolders / "bert-classifier" / "vocab.txt", model / "vocab.txt", fs::copy_options::overwrite_existing);
  folder.write("bert-classifier/tokenizer_config.json", "{}");
  fs::resize_file(model / "tokenizer_config.json", (std::uintmax_t{16} << 20) + 1);
  expect_model_refused(model, {"tokenizer_config.json", "16 MiB"}, folder);
}

// The fixture's config.json with `changes` applied.
void edit_config(const fs::path& model, const json& changes) {
  json config = json::parse(slurp(model / "config.json"));
  config.merge_patch(changes);
  std::ofstream(model / "config.json") << config.dump(2);
}

TEST(CliModelFolderInputs, BadConfigurationValuesAreRefusedNamingConfigJson) {
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"pad_token_id", -2}}, "pad_token_id"},
      {{{"pad_token_id", 1000000}}, "pad_token_id"},
      {{{"max_position_embeddings", 1000000000}}, "max_position_embeddings"},
      {{{"max_position_embeddings", 1000000000000000000}}, "max_position_embeddings"},
      {{{"layer_norm_eps", -1}}, "layer_norm_eps"},
      {{{"layer_norm_eps", 0}}, "layer_norm_eps"},
      {{{"layer_norm_eps", 1e-50}}, "layer_norm_eps"},
      {{{"hidden_size", 100000000}}, "hidden_size"},
      {{{"id2label", {{"0", "entailment"}, {"1", "entailment"}}}}, "names label 'entailment' twice"},
  };
  for (const std::string name : {"roberta-classifier-bf16", "deberta-v3-classifier"}) {
    for (const auto& [changes, fragment] : cases) {
      TempFolder folder;
      const fs::path model = copy_model(name, folder);
      edit_config(model, changes);
      SCOPED_TRACE(name + " " + changes.dump());
      expect_model_refused(model, {(model / "config.json").string(), fragment}, folder);
      // verify takes the same refusal, never verdicts from outside the model's tables.
      const auto out = folder.path() / "verdicts.jsonl";
      const auto verified = run_claimrag("--quiet verify --pairs " + folder.path().string() + "/vpairs.jsonl --out " + out.string() +
                                             " --verifier checkpoint:" + model.string(),
                                         folder.path());
      EXPECT_EQ(verified.exit_code, 3) << verified.err;
      EXPECT_FALSE(fs::exists(out));
    }
  }
}

// Overwrites every value of an F32 tensor of a safetensors file with `value`.
void overwrite_tensor(const fs::path& file, const std::string& tensor, float value) {
  std::string bytes = slurp(file);
  std::uint64_t header_length = 0;
  std::memcpy(&header_length, bytes.data(), sizeof header_length);
  const json header = json::parse(bytes.substr(8, header_length));
  const auto& entry = header.at(tensor);
  ASSERT_EQ(entry.at("dtype"), "F32");
  const auto begin = 8 + header_length + entry.at("data_offsets")[0].get<std::size_t>();
  const auto end = 8 + header_length + entry.at("data_offsets")[1].get<std::size_t>();
  for (std::size_t at = begin; at < end; at += sizeof value) std::memcpy(bytes.data() + at, &value, sizeof value);
  std::ofstream(file, std::ios::binary) << bytes;
}

TEST(CliModelFolderInputs, NonFiniteOutputsAreBlamedOnTheModelFolder) {
  TempFolder folder;
  const fs::path model = copy_model("bert-classifier", folder);
  overwrite_tensor(model / "model.safetensors", "classifier.weight", 3e38F);
  expect_model_refused(model, {model.string(), "configuration or weights are broken"}, folder);
}

TEST(CliModelFolderInputs, DuplicateVocabularyTokensNameTheFileAndLine) {
  TempFolder folder;
  const fs::path model = copy_model("bert-classifier", folder);
  std::string vocabulary = slurp(model / "vocab.txt");
  const std::size_t second_line = vocabulary.find('\n') + 1;
  const std::string first = vocabulary.substr(0, second_line);  // the first token, repeated as line 2
  vocabulary.insert(second_line, first);
  std::ofstream(model / "vocab.txt", std::ios::binary) << vocabulary;
  expect_model_refused(model, {(model / "vocab.txt").string() + ":2:", "also on line 1"}, folder);
}

TEST(CliModelFolderInputs, DeeplyNestedJsonIsRefusedNamingTheFile) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string file : {"config.json", "tokenizer_config.json"}) {
    TempFolder folder;
    const fs::path model = copy_model("bert-classifier", folder);
    json config = json::parse(slurp(model / file));
    std::string text = config.dump();
    text.insert(text.size() - 1, ", \"nested\": " + deep);
    std::ofstream(model / file) << text;
    SCOPED_TRACE(file);
    expect_model_refused(model, {(model / file).string(), "nested deeper than 128"}, folder);
  }
  TempFolder folder;
  const fs::path encoder = copy_model("bert-embedding-sharded", folder);
  std::ofstream(encoder / "modules.json") << deep;
  expect_model_refused(encoder, {(encoder / "modules.json").string(), "nested deeper than 128"}, folder);
}

}  // namespace
