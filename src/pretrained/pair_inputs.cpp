#include <nlohmann/json.hpp>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/text_lines.hpp"
#include "claimrag/pretrained/predict.hpp"

namespace claimrag::pretrained {

std::vector<PairInput> read_pair_inputs(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string contents = io::read_file(path);
  std::vector<PairInput> inputs;
  std::set<std::string> ids;
  io::for_each_line(contents, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line.text);
    } catch (const nlohmann::json::parse_error& error) {
      throw DataError(file, line.number, std::string("malformed JSON: ") + error.what());
    }
    if (!object.is_object()) throw DataError(file, line.number, "not a JSON object");
    PairInput input;
    input.line = line.number;
    for (const auto& [key, value] : object.items()) {
      if (key != "id" && key != "text" && key != "text_pair") {
        throw DataError(file, line.number, "unknown field \"" + key + "\" (expected id, text, text_pair)");
      }
      if (!value.is_string()) throw DataError(file, line.number, "\"" + key + "\" is not a string");
    }
    if (!object.contains("id")) throw DataError(file, line.number, "no \"id\"");
    if (!object.contains("text")) throw DataError(file, line.number, "no \"text\"");
    input.id = object["id"].get<std::string>();
    input.text = object["text"].get<std::string>();
    if (object.contains("text_pair")) input.text_pair = object["text_pair"].get<std::string>();
    if (!ids.insert(input.id).second) throw DataError(file, line.number, "id \"" + input.id + "\" appears twice");
    inputs.push_back(std::move(input));
  });
  if (inputs.empty()) throw DataError(file, "no input lines");
  return inputs;
}

}  // namespace claimrag::pretrained
