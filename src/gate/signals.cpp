#include "claimrag/gate/signals.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::gate {
namespace {

// A TREC run cannot hold an empty ranking: a claim without lines in a run retrieved nothing.
const run::Ranking& ranking_of(const run::Run* run, const std::string& claim_id) {
  static const run::Ranking empty;
  const run::Ranking* ranking = run->find(claim_id);
  return ranking == nullptr ? empty : *ranking;
}

const run::Run& need(const run::Run* run, const std::string& signal, const char* flag) {
  if (run == nullptr) throw UsageError("signal " + signal + " needs " + flag);
  return *run;
}

double top_score(const run::Ranking& ranking, std::size_t position) {
  return position < ranking.documents.size() ? ranking.documents[position].score : 0.0;
}

double value_from(const std::map<std::string, double>& values, const std::string& claim_id, const std::string& what) {
  const auto found = values.find(claim_id);
  if (found == values.end()) throw DataError(std::string(what) + " has no value for claim " + claim_id);
  return found->second;
}

using SignalFunction = std::function<double(const SignalInputs&, const std::string&, const std::string&)>;

const std::vector<std::pair<std::string, SignalFunction>>& registry() {
  static const std::vector<std::pair<std::string, SignalFunction>> signals{
      {"bm25_top1",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         return top_score(ranking_of(&need(in.bm25, name, "--bm25-run"), id), 0);
       }},
      {"bm25_margin",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         const auto& ranking = ranking_of(&need(in.bm25, name, "--bm25-run"), id);
         return top_score(ranking, 0) - top_score(ranking, 1);
       }},
      {"sparse_dense_rank",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         const auto& sparse = ranking_of(&need(in.bm25, name, "--bm25-run"), id);
         const auto& dense = ranking_of(&need(in.dense, name, "--dense-run"), id);
         if (sparse.documents.empty()) return 0.0;
         const auto& top = sparse.documents.front().doc_id;
         for (std::size_t i = 0; i < dense.documents.size(); ++i) {
           if (dense.documents[i].doc_id == top) return 1.0 / static_cast<double>(i + 1);
         }
         return 0.0;
       }},
      {"sparse_dense_overlap",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         const auto& sparse = ranking_of(&need(in.bm25, name, "--bm25-run"), id);
         const auto& dense = ranking_of(&need(in.dense, name, "--dense-run"), id);
         const std::size_t depth = 10;
         double common = 0;
         for (std::size_t i = 0; i < std::min(depth, sparse.documents.size()); ++i) {
           for (std::size_t j = 0; j < std::min(depth, dense.documents.size()); ++j) {
             common += sparse.documents[i].doc_id == dense.documents[j].doc_id ? 1 : 0;
           }
         }
         return common / static_cast<double>(depth);
       }},
      {"rerank_top1",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         return top_score(ranking_of(&need(in.rerank, name, "--rerank-run"), id), 0);
       }},
      {"verifier_top1",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         if (in.verifier_top1 == nullptr) throw UsageError("signal " + name + " needs --evidence");
         return value_from(*in.verifier_top1, id, "the evidence file");
       }},
      {"file",
       [](const SignalInputs& in, const std::string& name, const std::string& id) {
         if (in.external == nullptr) throw UsageError("signal " + name + " needs --signal-file");
         return value_from(*in.external, id, "the signal file");
       }},
  };
  return signals;
}

}  // namespace

const std::vector<std::string>& signal_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& [name, function] : registry()) all.push_back(name);
    return all;
  }();
  return names;
}

std::vector<double> signal_values(const std::string& name, const SignalInputs& inputs,
                                  const std::vector<std::string>& claim_ids) {
  const auto& signals = registry();
  const auto found = std::find_if(signals.begin(), signals.end(), [&](const auto& entry) { return entry.first == name; });
  if (found == signals.end()) {
    std::string known;
    for (const auto& entry : signals) known += (known.empty() ? "" : ", ") + entry.first;
    throw UsageError("unknown signal \"" + name + "\" (known: " + known + ")");
  }
  std::vector<double> values;
  values.reserve(claim_ids.size());
  for (const auto& id : claim_ids) values.push_back(found->second(inputs, name, id));
  return values;
}

std::map<std::string, double> read_signal_file(const std::string& path) {
  const std::string contents = io::read_file(path, io::kDataInput);
  std::map<std::string, double> values;
  io::for_each_line(contents, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    const std::size_t tab = line.text.find('\t');
    if (tab == std::string_view::npos || line.text.find('\t', tab + 1) != std::string_view::npos) {
      throw DataError(path, line.number, "expected 2 tab-separated fields (claim id, value)");
    }
    const std::string_view id = line.text.substr(0, tab);
    const std::string_view number = line.text.substr(tab + 1);
    if (line.number == 1 && id == "claim_id") return;
    double value = 0;
    if (const auto problem = io::number_problem(number, value); !problem.empty()) {
      throw DataError(path, line.number, "value \"" + std::string(number) + "\" " + problem);
    }
    if (!values.emplace(std::string(id), value).second) {
      throw DataError(path, line.number, "claim " + std::string(id) + " appears twice");
    }
  });
  if (values.empty()) throw DataError(path, "is empty: no claim has a value (an empty input is refused)");
  return values;
}

void write_signal_file(const std::string& path, const std::string& name, const std::vector<std::string>& claim_ids,
                       const std::vector<double>& values) {
  if (claim_ids.size() != values.size()) throw InternalError("write_signal_file: ids and values differ in number");
  io::AtomicFile out(path);
  out.stream() << "claim_id\t" << name << '\n';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) throw InternalError("write_signal_file: a non-finite value for claim " + claim_ids[i]);
    char text[64];
    const auto written = std::to_chars(text, text + sizeof text, values[i]);
    out.stream() << claim_ids[i] << '\t' << std::string_view(text, static_cast<std::size_t>(written.ptr - text)) << '\n';
  }
  out.commit();
}

}  // namespace claimrag::gate
