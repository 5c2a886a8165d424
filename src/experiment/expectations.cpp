#include "claimrag/experiment/expectations.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::experiment {
namespace {

nlohmann::json load_section(const std::filesystem::path& file, const std::string& section) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(file));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(file.string(), std::string("not valid JSON: ") + error.what());
  }
  const auto sections = document.find("sections");
  if (sections == document.end() || !sections->is_object()) {
    throw DataError(file.string(), "no \"sections\" object");
  }
  const auto found = sections->find(section);
  if (found == sections->end()) {
    std::string known;
    for (const auto& [name, value] : sections->items()) known += (known.empty() ? "" : ", ") + name;
    throw UsageError(file.string() + " has no section \"" + section + "\" (known: " + known + ")");
  }
  return *found;
}

double number_field(const nlohmann::json& entry, const char* key, const std::string& where) {
  const auto found = entry.find(key);
  if (found == entry.end() || !found->is_number()) {
    throw DataError(where + ": \"" + key + "\" must be a number");
  }
  return found->get<double>();
}

std::string format(double value) {
  std::ostringstream text;
  text.precision(9);
  text << value;
  return text.str();
}

}  // namespace

std::size_t CheckReport::failures() const {
  std::size_t count = 0;
  for (const auto& line : lines) count += line.ok ? 0 : 1;
  return count;
}

CheckReport check_all(const std::filesystem::path& expected_file, const Results& results) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(expected_file));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(expected_file.string(), std::string("not valid JSON: ") + error.what());
  }
  CheckReport report;
  if (!document.contains("sections") || !document["sections"].is_object()) {
    throw DataError(expected_file.string(), "no \"sections\" object");
  }
  static const std::map<std::string, double> nothing;
  for (const auto& [section, metrics] : document["sections"].items()) {
    const auto found = results.find(section);
    const auto part = check_section(expected_file, section, found == results.end() ? nothing : found->second);
    report.lines.insert(report.lines.end(), part.lines.begin(), part.lines.end());
  }
  return report;
}

Results read_results(const std::filesystem::path& results_json) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(results_json));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(results_json.string(), std::string("not valid JSON: ") + error.what());
  }
  if (!document.contains("metrics") || !document["metrics"].is_object()) {
    throw DataError(results_json.string(), "no \"metrics\" object");
  }
  Results results;
  for (const auto& [section, values] : document["metrics"].items()) {
    for (const auto& [metric, value] : values.items()) {
      if (!value.is_number()) throw DataError(results_json.string(), section + "." + metric + " is not a number");
      results[section][metric] = value.get<double>();
    }
  }
  return results;
}

std::string section_for_tag(const std::string& tag) {
  std::string section = tag;
  std::replace(section.begin(), section.end(), '+', '_');
  return section;
}

void validate_expectations(const std::filesystem::path& expected_file) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(expected_file));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(expected_file.string(), std::string("not valid JSON: ") + error.what());
  }
  if (!document.is_object() || !document.contains("sections") || !document["sections"].is_object()) {
    throw DataError(expected_file.string(), "no \"sections\" object");
  }
  for (const auto& [section, metrics] : document["sections"].items()) {
    if (!metrics.is_object()) throw DataError(expected_file.string(), "section \"" + section + "\" is not an object");
    for (const auto& [metric, entry] : metrics.items()) {
      const std::string where = expected_file.string() + ": " + section + "." + metric;
      number_field(entry, "value", where);
      number_field(entry, "tolerance", where);
    }
  }
}

void freeze_expectations(const Results& results, const std::filesystem::path& expected_file, double tolerance,
                         const std::string& description) {
  if (!(tolerance >= 0) || !std::isfinite(tolerance)) throw UsageError("a frozen tolerance must be finite and >= 0");
  nlohmann::json sections = nlohmann::json::object();
  for (const auto& [section, values] : results) {
    for (const auto& [metric, value] : values) {
      if (!std::isfinite(value)) throw DataError(section + "." + metric + " is not finite: it cannot be frozen");
      sections[section][metric] = {{"value", value}, {"tolerance", tolerance}};
    }
  }
  const nlohmann::json document{{"description", description}, {"sections", sections}};
  io::write_file_atomically(expected_file, document.dump(2) + "\n");
}

std::vector<std::string> expected_metrics(const std::filesystem::path& expected_file,
                                          const std::string& section) {
  const nlohmann::json expected = load_section(expected_file, section);
  std::vector<std::string> names;
  for (const auto& [metric, entry] : expected.items()) names.push_back(metric);
  return names;
}

CheckReport check_section(const std::filesystem::path& expected_file, const std::string& section,
                          const std::map<std::string, double>& computed) {
  const nlohmann::json expected_section = load_section(expected_file, section);
  CheckReport report;
  for (const auto& [metric, entry] : expected_section.items()) {
    const std::string where = expected_file.string() + ": " + section + "." + metric;
    const double expected = number_field(entry, "value", where);
    const double tolerance = number_field(entry, "tolerance", where);
    const auto found = computed.find(metric);
    if (found == computed.end()) {
      report.lines.push_back({section, metric, false, "FAIL " + section + " " + metric + " was not computed"});
      continue;
    }
    const double value = found->second;
    bool ok = std::isfinite(value) && std::abs(value - expected) <= tolerance;
    std::string message = section + " " + metric + " " + format(value) + " (expected " + format(expected) +
                          " ± " + format(tolerance);
    if (entry.contains("paper")) {
      // "paper" alone is shown for comparison; with "paper_tolerance" it is checked too.
      const double paper = number_field(entry, "paper", where);
      message += "; paper " + format(paper);
      if (entry.contains("paper_tolerance")) {
        const double paper_tolerance = number_field(entry, "paper_tolerance", where);
        const bool paper_ok = std::abs(value - paper) <= paper_tolerance;
        ok = ok && paper_ok;
        message += " ± " + format(paper_tolerance) + (paper_ok ? "" : " MISSED");
      }
    }
    message += ")";
    report.lines.push_back({section, metric, ok, (ok ? "OK   " : "FAIL ") + message});
  }
  return report;
}

}  // namespace claimrag::experiment
