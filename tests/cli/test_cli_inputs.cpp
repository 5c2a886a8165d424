// The rules every input follows, in every subcommand that reads it (docs/inputs.md): an empty input
// is refused (exit 3), a key repeated in one JSON object is refused, a field that claimrag's own
// formats do not define is refused, a JSON Lines line is at most 16 MiB, and an error shows a
// value's newline escaped, on one line. Each JSON Lines reader of a claimrag format is run through
// the same cases; a good line of each is given, and the case is made from it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::TempFolder;

namespace {

const std::string kAggregator = "data/fixtures/sufficiency/aggregator.json";
const std::string kCheckpoint = "tests/fixtures/pretrained/models/bert-classifier";

/// One JSON Lines reader of a claimrag format: a good line of its input, and the command that
/// reads `input` and would write `out`. The other inputs of the command are good ones.
struct Reader {
  std::string name;
  std::string good_line;
  std::function<std::string(const fs::path& input, const fs::path& out)> command;
};

/// A folder with good inputs for every reader, and the readers.
struct Inputs {
  TempFolder folder;
  fs::path out = folder.path() / "out.jsonl";
  fs::path pairs = folder.write("pairs.jsonl", R"({"id": "p1", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk."})"
                                               "\n");
  fs::path examples = folder.write("examples.jsonl", R"({"id": "s1", "claim": "Aspirin increases bleeding.", "evidence": ["Aspirin raised it."]})"
                                                     "\n");
  fs::path scores = folder.write("scores.jsonl", R"({"id": "s1", "pairs": [[0.5, 0.25, 0.25]]})"
                                                 "\n");
  fs::path probes = folder.write("probes.json", R"({"probes": [
      {"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
      {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"}]})");
  fs::path recording = folder.write("rec.jsonl", R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "Yes"}
{"pair_id": "p1", "probe_id": "f", "sample": 0, "text": "No"}
)");

  [[nodiscard]] std::vector<Reader> readers() const {
    const auto o = [](const fs::path& out) { return " --out " + out.string(); };
    return {
        {"verify --pairs", R"({"id": "p1", "claim": "C.", "evidence": "E."})",
         [=](const fs::path& in, const fs::path& out) { return "verify --pairs " + in.string() + " --model absent.safetensors" + o(out); }},
        {"ground --answers", R"({"id": "a1", "answer": "A.", "context": [{"id": "n", "text": "T."}]})",
         [=](const fs::path& in, const fs::path& out) { return "ground --answers " + in.string() + " --model absent.safetensors" + o(out); }},
        {"sufficiency --examples", R"({"id": "s1", "claim": "C.", "evidence": ["E."]})",
         [=, this](const fs::path& in, const fs::path& out) {
           return "sufficiency --examples " + in.string() + " --scores " + scores.string() + " --aggregator " + kAggregator + o(out);
         }},
        {"sufficiency --scores", R"({"id": "s1", "pairs": [[0.5, 0.25, 0.25]]})",
         [=, this](const fs::path& in, const fs::path& out) {
           return "sufficiency --examples " + examples.string() + " --scores " + in.string() + " --aggregator " + kAggregator + o(out);
         }},
        {"interrogate --pairs", R"({"id": "p1", "claim": "C.", "evidence": "E."})",
         [=, this](const fs::path& in, const fs::path& out) {
           return "interrogate --pairs " + in.string() + " --probes " + probes.string() + " --responder recorded:" + recording.string() +
                  " --samples 1" + o(out);
         }},
        {"interrogate --responder recorded:", R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "Yes"})",
         [=, this](const fs::path& in, const fs::path& out) {
           return "interrogate --pairs " + pairs.string() + " --probes " + probes.string() + " --responder recorded:" + in.string() +
                  " --samples 1" + o(out);
         }},
        {"predict --pairs", R"({"id": "a", "text": "T."})",
         [=](const fs::path& in, const fs::path& out) { return "predict --checkpoint " + kCheckpoint + " --pairs " + in.string() + o(out); }},
    };
  }

  /// Runs `reader` on an input holding `contents`: exit 3, a message naming the input and holding
  /// `fragment`, and no output.
  void expect_refused(const Reader& reader, const std::string& contents, const std::string& fragment) const {
    const auto input = folder.write("input.jsonl", contents);
    const auto outcome = run_claimrag(reader.command(input, out), folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << reader.name << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(input.string()), std::string::npos) << reader.name << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(fragment), std::string::npos) << reader.name << ": no \"" << fragment << "\" in\n" << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << reader.name;
  }
};

}  // namespace

TEST(CliInputs, AnEmptyJsonLinesInputIsRefusedByEveryReader) {
  const Inputs inputs;
  for (const auto& reader : inputs.readers()) {
    inputs.expect_refused(reader, "", "holds no JSON object (an empty input is refused)");
    inputs.expect_refused(reader, "\n  \n", "holds no JSON object (an empty input is refused)");
  }
}

// The other formats (and predictions, read as JSON Lines by evaluate): "empty" in each message.
TEST(CliInputs, AnEmptyRunTableOrPredictionsFileIsRefusedByEveryReader) {
  const Inputs inputs;
  const auto empty = inputs.folder.write("empty", "");
  const auto run = inputs.folder.write("run.trec", "q1 Q0 d1 1 3 x\n");
  const std::string tiny = "data/fixtures/tiny-beir";
  const auto out = inputs.folder.path() / "out";
  const std::vector<std::string> commands = {
      "fuse --runs " + run.string() + " " + empty.string() + " --out " + out.string(),
      "evaluate --data " + tiny + " --split test --run " + empty.string() + " --out " + out.string(),
      "gate --data " + tiny + " --split test --run " + empty.string() + " --signal bm25_top1 --bm25-run " + run.string() +
          " --thresholds 1 --out " + out.string(),
      "gate --data " + tiny + " --split test --run " + run.string() + " --signal file --signal-file " + empty.string() +
          " --thresholds 1 --out " + out.string(),
      "compare-abstention --test " + empty.string() + " --out " + out.string(),
      "extract-evidence --data " + tiny + " --run " + empty.string() + " --out " + out.string(),
      "evaluate --verification " + empty.string() + " --original data/fixtures/tiny-scifact --split dev --out " + out.string(),
  };
  for (const auto& command : commands) {
    const auto outcome = run_claimrag(command, inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(empty.string()), std::string::npos) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("empty"), std::string::npos) << command << "\n" << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << command;
  }
  // SciFact's release files, read by sufficiency-bench: an empty dev claims file.
  inputs.folder.write("original/corpus.jsonl", R"({"doc_id": 10, "title": "t", "abstract": ["A."], "structured": false})"
                                               "\n");
  inputs.folder.write("original/claims_train.jsonl", R"({"id": 1, "claim": "C.", "evidence": {}, "cited_doc_ids": [10]})"
                                                     "\n");
  const auto dev = inputs.folder.write("original/claims_dev.jsonl", "");
  {
    const std::string command = "sufficiency-bench --original " + (inputs.folder.path() / "original").string() + " --out " + out.string();
    const auto outcome = run_claimrag(command, inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(dev.string()), std::string::npos) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("empty"), std::string::npos) << command << "\n" << outcome.err;
    EXPECT_FALSE(fs::exists(out)) << command;
  }
}

TEST(CliInputs, AFieldNoFormatDefinesIsRefusedByEveryReader) {
  const Inputs inputs;
  for (const auto& reader : inputs.readers()) {
    const std::string line = reader.good_line.substr(0, reader.good_line.size() - 1) + R"(, "note": 1})";
    inputs.expect_refused(reader, line + "\n", "unknown field \"note\" (expected ");
  }
}

TEST(CliInputs, AKeyRepeatedInOneObjectIsRefusedByEveryReader) {
  const Inputs inputs;
  for (const auto& reader : inputs.readers()) {
    const std::string& good = reader.good_line;
    const std::string first_field = good.substr(1, good.find(',') - 1);  // "id": "p1"
    const std::string key = first_field.substr(0, first_field.find(':'));
    inputs.expect_refused(reader, "{" + first_field + ", " + good.substr(1) + "\n", "the key " + key + " appears twice");
  }
}

TEST(CliInputs, ALineOverTheSharedLimitIsRefusedByEveryReader) {
  const Inputs inputs;
  // 16 MiB of text in one JSON string: the line is longer than the limit of every reader. Written
  // once; each reader refuses it by its first line.
  const auto input = inputs.folder.path() / "long.jsonl";
  {
    std::ofstream out(input, std::ios::binary);
    out << R"({"id": "p1", "claim": ")" << std::string(std::size_t{16} << 20, 'x') << "\"}\n";
  }
  for (const auto& reader : inputs.readers()) {
    const auto outcome = run_claimrag(reader.command(input, inputs.out), inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << reader.name << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(input.string() + ":1: line longer than 16 MiB (16777216 bytes)"), std::string::npos)
        << reader.name << "\n" << outcome.err;
    EXPECT_FALSE(fs::exists(inputs.out)) << reader.name;
  }
}

TEST(CliInputs, AnIdWithANewlineIsShownEscapedOnOneLine) {
  const Inputs inputs;
  for (const auto& reader : inputs.readers()) {
    // The first field of every good line is its id; "a\nb" is refused (an id is one word) or, where
    // any string is an id (predict), named when it appears twice.
    const std::string& good = reader.good_line;
    const auto colon = good.find(':');
    const std::string line = good.substr(0, colon) + R"(: "a\nb")" + good.substr(good.find(',', colon));
    const auto input = inputs.folder.write("input.jsonl", line + "\n" + line + "\n");
    const auto outcome = run_claimrag(reader.command(input, inputs.out), inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << reader.name << "\n" << outcome.err;
    const auto error = outcome.err.find("] error ");
    ASSERT_NE(error, std::string::npos) << reader.name << "\n" << outcome.err;
    const std::string error_line = outcome.err.substr(error, outcome.err.find('\n', error) - error);
    EXPECT_NE(error_line.find("a\\nb"), std::string::npos) << reader.name << "\n" << outcome.err;
    EXPECT_EQ(outcome.err.find("\nb"), std::string::npos) << reader.name << ": a raw newline in\n" << outcome.err;
  }
}

TEST(CliInputs, AModelOfAnotherKindIsNamedAsSuch) {
  const Inputs inputs;
  const std::string tiny = "data/fixtures/tiny-beir";
  const std::string folder = inputs.folder.path().string();
  ASSERT_EQ(run_claimrag("index --data " + tiny + " --method bm25 --out " + folder + "/index", inputs.folder.path()).exit_code, 0);
  ASSERT_EQ(run_claimrag("retrieve --data " + tiny + " --index " + folder + "/index --method bm25 --split test --out " + folder + "/run.trec",
                         inputs.folder.path())
                .exit_code,
            0);
  const std::string reranker = folder + "/reranker.safetensors";
  ASSERT_EQ(run_claimrag("rerank --data " + tiny + " --index " + folder + "/index --run " + folder + "/run.trec --train --model " + reranker +
                             " --out " + folder + "/reranked.trec",
                         inputs.folder.path())
                .exit_code,
            0);
  for (const std::string& command : {"verify --pairs " + inputs.pairs.string(),
                                    "sufficiency --examples " + inputs.examples.string() + " --aggregator " + kAggregator}) {
    const auto outcome = run_claimrag(command + " --model " + reranker + " --out " + inputs.out.string(), inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(reranker + ": is a reranker model, not a claim verifier: the wrong kind of model"), std::string::npos)
        << command << "\n" << outcome.err;
    EXPECT_FALSE(fs::exists(inputs.out));
  }
}

TEST(CliInputs, ANumberADoubleCannotHoldIsOutOfRangeNotNonFinite) {
  const Inputs inputs;
  const auto option = run_claimrag("interrogate --pairs " + inputs.pairs.string() + " --probes " + inputs.probes.string() +
                                       " --responder recorded:" + inputs.recording.string() + " --samples 1 --alpha 1e-400 --out " +
                                       inputs.out.string(),
                                   inputs.folder.path());
  EXPECT_EQ(option.exit_code, 2) << option.err;
  EXPECT_NE(option.err.find("--alpha: '1e-400' is out of range: must be a number in [0, 1]"), std::string::npos) << option.err;
  const auto run = inputs.folder.write("tiny.trec", "q1 Q0 d1 1 1e-400 x\n");
  const auto table = inputs.folder.write("table.tsv", "claim_id\tanswered\tunsafe\tgate\n1\t1\t0\t1e400\n2\t1\t1\t1\n");
  const std::string out = " --out " + inputs.out.string();
  for (const auto& [command, message] : std::vector<std::pair<std::string, std::string>>{
           {"fuse --runs " + run.string() + " " + run.string() + out, run.string() + ":1: score \"1e-400\" is out of range"},
           {"compare-abstention --test " + table.string() + out, table.string() + ":2: gate \"1e400\" is out of range"}}) {
    const auto outcome = run_claimrag(command, inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(message), std::string::npos) << command << "\n" << outcome.err;
  }
  EXPECT_FALSE(fs::exists(inputs.out));
}

TEST(CliInputs, AnInlinePassageIsNamedByItsPlaceInTheContext) {
  const Inputs inputs;
  const auto answers = inputs.folder.write("answers.jsonl", R"({"id": "a1", "answer": "A.", "context": [{"id": "n", "text": "T."}, {"text": "U."}]})"
                                                            "\n");
  const auto outcome = run_claimrag("ground --answers " + answers.string() + " --model absent.safetensors --out " + inputs.out.string(),
                                    inputs.folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find(answers.string() + ":1: \"context\"[1]: \"id\" is missing"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(inputs.out));
}

TEST(CliInputs, AClaimThatIsNotUtf8IsADataErrorWithItsByteOffset) {
  const Inputs inputs;
  // "café" with its last character cut after its first byte, and a lone 0xFF byte.
  for (const auto& [claim, offset] : std::vector<std::pair<std::string, std::string>>{{"caf\xC3", "3"}, {"a \xFF b", "2"}}) {
    const auto outcome = run_claimrag("verify --data data/fixtures/tiny-beir --claim '" + claim + "'", inputs.folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
    EXPECT_NE(outcome.err.find("--claim: invalid UTF-8 at byte " + offset), std::string::npos) << outcome.err;
  }
}
