#include "claimrag/experiment/paper.hpp"

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::experiment {

const std::map<std::string, double>* PaperNumbers::section(const std::string& name) const {
  const auto found = sections.find(name);
  return found == sections.end() ? nullptr : &found->second;
}

PaperNumbers load_paper_numbers(const std::filesystem::path& path) {
  PaperNumbers paper;
  if (path.empty()) return paper;
  const std::string source = path.string();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(path));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(source, std::string("not valid JSON: ") + error.what());
  }
  if (!document.is_object() || !document.contains("source") || !document["source"].is_string()) {
    throw DataError(source, "needs a \"source\" string naming the paper and its tables");
  }
  paper.source = document["source"].get<std::string>();
  if (!document.contains("sections") || !document["sections"].is_object()) throw DataError(source, "no \"sections\" object");
  for (const auto& [section, metrics] : document["sections"].items()) {
    if (!metrics.is_object()) throw DataError(source, "section \"" + section + "\" is not an object");
    for (const auto& [metric, value] : metrics.items()) {
      if (!value.is_number()) throw DataError(source, section + "." + metric + " is not a number");
      paper.sections[section][metric] = value.get<double>();
    }
  }
  return paper;
}

}  // namespace claimrag::experiment
