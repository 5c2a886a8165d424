// T5 (MiniCheck-Flan-T5-Large's family) against the reference: random checkpoints with
// google/flan-t5-large's published configuration (gated-gelu, untied) and t5-small's (relu, tied
// embeddings, three labels), sizes shrunk, and a tiny SentencePiece model in T5's layout, whose
// expected outputs scripts/fixtures/t5_fixtures.py computed in PyTorch from the reference
// library's definitions. claimrag's tokenizer of the folder must give the reference
// tokenizer's ids for MiniCheck's inputs ("predict: " + chunk + "</s>" + claim), and the model run
// on them the reference's label-token logits, their softmax and every encoder state.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>

#include "checkpoint_editing.hpp"
#include "claimrag/pretrained/predict.hpp"
#include "claimrag/pretrained/relative_position.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

using testing::error_of;
using testing::expect_contains;

constexpr float kT5Tolerance = 1e-5F;
const std::string kT5Fixture = "real-flan-t5-large";

LoadOptions minicheck_options(Precision precision = Precision::f32) {
  LoadOptions options;
  options.precision = precision;
  options.label_tokens = {3, 209};
  return options;
}

nlohmann::json t5_expected(const std::string& name = kT5Fixture) {
  return nlohmann::json::parse(io::read_file(testing::pretrained_fixtures() / "expected" / (name + ".json")));
}

// The fixture's own label tokens (MiniCheck's 3 and 209 for the Flan-T5 one).
LoadOptions fixture_options(const std::string& name, Precision precision = Precision::f32) {
  LoadOptions options;
  options.precision = precision;
  options.label_tokens = t5_expected(name).at("label_tokens").get<std::vector<std::int32_t>>();
  return options;
}

// Each case tokenized by claimrag's tokenizer of the fixture folder, every id checked.
std::vector<TokenSequence> tokenize_t5_cases(const testing::ExpectedFixture& fixture) {
  const auto tokenizer = tokenizer::load_tokenizer(fixture.tokenizer_folder, fixture.model_type);
  std::vector<TokenSequence> sequences;
  for (const auto& c : fixture.cases) {
    auto encoding = tokenizer->encode(c.text, std::nullopt, c.max_length);
    EXPECT_EQ(encoding.input_ids, c.sequence.input_ids) << c.text;
    EXPECT_EQ(encoding.token_type_ids, c.sequence.token_type_ids) << c.text;
    EXPECT_EQ(encoding.truncated_tokens, c.truncated_tokens) << c.text;
    sequences.push_back({std::move(encoding.input_ids), std::move(encoding.token_type_ids)});
  }
  return sequences;
}

class T5Parity : public ::testing::TestWithParam<std::string> {};

TEST_P(T5Parity, IdsLabelLogitsProbabilitiesAndEncoderStatesMatchTheReference) {
  const std::string name = GetParam();
  const auto fixture = testing::expected_fixture(name);
  const auto expected = t5_expected(name);
  const auto model = load_pretrained_model(testing::fixture_checkpoint(name), fixture_options(name));
  EXPECT_EQ(model.head(), HeadKind::classification);
  EXPECT_EQ(model.config().labels, expected.at("labels").get<std::vector<std::string>>());
  const std::size_t labels = model.config().labels.size();
  const auto sequences = tokenize_t5_cases(fixture);
  ASSERT_GE(sequences.size(), 7U);
  const auto predictions = model.predict(sequences, RunOptions{3, true});
  float worst_logits = 0.0F;
  float worst_probabilities = 0.0F;
  float worst_states = 0.0F;
  std::size_t layers_checked = 0;
  for (std::size_t i = 0; i < fixture.cases.size(); ++i) {
    const auto& c = fixture.cases[i];
    ASSERT_EQ(predictions[i].values.size(), labels);
    const float logits = testing::max_abs_difference(predictions[i].values.data(), c.values);
    EXPECT_LE(logits, kT5Tolerance) << "case " << i;
    worst_logits = std::max(worst_logits, logits);
    const std::vector<double> softmaxed = softmax(predictions[i].values);
    const auto reference = expected.at("cases")[i].at("probabilities").get<std::vector<double>>();
    for (std::size_t k = 0; k < labels; ++k) {
      const auto difference = static_cast<float>(std::abs(softmaxed[k] - reference[k]));
      EXPECT_LE(difference, kT5Tolerance) << "case " << i;
      worst_probabilities = std::max(worst_probabilities, difference);
    }
    if (c.hidden_states.empty()) continue;
    ASSERT_EQ(predictions[i].hidden_states.size(), c.hidden_states.size()) << "case " << i;
    for (std::size_t l = 0; l < c.hidden_states.size(); ++l) {
      const auto& state = predictions[i].hidden_states[l];
      ASSERT_EQ(static_cast<std::size_t>(state.size()), c.hidden_states[l].size()) << "case " << i << " layer " << l;
      const float states = testing::max_abs_difference(state.data(), c.hidden_states[l]);
      EXPECT_LE(states, kT5Tolerance) << "case " << i << " layer " << l;
      worst_states = std::max(worst_states, states);
      ++layers_checked;
    }
  }
  EXPECT_GE(layers_checked, 6U);
  std::printf("[ parity ] %s: max |diff| label logits %.3g, probabilities %.3g, encoder states %.3g\n", name.c_str(),
              worst_logits, worst_probabilities, worst_states);
}

TEST_P(T5Parity, SameBytesForAnyThreadCountAndBatchSize) {
  const std::string name = GetParam();
  const auto fixture = testing::expected_fixture(name);
  const auto sequences = tokenize_t5_cases(fixture);
  for (const Precision precision : {Precision::f32, Precision::int8}) {
    const auto model = load_pretrained_model(testing::fixture_checkpoint(name), fixture_options(name, precision));
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const auto one = model.predict(sequences, RunOptions{1, false});
    omp_set_num_threads(2);
    const auto two = model.predict(sequences, RunOptions{5, false});
    const auto all = model.predict(sequences, RunOptions{64, false});
    omp_set_num_threads(threads);
    for (std::size_t i = 0; i < one.size(); ++i) {
      const std::size_t bytes = one[i].values.size() * sizeof(float);
      ASSERT_EQ(one[i].values.size(), fixture.cases[i].values.size());
      EXPECT_EQ(std::memcmp(one[i].values.data(), two[i].values.data(), bytes), 0) << "case " << i;
      EXPECT_EQ(std::memcmp(one[i].values.data(), all[i].values.data(), bytes), 0) << "case " << i;
    }
  }
}

TEST_P(T5Parity, Int8StaysCloseToTheReference) {
  const std::string name = GetParam();
  const auto fixture = testing::expected_fixture(name);
  const auto model = load_pretrained_model(testing::fixture_checkpoint(name), fixture_options(name, Precision::int8));
  EXPECT_NE(model.description().find("int8"), std::string::npos) << model.description();
  const auto predictions = model.predict(tokenize_t5_cases(fixture), RunOptions{});
  for (std::size_t i = 0; i < fixture.cases.size(); ++i) {
    EXPECT_LE(testing::max_abs_difference(predictions[i].values.data(), fixture.cases[i].values), 0.1F) << "case " << i;
  }
}

// Flan-T5's gated-gelu feed-forward with untied lm_head (MiniCheck's tokens), and T5 v1.0's relu
// one with tied embeddings (the decoder's output rescaled before the shared table) and id2label.
INSTANTIATE_TEST_SUITE_P(Pretrained, T5Parity, ::testing::Values("real-flan-t5-large", "t5-small-tied"),
                         testing::fixture_test_name);

TEST(T5Buckets, RelativeBucketsAreTheReferenceFormulas) {
  const auto buckets = t5_expected().at("relative_buckets");
  const auto num_buckets = buckets.at("num_buckets").get<std::int64_t>();
  const auto max_distance = buckets.at("max_distance").get<std::int64_t>();
  const auto first = buckets.at("first_distance").get<std::int64_t>();
  for (const bool bidirectional : {true, false}) {
    const auto table = buckets.at(bidirectional ? "bidirectional" : "unidirectional").get<std::vector<std::int64_t>>();
    ASSERT_EQ(table.size(), 1201U);
    for (std::size_t k = 0; k < table.size(); ++k) {
      const std::int64_t distance = first + static_cast<std::int64_t>(k);
      EXPECT_EQ(t5_relative_bucket(distance, bidirectional, num_buckets, max_distance), table[k])
          << "distance " << distance << (bidirectional ? " (encoder)" : " (decoder)");
    }
  }
}

TEST(T5TextModel, MiniCheckTextGivesTheReferenceLogitsAndNamesItsLabelTokens) {
  const auto fixture = testing::expected_fixture(kT5Fixture);
  const TextModel model(testing::fixture_checkpoint(kT5Fixture), minicheck_options());
  std::vector<TextInput> inputs;
  for (const auto& c : fixture.cases) inputs.push_back({c.text, std::nullopt});
  const TextOutputs outputs = model.run(inputs, 0, 4, "cases");
  for (std::size_t i = 0; i < fixture.cases.size(); ++i) {
    if (fixture.cases[i].max_length != 0) continue;  // run() cuts at the folder's own length instead
    EXPECT_LE(testing::max_abs_difference(outputs.values[i].data(), fixture.cases[i].values), kT5Tolerance) << "case " << i;
  }
  const std::string described = model.record().at("model").get<std::string>();
  expect_contains(described, "t5, 2 + 2 layers");
  expect_contains(described, "label tokens (3, 209)");
  expect_contains(model.record().at("tokenizer").get<std::string>(), "spiece.model: SentencePiece (T5), 332 tokens");
}

// The same folder with T5's tokenizer.json beside spiece.model (read first, as AutoTokenizer reads
// it: WhitespaceSplit then Metaspace) gives the same ids on MiniCheck's texts.
TEST(T5TextModel, TokenizerJsonGivesTheSameIdsOnMiniCheckTexts) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  std::filesystem::copy_file(testing::pretrained_fixtures() / "tokenizers/t5-tokenizer-json/tokenizer.json", folder / "tokenizer.json");
  const TextModel model(folder, minicheck_options());
  EXPECT_EQ(model.tokenizer().description().rfind("tokenizer.json: Unigram", 0), 0U) << model.tokenizer().description();
  for (const auto& c : testing::expected_fixture(kT5Fixture).cases) {
    EXPECT_EQ(model.tokenizer().encode(c.text, std::nullopt, c.max_length).input_ids, c.sequence.input_ids) << c.text;
  }
}

TEST(T5Predict, LabelTokensAreRequiredAndGiveLogitsAndProbabilities) {
  const testing::TempFolder temp;
  const auto fixture = testing::expected_fixture(kT5Fixture);
  const auto pairs = temp.path() / "pairs.jsonl";
  io::write_file_atomically(pairs, nlohmann::json({{"id", "a"}, {"text", fixture.cases[0].text}}).dump() + "\n");
  PredictOptions options;
  options.checkpoint = testing::fixture_checkpoint(kT5Fixture);
  options.pairs = pairs;
  options.out = temp.path() / "out.jsonl";
  expect_contains(error_of<UsageError>([&] { (void)run_predict(options); }), "none were given");
  EXPECT_FALSE(std::filesystem::exists(options.out));
  options.label_tokens = {3, 209};
  (void)run_predict(options);
  const auto line = nlohmann::json::parse(io::read_file(options.out));
  EXPECT_EQ(line.at("input_ids").get<std::vector<std::int32_t>>(), fixture.cases[0].sequence.input_ids);
  EXPECT_LE(testing::max_abs_difference(line.at("logits").get<std::vector<float>>().data(), fixture.cases[0].values), kT5Tolerance);
  EXPECT_TRUE(line.at("probabilities").contains("LABEL_1"));
  EXPECT_EQ(line.at("label").get<std::string>(), "LABEL_1");
}

TEST(T5Loading, LabelTokensMustFitTheFolder) {
  const auto folder = testing::fixture_checkpoint(kT5Fixture);
  const auto load = [&](std::vector<std::int32_t> tokens) {
    LoadOptions options;
    options.label_tokens = std::move(tokens);
    return error_of<UsageError>([&] { (void)load_pretrained_model(folder, options); });
  };
  expect_contains(load({}), "none were given");
  expect_contains(load({3, 332}), "label token 332 is not a token id of the vocabulary (0 to 331)");
  expect_contains(load({3, -1}), "label token -1");
  expect_contains(load({3, 209, 5}), "3 label tokens for the 2 labels");
  expect_contains(error_of<UsageError>([&] {
                    (void)load_pretrained_model(testing::fixture_checkpoint("bert-classifier"), minicheck_options());
                  }),
                  "label tokens apply to T5 checkpoints");
}

// A copy of the fixture with its config.json edited, loaded with MiniCheck's label tokens.
std::string t5_config_error(const std::function<void(nlohmann::json&)>& edit) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  auto config = nlohmann::json::parse(io::read_file(folder / "config.json"));
  edit(config);
  io::write_file_atomically(folder / "config.json", config.dump());
  return error_of<DataError>([&] { (void)load_pretrained_model(folder, minicheck_options()); });
}

TEST(T5Loading, BadConfigurationsAreRefusedByName) {
  expect_contains(t5_config_error([](nlohmann::json& c) { c["relative_attention_num_buckets"] = 0; }),
                  "\"relative_attention_num_buckets\" must be positive");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["relative_attention_num_buckets"] = 2; }), "no log-spaced buckets");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["feed_forward_proj"] = "gated-swoosh"; c.erase("dense_act_fn"); }),
                  "unknown feed_forward_proj 'gated-swoosh'");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["feed_forward_proj"] = "double-gelu"; }),
                  "unknown feed_forward_proj 'double-gelu'");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["architectures"] = {"T5EncoderModel"}; }),
                  "T5ForConditionalGeneration");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["is_encoder_decoder"] = false; }), "is_encoder_decoder is false");
  expect_contains(t5_config_error([](nlohmann::json& c) { c["decoder_start_token_id"] = 332; }),
                  "\"decoder_start_token_id\" 332 is not a token id");
  // Sizes that disagree with the weights: the tensor is named with its file.
  expect_contains(t5_config_error([](nlohmann::json& c) { c["d_ff"] = 40; }), "has shape [48, 32], expected [40, 32]");
}

TEST(T5Tokenizer, LegacyFalseIsRefusedAndExtraIdsSetTheSentinels) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  auto settings = nlohmann::json::parse(io::read_file(folder / "tokenizer_config.json"));
  settings["extra_ids"] = 3;
  io::write_file_atomically(folder / "tokenizer_config.json", settings.dump());
  const auto tokenizer = tokenizer::load_tokenizer(folder, "t5");
  EXPECT_EQ(tokenizer->vocabulary_size(), 232U + 3U);
  // <extra_id_0> is the highest id; <extra_id_3> is no sentinel of this folder, so plain text.
  EXPECT_EQ(tokenizer->encode("<extra_id_0>", std::nullopt, 0).input_ids, (std::vector<std::int32_t>{234, 1}));
  EXPECT_EQ(tokenizer->encode("<extra_id_2>", std::nullopt, 0).input_ids, (std::vector<std::int32_t>{232, 1}));
  EXPECT_GT(tokenizer->encode("<extra_id_3>", std::nullopt, 0).input_ids.size(), 2U);
  settings["legacy"] = false;
  io::write_file_atomically(folder / "tokenizer_config.json", settings.dump());
  expect_contains(error_of<DataError>([&] { (void)tokenizer::load_tokenizer(folder, "t5"); }), "\"legacy\": false");
}

// A copy of the fixture whose model.safetensors `edit` rewrites, loaded with MiniCheck's label tokens.
std::string t5_weights_error(const std::function<void(nlohmann::json&, std::string&)>& edit) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  testing::edit_safetensors(folder / "model.safetensors", edit);
  return error_of<DataError>([&] { (void)load_pretrained_model(folder, minicheck_options()); });
}

// Appends a copy of tensor `from` named `to` at the end of the data, its last byte changed when asked.
void append_copy(nlohmann::json& header, std::string& data, const std::string& from, const std::string& to, bool altered) {
  auto entry = header.at(from);
  const auto begin = entry.at("data_offsets")[0].get<std::size_t>();
  const auto end = entry.at("data_offsets")[1].get<std::size_t>();
  std::string bytes = data.substr(begin, end - begin);
  if (altered) bytes[bytes.size() - 2] = static_cast<char>(bytes[bytes.size() - 2] ^ 0x01);
  entry["data_offsets"] = {data.size(), data.size() + bytes.size()};
  header[to] = entry;
  data += bytes;
}

TEST(T5Loading, MissingMisshapenAndDifferingTensorsAreNamed) {
  const std::string missing = t5_weights_error([](nlohmann::json& header, std::string&) {
    header["lm_head.weight.renamed"] = header.at("lm_head.weight");
    header.erase("lm_head.weight");
  });
  expect_contains(missing, "lm_head.weight");
  expect_contains(missing, "model.safetensors");
  const std::string misshapen = t5_weights_error([](nlohmann::json& header, std::string&) {
    header["decoder.block.1.layer.2.DenseReluDense.wo.weight"]["shape"] = {48, 32};
  });
  expect_contains(misshapen, "tensor 'decoder.block.1.layer.2.DenseReluDense.wo.weight' has shape");
  const std::string differing = t5_weights_error([](nlohmann::json& header, std::string& data) {
    append_copy(header, data, "shared.weight", "encoder.embed_tokens.weight", true);
  });
  expect_contains(differing, "'encoder.embed_tokens.weight' differs from 'shared.weight'");
}

TEST(T5Loading, StoredCopiesOfTheSharedEmbeddingsAreAccepted) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  testing::edit_safetensors(folder / "model.safetensors", [](nlohmann::json& header, std::string& data) {
    append_copy(header, data, "shared.weight", "encoder.embed_tokens.weight", false);
    append_copy(header, data, "shared.weight", "decoder.embed_tokens.weight", false);
  });
  const auto fixture = testing::expected_fixture(kT5Fixture);
  const auto model = load_pretrained_model(folder, minicheck_options());
  const auto predictions = model.predict({fixture.cases[0].sequence}, RunOptions{});
  EXPECT_LE(testing::max_abs_difference(predictions[0].values.data(), fixture.cases[0].values), kT5Tolerance);
}

// pytorch_model.bin as torch.save writes T5ForConditionalGeneration's state dict: shared.weight and
// the stacks' embed_tokens as three names over one storage, transposed views
// (scripts/fixtures/pytorch_bin_fixtures.py).
TEST(T5Loading, PytorchModelBinWithTiedNamesGivesTheSameOutputs) {
  const testing::TempFolder temp;
  const auto folder = testing::copy_checkpoint(temp, kT5Fixture);
  std::filesystem::remove(folder / "model.safetensors");
  std::filesystem::copy_file(testing::pretrained_fixtures() / "torch" / kT5Fixture / "pytorch_model.bin", folder / "pytorch_model.bin");
  const auto fixture = testing::expected_fixture(kT5Fixture);
  const auto model = load_pretrained_model(folder, minicheck_options());
  std::vector<TokenSequence> sequences;
  for (const auto& c : fixture.cases) sequences.push_back(c.sequence);
  const auto predictions = model.predict(sequences, RunOptions{});
  for (std::size_t i = 0; i < fixture.cases.size(); ++i) {
    EXPECT_LE(testing::max_abs_difference(predictions[i].values.data(), fixture.cases[i].values), kT5Tolerance) << "case " << i;
  }
}

}  // namespace
}  // namespace claimrag::pretrained
