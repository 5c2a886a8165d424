#include "index_builder.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/io/temporary_names.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::bm25::detail {

namespace {

/// Appends the undominated (frequency, length) pairs of one term's postings (see
/// InvertedIndex::bound_frequencies). `candidates` is scratch space.
void append_term_bounds(std::vector<std::pair<std::uint32_t, std::uint32_t>>& candidates,
                        std::vector<std::uint32_t>& frequencies, std::vector<std::uint32_t>& lengths) {
  // Highest frequency first, shortest first among equals; keep a pair only when it is shorter
  // than every pair kept before it (which all have higher or equal frequencies).
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::uint64_t shortest = UINT64_MAX;
  for (const auto& [frequency, length] : candidates) {
    if (length >= shortest) continue;
    shortest = length;
    frequencies.push_back(frequency);
    lengths.push_back(length);
  }
}

}  // namespace

IndexBuilder::IndexBuilder(std::optional<RunSpill> spill) : spill_(std::move(spill)) {
  if (spill_) max_buffered_ = std::max<std::size_t>(1, spill_->budget_bytes / PostingBuffer::kBytesPerPosting);
}

IndexBuilder::~IndexBuilder() {
  for (const auto& file : run_files_) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
  }
}

void IndexBuilder::add_document(std::string_view id, std::string_view title, std::string_view text) {
  if (doc_lengths_.size() == UINT32_MAX) throw UsageError("bm25 index: more than 2^32 - 1 documents");
  const auto document = static_cast<std::uint32_t>(doc_lengths_.size());
  doc_id_text_ += id;
  doc_id_offsets_.push_back(doc_id_text_.size());
  seen_.clear();
  std::uint32_t length = 0;
  auto visit = [&](std::string_view token) {
    ++length;
    const std::uint32_t term = terms_.intern(token);
    if (term == count_in_document_.size()) {
      count_in_document_.push_back(0);
      document_frequency_.push_back(0);
    }
    if (count_in_document_[term]++ == 0) seen_.push_back(term);
  };
  text::for_each_token(title, visit);
  text::for_each_token(text, visit);
  doc_lengths_.push_back(length);
  // A document's postings all go into one run, so runs hold increasing, disjoint documents.
  if (buffer_.size() > 0 && buffer_.size() + seen_.size() > max_buffered_) spill_run();
  for (const std::uint32_t term : seen_) {
    buffer_.add(term, document, count_in_document_[term]);
    ++document_frequency_[term];
    count_in_document_[term] = 0;
    ++postings_;
  }
}

void IndexBuilder::spill_run() {
  const auto path = io::temporary_path_for(spill_->target);
  run_files_.push_back(path);
  write_run_file(buffer_.sort(terms_.terms()), path, spill_->target.string());
}

std::uint64_t IndexBuilder::finish(ImageSink& sink, std::string corpus_checksum) {
  std::vector<std::unique_ptr<RunCursor>> runs;
  if (!run_files_.empty() && buffer_.size() > 0) spill_run();  // the merge then holds no run in memory
  for (const auto& file : run_files_) runs.push_back(file_cursor(file, spill_->target.string()));
  if (run_files_.empty()) runs.push_back(memory_cursor(buffer_.sort(terms_.terms())));
  buffer_ = {};
  count_in_document_ = {};
  // Terms in byte order, so that the saved index does not depend on the order of first sight.
  const auto& provisional = terms_.terms();
  std::vector<std::uint32_t> order(provisional.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return provisional[a] < provisional[b]; });
  std::vector<std::uint64_t> term_text_offsets{0};
  std::string term_text;
  std::vector<std::uint64_t> posting_offsets{0};
  for (const std::uint32_t t : order) {
    term_text += provisional[t];
    term_text_offsets.push_back(term_text.size());
    posting_offsets.push_back(posting_offsets.back() + document_frequency_[t]);
  }
  const std::uint64_t postings = posting_offsets.back();

  ImageWriter writer(sink);
  writer.write<std::uint64_t>(format::kDocIdOffsets, doc_id_offsets_);
  writer.write<char>(format::kDocIdText, doc_id_text_);
  writer.write<std::uint32_t>(format::kDocLengths, doc_lengths_);
  writer.write<std::uint64_t>(format::kTermTextOffsets, term_text_offsets);
  writer.write<char>(format::kTermText, term_text);
  writer.write<std::uint64_t>(format::kPostingOffsets, posting_offsets);
  merge_postings(writer, order, runs);
  writer.write<std::uint64_t>(format::kBoundOffsets, bound_offsets_);
  writer.write<std::uint32_t>(format::kBoundFrequencies, bound_frequencies_);
  writer.write<std::uint32_t>(format::kBoundLengths, bound_lengths_);
  const std::string metadata = nlohmann::json{
      {"documents", doc_lengths_.size()},
      {"terms", order.size()},
      {"postings", postings},
      {"corpus_checksum", std::move(corpus_checksum)},
      {"tokenizer", "lowercase [a-z0-9]+ over title + \" \" + text"},
  }.dump();
  writer.write<char>(format::kMetadata, metadata);
  return writer.finish(doc_lengths_.size(), order.size(), postings, bound_frequencies_.size());
}

void IndexBuilder::merge_postings(ImageWriter& writer, const std::vector<std::uint32_t>& order,
                                  std::vector<std::unique_ptr<RunCursor>>& runs) {
  SectionStream documents = writer.open(format::kPostingDocuments, postings_ * 4);
  SectionStream frequencies = writer.open(format::kPostingFrequencies, postings_ * 4);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;  // (frequency, length)
  for (const std::uint32_t t : order) {
    candidates.clear();
    // Runs are in corpus order, so a term's postings come out in increasing document order.
    for (auto& run : runs) {
      if (run->done() || run->group().term != t) continue;
      const RunGroup& group = run->group();
      documents.append_values(group.documents);
      frequencies.append_values(group.frequencies);
      for (std::size_t p = 0; p < group.documents.size(); ++p) {
        candidates.emplace_back(group.frequencies[p], doc_lengths_[group.documents[p]]);
      }
      run->advance();
    }
    if (candidates.size() != document_frequency_[t]) {
      throw InternalError("bm25 index builder: term " + terms_.term(t) + " merged " + std::to_string(candidates.size()) +
                          " postings of " + std::to_string(document_frequency_[t]));
    }
    append_term_bounds(candidates, bound_frequencies_, bound_lengths_);
    bound_offsets_.push_back(bound_frequencies_.size());
  }
  documents.close();
  frequencies.close();
}

}  // namespace claimrag::bm25::detail
