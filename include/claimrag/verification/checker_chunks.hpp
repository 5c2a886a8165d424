#pragma once
// How the grounding checkers of the MiniCheck family cut a document before reading it, as their
// reference scoring code does:
//  1. the document is split at every '\n' into lines, each line into sentences
//     (text/punkt_sentences.hpp, NLTK Punkt's algorithm), and a "\n" item is put between the
//     sentences of consecutive lines (a blank line gives two "\n" in a row); a document without
//     sentences is one empty item;
//  2. items are gathered in order into chunks: an item joins the current chunk while the chunk's
//     count plus its own stays within the chunk size, else the current chunk is closed (even
//     empty) and the item starts the next; an item's count is its tokens by the checker's own
//     tokenizer without special tokens (at most the model's length), or its words (whitespace-
//     separated) for Flan-T5, where a "\n" has none;
//  3. a chunk's text is its items joined by one space, with each " \n " then written "\n" and the
//     ends stripped of whitespace; empty chunks are dropped.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::verification {

/// One item of step 1: a sentence, or a line break ("\n"), with its byte span in the document.
struct ChunkItem {
  std::string text;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// One chunk of step 3: its text and the byte span of the document from its first item's start to
/// its last item's end.
struct DocumentChunk {
  std::string text;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// Step 1 over `document`. DataError for invalid UTF-8.
std::vector<ChunkItem> checker_items(std::string_view document);

/// What an item counts for in step 2.
using ItemCount = std::function<std::size_t(const std::string& item)>;

/// The number of whitespace-separated words of `text` (Python's str.split()), Flan-T5's count.
std::size_t word_count(std::string_view text);

/// Steps 2 and 3 over `items` with chunks of at most `chunk_size` (> 0; InternalError otherwise).
std::vector<DocumentChunk> checker_chunks(const std::vector<ChunkItem>& items, const ItemCount& count,
                                          std::size_t chunk_size);

}  // namespace claimrag::verification
