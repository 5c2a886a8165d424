#include <set>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/pretrained/predict.hpp"

namespace claimrag::pretrained {

std::vector<PairInput> read_pair_inputs(const std::filesystem::path& path) {
  std::vector<PairInput> inputs;
  std::set<std::string> ids;
  // The rules of every JSON Lines input (docs/inputs.md): no empty file, no repeated key, no
  // unknown field, the shared line limit.
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, path, line);
    fields.refuse_unknown({"id", "text", "text_pair"});
    PairInput input;
    input.line = line;
    input.id = fields.string("id");
    input.text = fields.string("text");
    if (fields.has("text_pair")) input.text_pair = fields.string("text_pair");
    if (!ids.insert(input.id).second) fields.fail("id \"" + input.id + "\" appears twice");
    inputs.push_back(std::move(input));
  });
  return inputs;
}

}  // namespace claimrag::pretrained
