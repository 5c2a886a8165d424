#include "claimrag/dataset/beir.hpp"

#include <algorithm>
#include <charconv>

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::dataset {

std::int64_t Corpus::find(const std::string& id) const {
  const auto found = position.find(id);
  return found == position.end() ? -1 : static_cast<std::int64_t>(found->second);
}

std::vector<std::string> Corpus::full_texts() const {
  std::vector<std::string> texts;
  texts.reserve(documents.size());
  for (const auto& document : documents) texts.push_back(document.full_text());
  return texts;
}

JsonLinesScan for_each_document_in(const std::filesystem::path& corpus_jsonl, ObjectRange range,
                                   const std::function<void(Document& document, std::size_t line)>& visit) {
  std::unordered_map<std::string, std::size_t> line_of;
  return for_each_json_object_in(corpus_jsonl, range, [&](simdjson::dom::object object, std::size_t line) {
    const FieldReader fields(object, corpus_jsonl, line);
    Document document{fields.identifier("_id"), fields.optional_string("title", ""), fields.string("text")};
    const auto [where, inserted] = line_of.emplace(document.id, line);
    if (!inserted) {
      fields.fail("duplicate document id \"" + document.id + "\" (first on line " + std::to_string(where->second) + ")");
    }
    visit(document, line);
  });
}

std::string for_each_document(const std::filesystem::path& corpus_jsonl,
                              const std::function<void(Document& document, std::size_t line)>& visit) {
  return for_each_document_in(corpus_jsonl, ObjectRange{}, visit).checksum;
}

Corpus load_corpus(const std::filesystem::path& corpus_jsonl) {
  Corpus corpus;
  corpus.checksum = for_each_document(corpus_jsonl, [&](Document& document, std::size_t /*line*/) {
    corpus.position.emplace(document.id, static_cast<std::uint32_t>(corpus.documents.size()));
    corpus.documents.push_back(std::move(document));
  });
  return corpus;
}

std::vector<Query> load_queries(const std::filesystem::path& queries_jsonl) {
  std::vector<Query> queries;
  std::unordered_map<std::string, std::size_t> line_of;
  for_each_json_object(queries_jsonl, [&](simdjson::dom::object object, std::size_t line) {
    const FieldReader fields(object, queries_jsonl, line);
    Query query{fields.identifier("_id"), fields.string("text"), "{}"};
    if (fields.has("metadata")) query.metadata_json = simdjson::minify(fields.element("metadata"));
    if (const auto [where, inserted] = line_of.emplace(query.id, line); !inserted) {
      fields.fail("duplicate query id \"" + query.id + "\" (first on line " +
                  std::to_string(where->second) + ")");
    }
    queries.push_back(std::move(query));
  });
  return queries;
}

namespace {

bool is_qrels_header(const std::vector<std::string_view>& fields) {
  return fields.size() == 3 && fields[0] == "query-id" && fields[1] == "corpus-id";
}

}  // namespace

Qrels load_qrels(const std::filesystem::path& qrels_tsv) {
  const std::string contents = io::read_file(qrels_tsv, io::kDataInput);
  const std::string source = qrels_tsv.string();
  Qrels qrels;
  io::for_each_line(contents, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    const auto fields = io::split_tabs(line.text);
    if (line.number == 1 && is_qrels_header(fields)) return;
    if (fields.size() != 3) {
      throw DataError(source, line.number,
                      "expected 3 tab-separated fields (query-id, corpus-id, score), found " +
                          std::to_string(fields.size()));
    }
    for (const auto& [field, name] : {std::pair{fields[0], "query-id"}, std::pair{fields[1], "corpus-id"}}) {
      const std::string problem = identifier_problem(field);
      if (!problem.empty()) throw DataError(source, line.number, std::string(name) + " \"" + std::string(field) + "\" " + problem);
    }
    int grade = 0;
    const auto [end, error] = std::from_chars(fields[2].data(), fields[2].data() + fields[2].size(), grade);
    if (error != std::errc() || end != fields[2].data() + fields[2].size()) {
      throw DataError(source, line.number, "score \"" + std::string(fields[2]) + "\" is not an integer");
    }
    const std::string query_id(fields[0]);
    auto [judged, new_query] = qrels.judgments.try_emplace(query_id);
    if (new_query) qrels.query_order.push_back(query_id);
    if (!judged->second.emplace(std::string(fields[1]), grade).second) {
      throw DataError(source, line.number,
                      "query " + query_id + " judges document " + std::string(fields[1]) + " twice");
    }
    ++qrels.pair_count;
  });
  return qrels;
}

std::vector<std::string> available_splits(const std::filesystem::path& beir_folder) {
  std::vector<std::string> splits;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(beir_folder / "qrels", error)) {
    if (entry.path().extension() == ".tsv") splits.push_back(entry.path().stem().string());
  }
  std::sort(splits.begin(), splits.end());
  return splits;
}

Qrels load_split(const std::filesystem::path& beir_folder, const std::string& split) {
  const auto splits = available_splits(beir_folder);
  if (std::find(splits.begin(), splits.end(), split) == splits.end()) {
    std::string known;
    for (const auto& name : splits) known += (known.empty() ? "" : ", ") + name;
    throw UsageError("unknown split \"" + split + "\" in " + (beir_folder / "qrels").string() +
                     (known.empty() ? " (no qrels/*.tsv there)" : " (known: " + known + ")"));
  }
  return load_qrels(beir_folder / "qrels" / (split + ".tsv"));
}

std::vector<std::string> judged_documents_missing(const Qrels& qrels, const Corpus& corpus) {
  std::vector<std::string> missing;
  std::unordered_map<std::string, bool> seen;
  for (const auto& query_id : qrels.query_order) {
    for (const auto& [doc_id, grade] : qrels.judgments.at(query_id)) {
      if (corpus.find(doc_id) < 0 && seen.emplace(doc_id, true).second) missing.push_back(doc_id);
    }
  }
  return missing;
}

std::vector<Query> queries_of_split(const std::vector<Query>& all, const Qrels& qrels,
                                    const std::string& qrels_source) {
  std::unordered_map<std::string, const Query*> by_id;
  for (const auto& query : all) by_id.emplace(query.id, &query);
  std::vector<Query> selected;
  for (const auto& id : qrels.query_order) {
    const auto found = by_id.find(id);
    if (found == by_id.end()) {
      throw DataError(qrels_source, "judges query \"" + id + "\", which the queries file lacks");
    }
    selected.push_back(*found->second);
  }
  return selected;
}

}  // namespace claimrag::dataset
