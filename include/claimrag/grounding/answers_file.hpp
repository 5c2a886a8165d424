#pragma once
// Reading `claimrag ground`'s input: JSON Lines, one answer a line (blank lines carry nothing):
//   {"id": "a1", "answer": "text of one or more sentences", "context": [...]}
// `id` is a string or an integer (dataset/identifier.hpp's rule), unique in the file; `answer` a
// string (empty or only whitespace is allowed: the output is "I don't know", reason "empty
// answer"). `context`, optional, is an array whose items are either
//   - a corpus document id (string or integer), looked up in --data's corpus, or
//   - an inline passage {"id", "text", "title"?}, `text` holding more than whitespace.
// Without `context` the answer's passages are the first k documents of its ranking in --run
// (matched by answer id); an answer the run does not rank has an empty context ("I don't know",
// reason "no retrieved passage"). An empty `context` array gives reason "empty context".
//
// The file is read by dataset::for_each_json_object, with the rules of every JSON Lines input
// (docs/inputs.md). Errors name the file and line (DataError): invalid UTF-8 or JSON, a field other
// than those above (in a line or an inline passage), a missing or mistyped field (an inline
// passage's named by its place in `context`), a repeated id, a context document id the corpus lacks
// (or any document id without --data), a blank inline passage, and a line without `context` when
// no run is given. Nothing is dropped silently.
//
// Passage sentences (ContextPassages): a SciFact document's from the release layout when given
// (SciFact's sentence indices), every other document's and every inline passage's by
// segment_claims over its text.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/grounding/ground.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::grounding {

/// Free text as passage sentences: the texts of segment_claims.
std::vector<std::string> passage_sentences(std::string_view text);

/// Corpus documents as context passages. Keeps a reference: `corpus` must outlive it.
class ContextPassages {
 public:
  /// `abstracts` (SciFact's release layout; may be empty) give the sentences of the documents they
  /// hold; every other document is segmented.
  explicit ContextPassages(const dataset::Corpus& corpus, std::vector<dataset::Abstract> abstracts = {});
  /// The document with this id; nullopt when the corpus lacks it.
  [[nodiscard]] std::optional<verification::EvidenceDocument> document(const std::string& doc_id) const;

 private:
  const dataset::Corpus& corpus_;
  std::vector<dataset::Abstract> abstracts_;
  std::unordered_map<std::string, std::size_t> abstract_of_;
};

/// Where contexts come from, besides the lines themselves.
struct ContextSources {
  const ContextPassages* corpus = nullptr;  ///< --data (null: only inline passages)
  const run::Run* run = nullptr;            ///< --run (null: every line needs "context")
  std::size_t k = 10;                       ///< documents taken from the run
};

/// Reads and checks an answers file (see the file comment).
std::vector<AnswerToGround> read_answers(const std::filesystem::path& path, const ContextSources& sources);

/// A question to be answered by a served model from its context (`ground --generate`).
struct QuestionWithContext {
  std::string id;
  std::string question;
  std::vector<verification::EvidenceDocument> context;
  std::string empty_context_reason;  ///< as AnswerToGround's
};

/// Reads and checks a questions file: the same rules as an answers file, with "question" (a
/// string) in place of "answer": {"id", "question", "context"?}.
std::vector<QuestionWithContext> read_questions(const std::filesystem::path& path, const ContextSources& sources);

}  // namespace claimrag::grounding
