#include "claimrag/bm25/collection_statistics.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <numeric>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/text_lines.hpp"
#include "claimrag/text/term_dictionary.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::bm25 {
namespace {

constexpr const char* kFormat = "claimrag-bm25-statistics";
constexpr int kVersion = 1;

std::uint64_t read_count(const nlohmann::json& header, const char* key, const std::string& file) {
  const auto found = header.find(key);
  if (found == header.end() || !found->is_number_unsigned()) {
    throw DataError(file, 1, std::string("the header has no non-negative integer \"") + key + "\"");
  }
  return found->get<std::uint64_t>();
}

/// The header line's fields, checked; `terms` is the count of term lines it announces.
CollectionStatistics read_header(std::string_view line, const std::string& file, std::uint64_t& terms) {
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {
    throw DataError(file, 1, "not a BM25 statistics file (its first line is no JSON object)");
  }
  // Fields are read as JSON values first: a "format" or "version" of another type is another
  // kind of file, refused as such, not a type error.
  if (!header.is_object() || header.value("format", nlohmann::json()) != kFormat) {
    throw DataError(file, 1, "not a BM25 statistics file (no \"format\": \"" + std::string(kFormat) + "\")");
  }
  if (header.value("version", nlohmann::json()) != kVersion) {
    throw DataError(file, 1, "statistics format version " + header.value("version", nlohmann::json()).dump() +
                                 ", this claimrag reads " + std::to_string(kVersion) + ": compute them again");
  }
  CollectionStatistics statistics;
  const auto checksum = header.find("corpus_checksum");
  if (checksum == header.end() || !checksum->is_string()) throw DataError(file, 1, "the header has no corpus_checksum string");
  statistics.corpus_checksum = checksum->get<std::string>();
  statistics.documents = read_count(header, "documents", file);
  statistics.total_length = read_count(header, "total_length", file);
  terms = read_count(header, "terms", file);
  return statistics;
}

/// One `term<TAB>frequency` line, appended after the checks of its order and range.
void read_term_line(const io::Line& line, CollectionStatistics& statistics, const std::string& file) {
  const auto fields = io::split_tabs(line.text);
  if (fields.size() != 2 || fields[0].empty()) throw DataError(file, line.number, "expected term<TAB>document frequency");
  std::uint64_t frequency = 0;
  const auto* end = fields[1].data() + fields[1].size();
  const auto parsed = std::from_chars(fields[1].data(), end, frequency);
  if (parsed.ec != std::errc() || parsed.ptr != end || frequency == 0 || frequency > statistics.documents) {
    throw DataError(file, line.number, "document frequency \"" + std::string(fields[1]) + "\" is not an integer in [1, " +
                                           std::to_string(statistics.documents) + "]");
  }
  if (!statistics.terms.empty() && !(statistics.terms.back() < fields[0])) {
    throw DataError(file, line.number, "term \"" + std::string(fields[0]) + "\" is out of byte order or repeated");
  }
  statistics.terms.emplace_back(fields[0]);
  statistics.document_frequencies.push_back(frequency);
}

}  // namespace

std::uint64_t CollectionStatistics::document_frequency(std::string_view term) const {
  const auto found = std::lower_bound(terms.begin(), terms.end(), term);
  return found != terms.end() && *found == term ? document_frequencies[static_cast<std::size_t>(found - terms.begin())] : 0;
}

CollectionStatistics compute_statistics(const std::filesystem::path& corpus_jsonl) {
  text::TermDictionary dictionary;
  std::vector<std::uint64_t> frequency;      // per dictionary id
  std::vector<std::uint64_t> last_document;  // per dictionary id: the last document counted, plus one
  CollectionStatistics statistics;
  statistics.corpus_checksum = dataset::for_each_document(corpus_jsonl, [&](const dataset::Document& document, std::size_t) {
    const std::uint64_t mark = ++statistics.documents;
    const auto visit = [&](std::string_view token) {
      ++statistics.total_length;
      const std::uint32_t id = dictionary.intern(token);
      if (id == frequency.size()) {
        frequency.push_back(0);
        last_document.push_back(0);
      }
      if (last_document[id] != mark) {
        last_document[id] = mark;
        ++frequency[id];
      }
    };
    text::for_each_token(document.title, visit);
    text::for_each_token(document.text, visit);
  });
  std::vector<std::uint32_t> order(dictionary.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return dictionary.term(a) < dictionary.term(b); });
  statistics.terms.reserve(order.size());
  statistics.document_frequencies.reserve(order.size());
  for (const std::uint32_t id : order) {
    statistics.terms.push_back(dictionary.term(id));
    statistics.document_frequencies.push_back(frequency[id]);
  }
  return statistics;
}

std::string statistics_text(const CollectionStatistics& statistics) {
  const nlohmann::ordered_json header{{"format", kFormat},
                                      {"version", kVersion},
                                      {"corpus_checksum", statistics.corpus_checksum},
                                      {"documents", statistics.documents},
                                      {"total_length", statistics.total_length},
                                      {"terms", statistics.terms.size()}};
  std::string text = header.dump() + "\n";
  for (std::size_t t = 0; t < statistics.terms.size(); ++t) {
    text += statistics.terms[t];
    text += '\t';
    text += std::to_string(statistics.document_frequencies[t]);
    text += '\n';
  }
  return text;
}

void write_statistics(const CollectionStatistics& statistics, const std::filesystem::path& path) {
  io::write_file_atomically(path, statistics_text(statistics));
}

CollectionStatistics read_statistics(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string contents = io::read_file(path, io::kDataInput);
  CollectionStatistics statistics;
  std::uint64_t declared_terms = 0;
  io::for_each_line(contents, [&](const io::Line& line) {
    if (line.number == 1) {
      statistics = read_header(line.text, file, declared_terms);
      return;
    }
    read_term_line(line, statistics, file);
  });
  if (contents.empty()) throw DataError(file, "is empty: not a BM25 statistics file");
  if (statistics.terms.size() != declared_terms) {
    throw DataError(file, "holds " + std::to_string(statistics.terms.size()) + " terms, its header says " +
                              std::to_string(declared_terms) + ": the file is truncated or damaged");
  }
  return statistics;
}

}  // namespace claimrag::bm25
