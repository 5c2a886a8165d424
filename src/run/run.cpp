#include "claimrag/run/run.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::run {

const Ranking* Run::find(const std::string& query_id) const {
  const auto found = index_.find(query_id);
  return found == index_.end() ? nullptr : &rankings[found->second];
}

void Run::reindex() {
  index_.clear();
  for (std::size_t i = 0; i < rankings.size(); ++i) {
    if (!index_.emplace(rankings[i].query_id, i).second) {
      throw InternalError("run " + tag + " holds query " + rankings[i].query_id + " twice");
    }
  }
}

void Run::add(Ranking ranking) {
  if (!index_.emplace(ranking.query_id, rankings.size()).second) {
    throw InternalError("run " + tag + " holds query " + ranking.query_id + " twice");
  }
  rankings.push_back(std::move(ranking));
}

namespace {

struct RunLine {
  std::size_t line_number;
  long rank;
  ScoredDocument document;
};

// The fields of a run line, split at spaces and tabs: the first six kept, all counted. Without an
// allocation per line: reading a run is most of what the gate and the training claims' runs do.
struct RunFields {
  std::array<std::string_view, 6> field;
  std::size_t count = 0;
};

RunFields split_whitespace(std::string_view text) {
  RunFields fields;
  std::size_t position = 0;
  while (true) {
    position = text.find_first_not_of(" \t", position);
    if (position == std::string_view::npos) return fields;
    const std::size_t end = text.find_first_of(" \t", position);
    if (fields.count < fields.field.size()) fields.field[fields.count] = text.substr(position, end - position);
    ++fields.count;
    if (end == std::string_view::npos) return fields;
    position = end;
  }
}

// Ids are checked where they are loaded; one that reaches the writer unchecked would make a
// file that reads back differently, so it is a bug to stop at, not a line to write.
void require_valid_id(const std::string& id, const std::string& tag) {
  const std::string problem = dataset::identifier_problem(id);
  if (!problem.empty()) throw InternalError("run " + tag + ": id \"" + id + "\" " + problem);
}

template <typename Number>
bool parse_number(std::string_view text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

Run read_trec_run(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::string contents = io::read_file(path);
  std::vector<std::string> query_order;
  std::unordered_map<std::string, std::vector<RunLine>> lines_of;
  Run run;
  run.source = source;
  bool have_tag = false;
  std::vector<RunLine>* current = nullptr;  // the lines of the query the last line named
  std::string_view current_query;           // its id (a key of lines_of, which never moves)
  io::for_each_line(contents, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    const RunFields split = split_whitespace(line.text);
    if (split.count != 6) {
      throw DataError(source, line.number,
                      "expected 6 fields (qid Q0 docid rank score tag), found " + std::to_string(split.count));
    }
    const auto& fields = split.field;
    RunLine entry{line.number, 0, {std::string(fields[2]), 0.0}};
    if (!parse_number(fields[3], entry.rank) || entry.rank < 1) {
      throw DataError(source, line.number, "rank \"" + std::string(fields[3]) + "\" is not an integer >= 1");
    }
    if (const auto problem = io::number_problem(fields[4], entry.document.score); !problem.empty()) {
      throw DataError(source, line.number, "score \"" + std::string(fields[4]) + "\" " + problem);
    }
    if (!have_tag) {
      run.tag = std::string(fields[5]);
      have_tag = true;
    } else if (fields[5] != run.tag) {
      throw DataError(source, line.number,
                      "tag \"" + std::string(fields[5]) + "\" differs from \"" + run.tag + "\": one file holds one run");
    }
    // A run lists a query's lines together: look its slot up once per query, not once per line.
    if (current == nullptr || fields[0] != current_query) {
      const std::string query_id(fields[0]);
      auto [slot, is_new] = lines_of.try_emplace(query_id);
      if (is_new) query_order.push_back(query_id);
      current = &slot->second;
      current_query = slot->first;
    }
    current->push_back(std::move(entry));
  });
  if (!have_tag) throw DataError(source, "the run file is empty");

  for (const auto& query_id : query_order) {
    auto& entries = lines_of[query_id];
    std::stable_sort(entries.begin(), entries.end(),
                     [](const RunLine& a, const RunLine& b) { return a.rank < b.rank; });
    Ranking ranking{query_id, {}};
    // Reserved, so that the ids `seen` views never move; each document is moved in, not copied.
    ranking.documents.reserve(entries.size());
    std::unordered_map<std::string_view, std::size_t> seen;
    seen.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      RunLine& entry = entries[i];
      ranking.documents.push_back(std::move(entry.document));
      const std::string& doc_id = ranking.documents.back().doc_id;
      if (const auto [first, inserted] = seen.emplace(doc_id, entry.line_number); !inserted) {
        throw DataError(source, entry.line_number,
                        "document " + doc_id + " appears twice for query " + query_id +
                            " (first on line " + std::to_string(first->second) + ")");
      }
      if (i > 0 && entry.rank == entries[i - 1].rank) {
        throw DataError(source, entry.line_number,
                        "rank " + std::to_string(entry.rank) + " is given twice for query " + query_id);
      }
      if (i > 0 && ranking.documents[i].score > ranking.documents[i - 1].score) {
        throw DataError(source, entry.line_number,
                        "score rises with rank for query " + query_id +
                            ": rank order and score order disagree");
      }
    }
    run.add(std::move(ranking));
  }
  return run;
}

void write_trec_run(const Run& run, const std::filesystem::path& path) {
  if (run.tag.empty() || run.tag.find_first_of(" \t\n") != std::string::npos) {
    throw InternalError("a run tag must be one non-empty word, got \"" + run.tag + "\"");
  }
  io::AtomicFile file(path);
  std::ostream& out = file.stream();
  char score_text[64];
  for (const auto& ranking : run.rankings) {
    require_valid_id(ranking.query_id, run.tag);
    for (std::size_t i = 0; i < ranking.documents.size(); ++i) {
      const auto& document = ranking.documents[i];
      require_valid_id(document.doc_id, run.tag);
      if (i > 0 && document.score > ranking.documents[i - 1].score) {
        throw InternalError("run " + run.tag + ": scores rise with rank for query " + ranking.query_id);
      }
      io::require_finite_output(document.score, "run " + run.tag + ": the score of " + document.doc_id + " for query " + ranking.query_id);
      const auto written = std::to_chars(score_text, score_text + sizeof score_text, document.score);
      out << ranking.query_id << " Q0 " << document.doc_id << ' ' << (i + 1) << ' '
          << std::string_view(score_text, static_cast<std::size_t>(written.ptr - score_text)) << ' '
          << run.tag << '\n';
    }
  }
  file.commit();
}

Run truncate(const Run& run, std::size_t depth) {
  Run truncated;
  truncated.tag = run.tag;
  for (const auto& ranking : run.rankings) {
    Ranking shortened{ranking.query_id, {}};
    const std::size_t keep = std::min(depth, ranking.documents.size());
    shortened.documents.assign(ranking.documents.begin(), ranking.documents.begin() + static_cast<long>(keep));
    truncated.add(std::move(shortened));
  }
  return truncated;
}

}  // namespace claimrag::run
