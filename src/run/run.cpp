#include "claimrag/run/run.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include <xxhash.h>

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/text_lines.hpp"
#include "claimrag/parallel_for.hpp"

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

// One line of a run, parsed: its ids are views into the file's text until the ranking is built.
struct RunLine {
  std::size_t line_number;
  long rank;
  std::string_view doc_id;
  double score;
};

// The fields of a run line, split at spaces and tabs: the first six kept, all counted. Without an
// allocation per line: reading a run is most of what the gate and the training claims' runs do.
struct RunFields {
  std::array<std::string_view, 6> field;
  std::size_t count = 0;
};

constexpr bool is_field_separator(char c) { return c == ' ' || c == '\t'; }

RunFields split_whitespace(std::string_view text) {
  RunFields fields;
  const char* position = text.data();
  const char* const end = position + text.size();
  while (true) {
    while (position != end && is_field_separator(*position)) ++position;
    if (position == end) return fields;
    const char* const start = position;
    while (position != end && !is_field_separator(*position)) ++position;
    if (fields.count < fields.field.size()) fields.field[fields.count] = {start, static_cast<std::size_t>(position - start)};
    ++fields.count;
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

// The first repeated document of a query's lines (in rank order): an open-addressing table of
// positions, reused from query to query, so that the check allocates nothing per document.
class RepeatFinder {
 public:
  /// The position of the first entry whose id an earlier entry already has, with that earlier
  /// entry's position; nothing when every id is distinct.
  std::optional<std::pair<std::size_t, std::size_t>> first_repeat(const std::vector<RunLine>& entries) {
    std::size_t capacity = 16;
    while (capacity < 2 * entries.size()) capacity *= 2;
    slots_.assign(capacity, kEmpty);
    const std::size_t mask = capacity - 1;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const std::string_view id = entries[i].doc_id;
      for (std::size_t slot = XXH3_64bits(id.data(), id.size()) & mask;; slot = (slot + 1) & mask) {
        if (slots_[slot] == kEmpty) {
          slots_[slot] = static_cast<std::uint32_t>(i);
          break;
        }
        if (entries[slots_[slot]].doc_id == id) return std::pair{i, static_cast<std::size_t>(slots_[slot])};
      }
    }
    return std::nullopt;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  std::vector<std::uint32_t> slots_;
};

// Builds one query's ranking from its lines, sorted by rank, refusing the first problem in rank
// order: a repeated document before a repeated rank before a rising score, as a reader going down
// the list would meet them.
Ranking ranking_of(const std::string& query_id, std::vector<RunLine>& entries, RepeatFinder& repeats,
                   const std::string& source) {
  std::stable_sort(entries.begin(), entries.end(), [](const RunLine& a, const RunLine& b) { return a.rank < b.rank; });
  std::size_t first_bad_order = entries.size();
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].rank == entries[i - 1].rank || entries[i].score > entries[i - 1].score) {
      first_bad_order = i;
      break;
    }
  }
  if (const auto repeat = repeats.first_repeat(entries); repeat && repeat->first <= first_bad_order) {
    const RunLine& entry = entries[repeat->first];
    throw DataError(source, entry.line_number,
                    "document " + std::string(entry.doc_id) + " appears twice for query " + query_id + " (first on line " +
                        std::to_string(entries[repeat->second].line_number) + ")");
  }
  if (first_bad_order < entries.size()) {
    const RunLine& entry = entries[first_bad_order];
    if (entry.rank == entries[first_bad_order - 1].rank) {
      throw DataError(source, entry.line_number, "rank " + std::to_string(entry.rank) + " is given twice for query " + query_id);
    }
    throw DataError(source, entry.line_number,
                    "score rises with rank for query " + query_id + ": rank order and score order disagree");
  }
  Ranking ranking{query_id, {}};
  ranking.documents.reserve(entries.size());
  for (const RunLine& entry : entries) ranking.documents.push_back({std::string(entry.doc_id), entry.score});
  return ranking;
}

}  // namespace

Run read_trec_run(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::string contents = io::read_file(path, io::kDataInput);
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
    RunLine entry{line.number, 0, fields[2], 0.0};
    if (!parse_number(fields[3], entry.rank) || entry.rank < 1) {
      throw DataError(source, line.number, "rank \"" + std::string(fields[3]) + "\" is not an integer >= 1");
    }
    if (const auto problem = io::number_problem(fields[4], entry.score); !problem.empty()) {
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
    current->push_back(entry);
  });
  if (!have_tag) throw DataError(source, "the run file is empty");

  RepeatFinder repeats;
  run.rankings.reserve(query_order.size());
  for (const auto& query_id : query_order) run.add(ranking_of(query_id, lines_of[query_id], repeats, source));
  return run;
}

std::vector<Run> read_trec_runs(const std::vector<std::filesystem::path>& paths) {
  std::vector<Run> runs(paths.size());
  parallel_for(paths.size(), [&](std::size_t i) { runs[i] = read_trec_run(paths[i]); });
  return runs;
}

namespace {

// Appends the lines of one ranking to `lines`, checking what write_trec_run promises to check.
void append_ranking_lines(const Ranking& ranking, const std::string& tag, std::string& lines) {
  require_valid_id(ranking.query_id, tag);
  char number_text[64];
  const auto append_number = [&](auto value) {
    const auto written = std::to_chars(number_text, number_text + sizeof number_text, value);
    lines.append(number_text, static_cast<std::size_t>(written.ptr - number_text));
  };
  for (std::size_t i = 0; i < ranking.documents.size(); ++i) {
    const auto& document = ranking.documents[i];
    require_valid_id(document.doc_id, tag);
    if (i > 0 && document.score > ranking.documents[i - 1].score) {
      throw InternalError("run " + tag + ": scores rise with rank for query " + ranking.query_id);
    }
    if (!std::isfinite(document.score)) {  // the message is built only when it is needed
      io::require_finite_output(document.score, "run " + tag + ": the score of " + document.doc_id + " for query " + ranking.query_id);
    }
    lines += ranking.query_id;
    lines += " Q0 ";
    lines += document.doc_id;
    lines += ' ';
    append_number(i + 1);
    lines += ' ';
    append_number(document.score);
    lines += ' ';
    lines += tag;
    lines += '\n';
  }
}

}  // namespace

void write_trec_run(const Run& run, const std::filesystem::path& path) {
  if (run.tag.empty() || run.tag.find_first_of(" \t\n") != std::string::npos) {
    throw InternalError("a run tag must be one non-empty word, got \"" + run.tag + "\"");
  }
  io::AtomicFile file(path);
  std::ostream& out = file.stream();
  // Formatting the scores costs more than writing them: the rankings of a group are formatted on
  // the threads, each into its own buffer, then written in order (the first problem in the run's
  // order is the one reported, whatever the thread count).
  constexpr std::size_t kGroup = 256;
  std::vector<std::string> formatted(std::min(kGroup, run.rankings.size()));
  for (std::size_t first = 0; first < run.rankings.size(); first += kGroup) {
    const std::size_t count = std::min(kGroup, run.rankings.size() - first);
    parallel_for(count, [&](std::size_t k) {
      formatted[k].clear();
      append_ranking_lines(run.rankings[first + k], run.tag, formatted[k]);
    });
    for (std::size_t k = 0; k < count; ++k) out.write(formatted[k].data(), static_cast<std::streamsize>(formatted[k].size()));
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
