#pragma once
// Loading a checkpoint allocates and frees hundreds of megabytes: each tensor is converted into
// its own matrix, the query, key and value projections are stacked into one, each linear weight is
// packed into panels and its unpacked copy released. By default the allocator hands every freed
// block of more than a few megabytes back to the kernel, which zero-fills the pages again when
// the next block is first written; on DeBERTa-v3-base that page clearing was a fifth of the
// loading time. Keeping freed memory for the next allocations lets the panels of a layer reuse
// the pages of the layer released before it.

namespace claimrag::pretrained {

/// Makes the allocator serve blocks below 256 MB from memory the process already holds and keep up
/// to 256 MB of freed memory for reuse instead of returning it. Process-wide and idempotent; the
/// peak resident memory does not grow (a freed block is reused, not added to). Does nothing where
/// the C library is not glibc.
void keep_freed_memory_for_reuse();

}  // namespace claimrag::pretrained
