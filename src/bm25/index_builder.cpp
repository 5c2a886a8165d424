#include "index_builder.hpp"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/temporary_names.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::bm25::detail {

namespace {

/// A term's postings as (frequency, document length) pairs, reduced to their undominated pairs
/// (see InvertedIndex::bound_frequencies).
class TermBounds {
 public:
  void add(std::uint32_t frequency, std::uint32_t length) {
    if (frequency >= shortest_of_.size()) shortest_of_.resize(std::max<std::size_t>(frequency + 1, 2 * shortest_of_.size()), kNone);
    if (shortest_of_[frequency] == kNone) used_.push_back(frequency);
    shortest_of_[frequency] = std::min(shortest_of_[frequency], length);
  }
  /// Appends the undominated pairs, highest frequency first, and forgets the term.
  void take(std::vector<std::uint32_t>& frequencies, std::vector<std::uint32_t>& lengths) {
    // Only each frequency's shortest length can be undominated; going down the frequencies, a pair
    // is kept when it is shorter than every pair kept before it (which all have higher frequencies).
    std::sort(used_.begin(), used_.end(), std::greater<>());
    std::uint64_t shortest = UINT64_MAX;
    for (const std::uint32_t frequency : used_) {
      const std::uint32_t length = shortest_of_[frequency];
      shortest_of_[frequency] = kNone;
      if (length >= shortest) continue;
      shortest = length;
      frequencies.push_back(frequency);
      lengths.push_back(length);
    }
    used_.clear();
  }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> shortest_of_;  ///< per frequency, the shortest length seen (kNone: none)
  std::vector<std::uint32_t> used_;         ///< the frequencies seen
};

}  // namespace

IndexBuilder::IndexBuilder(std::optional<RunSpill> spill) : spill_(std::move(spill)) {
  if (!spill_) return;
  max_buffered_ = std::max<std::size_t>(1, spill_->budget_bytes / PostingBuffer::kBytesPerPosting);
  buffer_.reserve(max_buffered_);
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
  if (buffer_.size() > 0 && run_is_full(buffer_.size() + seen_.size())) spill_run();
  for (const std::uint32_t term : seen_) {
    buffer_.add(term, document, count_in_document_[term]);
    ++document_frequency_[term];
    count_in_document_[term] = 0;
    ++postings_;
  }
}

bool IndexBuilder::run_is_full(std::size_t buffered) const {
  if (!spill_) return false;
  if (buffered > max_buffered_) return true;
  const bool small = buffered * PostingBuffer::kBytesPerPosting <= spill_->small_run_bytes;
  return !small && buffered > (postings_ + seen_.size()) / 2;
}

void IndexBuilder::spill_run() {
  if (run_files_.empty()) io::create_parent_folder(spill_->target);
  const auto path = io::temporary_path_for(spill_->target);
  run_files_.push_back(path);
  write_run_file(buffer_.sort(terms_.terms()), path, spill_->target.string());
}

std::uint64_t IndexBuilder::finish(ImageSink& sink, std::string corpus_checksum, const ShardMetadataOf& shard_of) {
  std::vector<std::unique_ptr<RunCursor>> runs;
  if (!run_files_.empty() && buffer_.size() > 0) spill_run();  // the merge then holds no run in memory
  for (const auto& file : run_files_) runs.push_back(file_cursor(file, spill_->target.string()));
  // Terms in byte order, so that the saved index does not depend on the order of first sight.
  const auto& provisional = terms_.terms();
  std::vector<std::uint32_t> order(provisional.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return provisional[a] < provisional[b]; });
  // Nothing spilled: the one run is the buffer grouped in that order, without sorting it again.
  if (run_files_.empty()) runs.push_back(memory_cursor(buffer_.group(order)));
  buffer_ = {};
  count_in_document_ = {};
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
  nlohmann::json metadata{
      {"documents", doc_lengths_.size()},
      {"terms", order.size()},
      {"postings", postings},
      {"corpus_checksum", std::move(corpus_checksum)},
      {"tokenizer", "lowercase [a-z0-9]+ over title + \" \" + text"},
  };
  if (shard_of) {
    std::vector<std::string_view> sorted_terms;
    sorted_terms.reserve(order.size());
    for (const std::uint32_t t : order) sorted_terms.emplace_back(provisional[t]);
    metadata["shard"] = shard_of(sorted_terms);
  }
  writer.write<char>(format::kMetadata, metadata.dump());
  return writer.finish(doc_lengths_.size(), order.size(), postings, bound_frequencies_.size());
}

void IndexBuilder::merge_postings(ImageWriter& writer, const std::vector<std::uint32_t>& order,
                                  std::vector<std::unique_ptr<RunCursor>>& runs) {
  SectionStream documents = writer.open(format::kPostingDocuments, postings_ * 4);
  SectionStream frequencies = writer.open(format::kPostingFrequencies, postings_ * 4);
  TermBounds bounds;
  for (const std::uint32_t t : order) {
    std::uint64_t merged = 0;
    // Runs are in corpus order, so a term's postings come out in increasing document order.
    for (auto& run : runs) {
      if (run->done() || run->group().term != t) continue;
      const RunGroup& group = run->group();
      documents.append_values(group.documents);
      frequencies.append_values(group.frequencies);
      for (std::size_t p = 0; p < group.documents.size(); ++p) {
        bounds.add(group.frequencies[p], doc_lengths_[group.documents[p]]);
      }
      merged += group.documents.size();
      run->advance();
    }
    if (merged != document_frequency_[t]) {
      throw InternalError("bm25 index builder: term " + terms_.term(t) + " merged " + std::to_string(merged) +
                          " postings of " + std::to_string(document_frequency_[t]));
    }
    bounds.take(bound_frequencies_, bound_lengths_);
    bound_offsets_.push_back(bound_frequencies_.size());
  }
  documents.close();
  frequencies.close();
}

}  // namespace claimrag::bm25::detail
