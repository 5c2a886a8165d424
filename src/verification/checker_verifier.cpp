// The grounding checkers' rule (checker_verifier.hpp): chunks, one sequence per chunk and claim,
// and the largest P(supported).
#include "claimrag/verification/checker_verifier.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "claimrag/error.hpp"
#include "claimrag/text/punkt_sentences.hpp"
#include "claimrag/tokenizer/special_tokens.hpp"
#include "claimrag/verification/checker_chunks.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::verification {
namespace {

constexpr auto kSupport = static_cast<std::size_t>(Label::support);

// Where each of the document's sentences lies in its text: found in order, as the sentences are
// the text's own pieces; a sentence the text does not hold (a document given as sentences and
// text that disagree) gets an empty span and no chunk.
std::vector<std::pair<std::size_t, std::size_t>> sentence_spans(const EvidenceDocument& document, const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t cursor = 0;
  for (const auto& sentence : document.sentences) {
    const std::size_t found = sentence.empty() ? std::string::npos : text.find(sentence, cursor);
    if (found == std::string::npos) {
      spans.emplace_back(0, 0);
      continue;
    }
    spans.emplace_back(found, found + sentence.size());
    cursor = found + sentence.size();
  }
  return spans;
}

bool overlaps(const std::pair<std::size_t, std::size_t>& span, const DocumentChunk& chunk) {
  return span.second > span.first && span.first < chunk.end && chunk.begin < span.second;
}

// The parts of the claim read against each chunk: the claim whole (minicheck), or its sentences
// (alignscore; the claim whole when it has none).
std::vector<std::string> claim_parts(const std::string& claim, CheckerKind kind) {
  if (kind != CheckerKind::alignscore) return {claim};
  std::vector<std::string> parts;
  for (auto& sentence : text::punkt_sentences(claim)) parts.push_back(std::move(sentence.text));
  if (parts.empty()) parts.push_back(claim);
  return parts;
}

// The length a sequence is cut at: the user's, else the family's, within the model's positions.
std::size_t length_read(const CheckerOptions& options, const CheckerSettings& settings, const pretrained::ModelConfig& config) {
  const auto limit = static_cast<std::size_t>(config.max_tokens());
  return options.max_length != 0 ? options.max_length : std::min(settings.max_length, limit);
}

// One (claim, document): the document's text, its chunks and the claim's parts.
struct CheckedPair {
  std::string text;
  std::vector<DocumentChunk> chunks;
  std::vector<std::string> parts;
};

class CheckerVerifier final : public ClaimVerifier {
 public:
  CheckerVerifier(std::shared_ptr<const NliCheckpoint> checkpoint, CheckerOptions options, CheckerSettings settings,
                  std::string end_of_sequence)
      : checkpoint_(std::move(checkpoint)),
        options_(options),
        settings_(std::move(settings)),
        end_of_sequence_(std::move(end_of_sequence)) {
    const auto& tokenizer = checkpoint_->text_model().tokenizer();
    template_tokens_ = tokenizer.encode("", std::nullopt, 0).input_ids.size();
  }

  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    // Every sequence of every (claim, document) first, so the checkpoint runs once over all.
    // A document read against several claims (a passage of every claim of an answer, an abstract
    // retrieved for several claims) is cut into chunks once.
    std::vector<std::vector<CheckedPair>> pairs(inputs.size());
    std::vector<std::string> sequences;
    std::unordered_map<std::string, std::vector<DocumentChunk>> chunks_of_text;
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      for (const auto& document : inputs[c].documents) {
        CheckedPair pair{checker_document_text(document), {}, claim_parts(inputs[c].claim, options_.kind)};
        auto cached = chunks_of_text.find(pair.text);
        if (cached == chunks_of_text.end()) cached = chunks_of_text.emplace(pair.text, document_chunks(pair.text)).first;
        pair.chunks = cached->second;
        for (const auto& part : pair.parts) {
          for (const auto& chunk : pair.chunks) sequences.push_back(settings_.prefix + chunk.text + end_of_sequence_ + part);
        }
        pairs[c].push_back(std::move(pair));
      }
    }
    std::vector<pretrained::TextInput> texts;
    texts.reserve(sequences.size());
    for (const auto& sequence : sequences) texts.push_back({sequence, std::nullopt});
    CheckpointVerifierOptions judge_options;
    judge_options.max_length = length_read(options_, settings_, checkpoint_->text_model().model().config());
    judge_options.batch_size = options_.batch_size;
    std::vector<std::size_t> truncated;
    const auto distributions = checkpoint_->judge(texts, judge_options, truncated);

    std::vector<ClaimVerdict> verdicts(inputs.size());
    std::size_t next = 0;
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      verdicts[c].claim_id = inputs[c].claim_id;
      if (inputs[c].documents.empty()) verdicts[c].reason = kNoRetrievedAbstract;
      for (std::size_t d = 0; d < inputs[c].documents.size(); ++d) {
        const CheckedPair& pair = pairs[c][d];
        // scores[p][k]: P(supported) of claim part p against chunk k.
        std::vector<std::vector<double>> scores(pair.parts.size());
        std::size_t cut = 0;
        for (auto& part_scores : scores) {
          for (std::size_t k = 0; k < pair.chunks.size(); ++k, ++next) {
            part_scores.push_back(distributions[next][kSupport]);
            cut += truncated[next] > 0 ? 1 : 0;
          }
        }
        verdicts[c].documents.push_back(document_verdict(inputs[c].documents[d], pair, scores, cut));
      }
    }
    return verdicts;
  }

  void save(const std::filesystem::path& file) const override {
    throw UsageError("--save-model " + file.string() + ": a checker is not saved; the folder " +
                     checkpoint_->text_model().folder().string() + " is the model");
  }

 private:
  [[nodiscard]] std::vector<DocumentChunk> document_chunks(const std::string& text) const {
    const auto& tokenizer = checkpoint_->text_model().tokenizer();
    const std::size_t counted_at_most = options_.max_length != 0 ? options_.max_length : settings_.max_length;
    const ItemCount count = [&](const std::string& item) -> std::size_t {
      if (settings_.counts_words) return word_count(item);
      // The reference counts with truncation at its length and without special tokens.
      const std::size_t tokens = tokenizer.encode(item, std::nullopt, 0).input_ids.size() - template_tokens_;
      return std::min(tokens, counted_at_most);
    };
    return checker_chunks(checker_items(text), count, settings_.chunk_size);
  }

  [[nodiscard]] DocumentVerdict document_verdict(const EvidenceDocument& document, const CheckedPair& pair,
                                                 const std::vector<std::vector<double>>& scores, std::size_t cut) const {
    DocumentVerdict verdict;
    verdict.doc_id = document.doc_id;
    verdict.truncated_sentences = cut;
    verdict.probabilities = {0.0, 0.0, 1.0};
    const auto spans = sentence_spans(document, pair.text);
    for (std::size_t s = 0; s < document.sentences.size(); ++s) verdict.sentence_scores.push_back({s, 0.0});
    if (pair.chunks.empty()) return verdict;  // no text: nothing to judge
    // Per claim part, the chunk of the largest P(supported) (ties: the first).
    std::vector<std::size_t> chosen;
    double total = 0.0;
    for (const auto& part_scores : scores) {
      const auto best = static_cast<std::size_t>(std::max_element(part_scores.begin(), part_scores.end()) - part_scores.begin());
      chosen.push_back(best);
      total += part_scores[best];
    }
    const double score = total / static_cast<double>(scores.size());
    verdict.probabilities = {score, 0.0, 1.0 - score};
    verdict.label = score > options_.threshold ? Label::support : Label::not_enough_info;
    for (std::size_t k = 0; k < pair.chunks.size(); ++k) {
      double chunk_score = 0.0;
      for (const auto& part_scores : scores) chunk_score = std::max(chunk_score, part_scores[k]);
      verdict.chunks.push_back({pair.chunks[k].text, chunk_score});
      for (std::size_t s = 0; s < spans.size(); ++s) {
        if (overlaps(spans[s], pair.chunks[k])) verdict.sentence_scores[s].score = std::max(verdict.sentence_scores[s].score, chunk_score);
      }
    }
    // The rationale: the sentences of the chosen chunks, in document order.
    for (std::size_t s = 0; s < spans.size() && verdict.rationale.size() < options_.max_rationale; ++s) {
      const bool in_chosen = std::any_of(chosen.begin(), chosen.end(), [&](std::size_t k) { return overlaps(spans[s], pair.chunks[k]); });
      if (in_chosen) verdict.rationale.push_back(s);
    }
    return verdict;
  }

  std::shared_ptr<const NliCheckpoint> checkpoint_;
  CheckerOptions options_;
  CheckerSettings settings_;
  std::string end_of_sequence_;
  std::size_t template_tokens_ = 0;
};

}  // namespace

std::string_view checker_kind_name(CheckerKind kind) {
  switch (kind) {
    case CheckerKind::nli: return "nli";
    case CheckerKind::minicheck: return "minicheck";
    case CheckerKind::alignscore: return "alignscore";
  }
  return "unknown";
}

CheckerKind parse_checker_kind(std::string_view name) {
  for (const auto kind : {CheckerKind::nli, CheckerKind::minicheck, CheckerKind::alignscore}) {
    if (name == checker_kind_name(kind)) return kind;
  }
  throw UsageError("checker '" + std::string(name) + "': expected nli, minicheck or alignscore");
}

CheckerSettings known_checker_settings(std::string_view model_type) {
  if (model_type == "t5") {
    return {.chunk_size = 500, .counts_words = true, .max_length = 2048, .prefix = "predict: ", .label_tokens = {3, 209}};
  }
  if (model_type == "deberta-v2") return {.chunk_size = 400, .counts_words = false, .max_length = 2048, .prefix = ""};
  return {.chunk_size = 400, .counts_words = false, .max_length = 512, .prefix = ""};
}

std::string checker_document_text(const EvidenceDocument& document) {
  if (!document.text.empty()) return document.text;
  std::string text;
  for (const auto& sentence : document.sentences) text += (text.empty() ? "" : " ") + sentence;
  return text;
}

std::unique_ptr<ClaimVerifier> make_checker_verifier(std::shared_ptr<const NliCheckpoint> checkpoint,
                                                     const CheckerOptions& options) {
  if (!checkpoint) throw InternalError("make_checker_verifier: no checkpoint");
  if (options.kind == CheckerKind::nli) throw InternalError("make_checker_verifier: the nli rule is the checkpoint verifier's");
  if (!(options.threshold > 0.0 && options.threshold < 1.0)) {
    throw UsageError("the checker's threshold must be in (0, 1), not " + std::to_string(options.threshold));
  }
  if (options.max_rationale == 0) throw UsageError("the checker's max_rationale must be >= 1");
  if (options.batch_size == 0) throw UsageError("the checker's batch size must be >= 1");
  const auto& model = checkpoint->text_model();
  const auto& config = model.model().config();
  CheckerSettings settings = known_checker_settings(config.model_type);
  if (options.chunk_size != 0) settings.chunk_size = options.chunk_size;
  const std::size_t read = length_read(options, settings, config);
  if (settings.chunk_size > static_cast<std::size_t>(config.max_tokens())) {
    throw UsageError("a chunk size of " + std::to_string(settings.chunk_size) + (settings.counts_words ? " words" : " tokens") +
                     " is more than the " + std::to_string(config.max_tokens()) + " positions of " + model.folder().string());
  }
  if (!settings.counts_words && settings.chunk_size > read) {
    throw UsageError("a chunk size of " + std::to_string(settings.chunk_size) + " tokens is more than the " +
                     std::to_string(read) + " tokens each sequence is cut at");
  }
  auto end_of_sequence = tokenizer::end_of_sequence_token(model.folder(), config.model_type);
  if (!end_of_sequence) {
    throw UsageError("the " + std::string(checker_kind_name(options.kind)) + " checker joins each chunk and the claim with the "
                     "tokenizer's end-of-sequence token, and the tokenizer of " + model.folder().string() +
                     " has none (no eos_token in its files, and its family defines none)");
  }
  return std::make_unique<CheckerVerifier>(std::move(checkpoint), options, std::move(settings), *std::move(end_of_sequence));
}

}  // namespace claimrag::verification
