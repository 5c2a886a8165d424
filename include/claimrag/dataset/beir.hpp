#pragma once
// Loading a BEIR-format dataset folder: corpus.jsonl, queries.jsonl and qrels/<split>.tsv.
// Any BEIR dataset loads, not only SciFact.
//
// Accepted: a UTF-8 byte-order mark, CRLF line endings, blank lines (they carry nothing), `_id`
// given as a JSON string or integer, a missing `title` (empty). Refused with `file:line: reason`:
// malformed JSON, a missing or mistyped `_id`/`text`, an id with whitespace (dataset/identifier.hpp),
// a duplicate id, an empty corpus, a qrels
// line without exactly three tab-separated fields or with a non-integer score.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "claimrag/dataset/jsonl.hpp"

namespace claimrag::dataset {

struct Document {
  std::string id;
  std::string title;
  std::string text;
  /// What the retrievers index: title + " " + text.
  [[nodiscard]] std::string full_text() const { return title + " " + text; }
};

/// The documents in file order; `position` maps an id to its index in `documents`.
struct Corpus {
  std::vector<Document> documents;
  std::unordered_map<std::string, std::uint32_t> position;
  std::string checksum;  ///< io::checksum_hex of the corpus file's bytes
  /// The index of `id`, or -1 when the corpus has no such document.
  [[nodiscard]] std::int64_t find(const std::string& id) const;
  /// Every document's full_text(), in corpus order: what the lexical and dense models read.
  [[nodiscard]] std::vector<std::string> full_texts() const;
};

struct Query {
  std::string id;
  std::string text;
  std::string metadata_json;  ///< the `metadata` object as written ("{}" when absent)
};

/// Relevance judgments of one split: query id -> document id -> grade (> 0 means relevant).
/// `query_order` keeps the order in which queries first appear in the file.
struct Qrels {
  std::map<std::string, std::map<std::string, int>> judgments;
  std::vector<std::string> query_order;
  std::size_t pair_count = 0;
};

/// Reads corpus.jsonl one document at a time, with every check load_corpus makes (duplicate ids,
/// an empty corpus), calling `visit(document, line)` in file order. Returns the checksum of the
/// file's bytes (Corpus::checksum). Memory: one line and the ids seen so far.
std::string for_each_document(const std::filesystem::path& corpus_jsonl,
                              const std::function<void(Document& document, std::size_t line)>& visit);
/// As for_each_document, for the documents at positions [range.first, range.first + range.count)
/// of the corpus only: the others are counted, not parsed, so that a task indexing one block of a
/// large corpus pays neither their parsing nor a table of their ids. Duplicate ids are refused
/// within the range only: for a corpus a whole pass has checked (bm25-statistics), which the
/// checksum returned ties it to. Returns the checksum and the corpus's document count.
JsonLinesScan for_each_document_in(const std::filesystem::path& corpus_jsonl, ObjectRange range,
                                   const std::function<void(Document& document, std::size_t line)>& visit);
Corpus load_corpus(const std::filesystem::path& corpus_jsonl);
std::vector<Query> load_queries(const std::filesystem::path& queries_jsonl);
Qrels load_qrels(const std::filesystem::path& qrels_tsv);

/// The split names of a BEIR folder: the stems of qrels/*.tsv, sorted.
std::vector<std::string> available_splits(const std::filesystem::path& beir_folder);
/// qrels/<split>.tsv of a BEIR folder; an unknown split is a UsageError listing the known ones.
Qrels load_split(const std::filesystem::path& beir_folder, const std::string& split);

/// The distinct documents `qrels` judges that `corpus` lacks, in the order the qrels file first
/// names them. BEIR releases have such lines; they cannot be retrieved, and a relevant one lowers
/// the recall of every system, so callers warn about them rather than refuse the split.
std::vector<std::string> judged_documents_missing(const Qrels& qrels, const Corpus& corpus);

/// The queries of `all` that `qrels` judges, in the qrels file's order; a judged query absent from
/// `all` is a DataError.
std::vector<Query> queries_of_split(const std::vector<Query>& all, const Qrels& qrels,
                                    const std::string& qrels_source);

}  // namespace claimrag::dataset
