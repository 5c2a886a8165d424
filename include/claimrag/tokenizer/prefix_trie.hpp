#pragma once
// A trie of keys (byte or code point strings), built once and walked from a position of a text:
// every key that is a prefix of the text there is found in one walk, shortest first, at a cost of
// the walk's length, not of the number of keys or of their lengths.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace claimrag::tokenizer {

template <typename Symbol>
class PrefixTrie {
 public:
  PrefixTrie() = default;
  /// `keys[i]` maps to `values[i]`; of two equal keys, the first one's value is kept.
  PrefixTrie(const std::vector<std::basic_string_view<Symbol>>& keys, const std::vector<std::int32_t>& values) {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    // Breadth first, without recursion (a key may be very long): each node takes the sorted keys
    // that pass through it, and its children are laid out together so that a walk finds a child
    // by binary search.
    struct Task {
      std::size_t node, begin, end, depth;
    };
    nodes_.push_back(Node{});
    std::deque<Task> tasks{{0, 0, order.size(), 0}};
    while (!tasks.empty()) {
      const Task task = tasks.front();
      tasks.pop_front();
      std::size_t at = task.begin;
      if (at < task.end && keys[order[at]].size() == task.depth) {
        nodes_[task.node].value = values[order[at]];
        while (at < task.end && keys[order[at]].size() == task.depth) ++at;
      }
      nodes_[task.node].first_edge = static_cast<std::uint32_t>(edges_.size());
      while (at < task.end) {
        const Symbol symbol = keys[order[at]][task.depth];
        std::size_t stop = at;
        while (stop < task.end && keys[order[stop]][task.depth] == symbol) ++stop;
        edges_.emplace_back(symbol, static_cast<std::uint32_t>(nodes_.size()));
        tasks.push_back(Task{nodes_.size(), at, stop, task.depth + 1});
        nodes_.push_back(Node{});
        at = stop;
      }
      nodes_[task.node].edge_count = static_cast<std::uint32_t>(edges_.size()) - nodes_[task.node].first_edge;
    }
  }

  /// Calls `found(length, value)` for every key that `text` starts with and that is at most
  /// `longest` symbols long, shortest first.
  template <typename Found>
  void walk(std::basic_string_view<Symbol> text, std::size_t longest, Found&& found) const {
    if (nodes_.empty()) return;
    std::uint32_t node = 0;
    const std::size_t limit = std::min(longest, text.size());
    for (std::size_t length = 0; length < limit; ++length) {
      const Node& here = nodes_[node];
      const auto begin = edges_.begin() + here.first_edge;
      const auto end = begin + here.edge_count;
      const auto edge = std::lower_bound(begin, end, text[length], [](const auto& e, Symbol s) {
        return std::char_traits<Symbol>::lt(e.first, s);
      });
      if (edge == end || edge->first != text[length]) return;
      node = edge->second;
      if (nodes_[node].value >= 0) found(length + 1, nodes_[node].value);
    }
  }

 private:
  struct Node {
    std::uint32_t first_edge = 0;
    std::uint32_t edge_count = 0;
    std::int32_t value = -1;  // -1: no key ends here
  };
  std::vector<Node> nodes_;
  std::vector<std::pair<Symbol, std::uint32_t>> edges_;  // each node's children, sorted by symbol
};

}  // namespace claimrag::tokenizer
