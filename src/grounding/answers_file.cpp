#include "claimrag/grounding/answers_file.hpp"

#include <simdjson.h>

#include <algorithm>

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"

namespace claimrag::grounding {
namespace {

bool is_blank_text(std::string_view text) { return text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos; }

/// A context item's document id (string or integer), as dataset::FieldReader::identifier reads one.
std::string item_identifier(simdjson::dom::element item, const dataset::FieldReader& fields, std::size_t position) {
  std::string_view text;
  if (item.get_string().get(text) == simdjson::SUCCESS) {
    const std::string problem = dataset::identifier_problem(text);
    if (!problem.empty()) fields.fail("\"context\"[" + std::to_string(position) + "] " + problem);
    return std::string(text);
  }
  int64_t integer = 0;
  if (item.get_int64().get(integer) == simdjson::SUCCESS) return std::to_string(integer);
  fields.fail("\"context\"[" + std::to_string(position) + "] is neither a document id nor a passage object");
}

verification::EvidenceDocument context_item(simdjson::dom::element item, const dataset::FieldReader& fields,
                                            const std::filesystem::path& path, std::size_t line, std::size_t position,
                                            const ContextSources& sources) {
  simdjson::dom::object object;
  if (item.get_object().get(object) == simdjson::SUCCESS) {
    // The passage's own fields, reported at the answer's line with its place in the context
    // ("\"context\"[2]: \"id\" is missing").
    const std::string place = "\"context\"[" + std::to_string(position) + "]";
    const dataset::FieldReader passage(object, path, line, place + ": ");
    passage.refuse_unknown({"id", "title", "text"});
    verification::EvidenceDocument document;
    document.doc_id = passage.identifier("id");
    document.title = passage.optional_string("title", "");
    const std::string text = passage.string("text");
    if (is_blank_text(text)) fields.fail(place + " \"text\" is empty");
    document.sentences = passage_sentences(text);
    document.text = text;
    return document;
  }
  const std::string doc_id = item_identifier(item, fields, position);
  if (sources.corpus == nullptr) fields.fail("context document \"" + doc_id + "\" needs a corpus (--data)");
  auto document = sources.corpus->document(doc_id);
  if (!document) fields.fail("context document \"" + doc_id + "\" is not in the corpus");
  return std::move(*document);
}

}  // namespace

std::vector<std::string> passage_sentences(std::string_view text) {
  std::vector<std::string> sentences;
  for (auto& claim : segment_claims(text)) sentences.push_back(std::move(claim.text));
  return sentences;
}

ContextPassages::ContextPassages(const dataset::Corpus& corpus, std::vector<dataset::Abstract> abstracts)
    : corpus_(corpus), abstracts_(std::move(abstracts)) {
  for (std::size_t a = 0; a < abstracts_.size(); ++a) abstract_of_.emplace(abstracts_[a].doc_id, a);
}

std::optional<verification::EvidenceDocument> ContextPassages::document(const std::string& doc_id) const {
  const std::int64_t position = corpus_.find(doc_id);
  if (position < 0) return std::nullopt;
  const auto& source = corpus_.documents[static_cast<std::size_t>(position)];
  verification::EvidenceDocument document;
  document.doc_id = source.id;
  document.title = source.title;
  const auto abstract = abstract_of_.find(doc_id);
  document.sentences = abstract != abstract_of_.end() ? abstracts_[abstract->second].sentences : passage_sentences(source.text);
  if (abstract == abstract_of_.end()) document.text = source.text;
  return document;
}

namespace {

/// Lines {"id", <text_field>, "context"?}: the text goes to AnswerToGround::answer.
std::vector<AnswerToGround> read_lines_with_context(const std::filesystem::path& path, const ContextSources& sources,
                                                    const char* text_field) {
  std::vector<AnswerToGround> answers;
  std::unordered_map<std::string, std::size_t> first_line;
  dataset::for_each_json_object(path, [&](simdjson::dom::object object, std::size_t line_number) {
    const dataset::FieldReader fields(object, path, line_number);
    fields.refuse_unknown({"id", text_field, "context"});
    AnswerToGround answer;
    answer.id = fields.identifier("id");
    const auto [seen, fresh] = first_line.emplace(answer.id, line_number);
    if (!fresh) fields.fail("duplicate id \"" + answer.id + "\" (first on line " + std::to_string(seen->second) + ")");
    answer.answer = fields.string(text_field);
    if (fields.has("context")) {
      simdjson::dom::array items;
      if (fields.element("context").get_array().get(items)) fields.fail("\"context\" is not an array");
      std::size_t position = 0;
      for (const auto item : items) answer.context.push_back(context_item(item, fields, path, line_number, position++, sources));
    } else if (sources.run != nullptr) {
      if (const run::Ranking* ranking = sources.run->find(answer.id)) {
        const std::size_t depth = std::min(sources.k, ranking->documents.size());
        for (std::size_t r = 0; r < depth; ++r) {
          const auto& doc_id = ranking->documents[r].doc_id;
          auto document = sources.corpus == nullptr ? std::nullopt : sources.corpus->document(doc_id);
          if (!document) fields.fail("--run ranks document \"" + doc_id + "\" for this answer, which the corpus does not hold");
          answer.context.push_back(std::move(*document));
        }
      } else {
        answer.empty_context_reason = "no retrieved passage";
      }
    } else {
      fields.fail("no \"context\" and no --run to take one from");
    }
    answers.push_back(std::move(answer));
  });
  return answers;
}

}  // namespace

std::vector<AnswerToGround> read_answers(const std::filesystem::path& path, const ContextSources& sources) {
  return read_lines_with_context(path, sources, "answer");
}

std::vector<QuestionWithContext> read_questions(const std::filesystem::path& path, const ContextSources& sources) {
  std::vector<QuestionWithContext> questions;
  for (auto& line : read_lines_with_context(path, sources, "question")) {
    questions.push_back({std::move(line.id), std::move(line.answer), std::move(line.context), std::move(line.empty_context_reason)});
  }
  return questions;
}

}  // namespace claimrag::grounding
