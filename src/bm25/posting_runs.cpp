#include "posting_runs.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/io/file_output.hpp"

namespace claimrag::bm25::detail {

void PostingBuffer::add(std::uint32_t term, std::uint32_t document, std::uint32_t frequency) {
  postings_.push_back({term, document, frequency});
  if (term >= count_.size()) count_.resize(term + 1, 0);
  ++count_[term];
}

SortedRun PostingBuffer::sort(const std::vector<std::string>& terms) {
  std::vector<std::uint32_t> present;
  for (std::uint32_t t = 0; t < count_.size(); ++t) {
    if (count_[t] > 0) present.push_back(t);
  }
  std::sort(present.begin(), present.end(), [&](std::uint32_t a, std::uint32_t b) { return terms[a] < terms[b]; });
  return group(present);
}

SortedRun PostingBuffer::group(std::span<const std::uint32_t> terms_in_order) {
  SortedRun run;
  for (const std::uint32_t t : terms_in_order) {
    if (t < count_.size() && count_[t] > 0) run.terms.push_back(t);
  }
  // A counting sort by term: stable, so documents stay in arrival (increasing) order.
  std::vector<std::uint64_t> cursor(count_.size(), 0);
  std::uint64_t end = 0;
  for (const std::uint32_t t : run.terms) {
    cursor[t] = end;
    end += count_[t];
    run.group_ends.push_back(end);
  }
  run.documents.resize(postings_.size());
  run.frequencies.resize(postings_.size());
  for (const Posting& posting : postings_) {
    const std::uint64_t slot = cursor[posting.term]++;
    run.documents[slot] = posting.document;
    run.frequencies[slot] = posting.frequency;
  }
  postings_.clear();
  count_.assign(count_.size(), 0);
  return run;
}

namespace {

class MemoryCursor final : public RunCursor {
 public:
  explicit MemoryCursor(SortedRun run) : run_(std::move(run)) { advance(); }
  void advance() override {
    if (next_ == run_.terms.size()) {
      done_ = true;
      run_ = {};
      return;
    }
    const std::uint64_t begin = next_ == 0 ? 0 : run_.group_ends[next_ - 1];
    const std::uint64_t size = run_.group_ends[next_] - begin;
    group_ = {run_.terms[next_], std::span(run_.documents).subspan(begin, size),
              std::span(run_.frequencies).subspan(begin, size)};
    ++next_;
  }

 private:
  SortedRun run_;
  std::size_t next_ = 0;
};

class FileCursor final : public RunCursor {
 public:
  FileCursor(const std::filesystem::path& path, std::string shown) : in_(path, std::ios::binary), shown_(std::move(shown)) {
    if (!in_) throw DataError(shown_, "cannot reopen a temporary run file: " + path.string());
    advance();
  }
  void advance() override {
    std::uint32_t head[2];
    if (!in_.read(reinterpret_cast<char*>(head), sizeof head)) {
      if (!in_.eof() || in_.gcount() != 0) fail();
      done_ = true;
      return;
    }
    documents_.resize(head[1]);
    frequencies_.resize(head[1]);
    read(documents_);
    read(frequencies_);
    group_ = {head[0], documents_, frequencies_};
  }

 private:
  void read(std::vector<std::uint32_t>& values) {
    if (!in_.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * 4))) fail();
  }
  [[noreturn]] void fail() const { throw DataError(shown_, "a temporary run file was cut short"); }

  std::ifstream in_;
  std::string shown_;
  std::vector<std::uint32_t> documents_;
  std::vector<std::uint32_t> frequencies_;
};

}  // namespace

std::unique_ptr<RunCursor> memory_cursor(SortedRun run) { return std::make_unique<MemoryCursor>(std::move(run)); }

void write_run_file(const SortedRun& run, const std::filesystem::path& path, const std::string& shown) {
  io::FileOutput file(path, shown);
  auto& out = file.stream();
  const auto put = [&](std::span<const std::uint32_t> values) {
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size_bytes()));
  };
  std::uint64_t begin = 0;
  for (std::size_t g = 0; g < run.terms.size(); ++g) {
    const std::uint64_t size = run.group_ends[g] - begin;
    const std::uint32_t head[2] = {run.terms[g], static_cast<std::uint32_t>(size)};
    put(head);
    put(std::span(run.documents).subspan(begin, size));
    put(std::span(run.frequencies).subspan(begin, size));
    begin = run.group_ends[g];
  }
  file.finish();
}

std::unique_ptr<RunCursor> file_cursor(const std::filesystem::path& path, const std::string& shown) {
  return std::make_unique<FileCursor>(path, shown);
}

}  // namespace claimrag::bm25::detail
