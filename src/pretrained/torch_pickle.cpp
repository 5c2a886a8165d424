#include "claimrag/pretrained/torch_pickle.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <set>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {
namespace {

// The callables a state dict's pickle names. Nothing is ever called: each is recognised and its
// effect reproduced on plain data.
enum class Callable { ordered_dict, rebuild_tensor, rebuild_parameter, storage_type };

struct AllowedGlobal {
  const char* module;
  const char* name;
  Callable callable;
  const char* dtype;  // storage types only
};

constexpr AllowedGlobal kAllowedGlobals[] = {
    {"collections", "OrderedDict", Callable::ordered_dict, ""},
    {"torch._utils", "_rebuild_tensor_v2", Callable::rebuild_tensor, ""},
    {"torch._utils", "_rebuild_parameter", Callable::rebuild_parameter, ""},
    {"torch", "FloatStorage", Callable::storage_type, "F32"},
    {"torch", "HalfStorage", Callable::storage_type, "F16"},
    {"torch", "BFloat16Storage", Callable::storage_type, "BF16"},
    {"torch", "DoubleStorage", Callable::storage_type, "F64"},
    {"torch", "LongStorage", Callable::storage_type, "I64"},
    {"torch", "IntStorage", Callable::storage_type, "I32"},
    {"torch", "ShortStorage", Callable::storage_type, "I16"},
    {"torch", "CharStorage", Callable::storage_type, "I8"},
    {"torch", "ByteStorage", Callable::storage_type, "U8"},
    {"torch", "BoolStorage", Callable::storage_type, "BOOL"},
};

enum class Kind { none, boolean, integer, text, tuple, list, dict, global, storage, tensor };

struct Value;
using ValuePtr = std::shared_ptr<Value>;

struct Value {
  Value() = default;
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;
  // Frees the values this one holds without recursion: a chain of containers linked through the
  // memo can be far deeper than the depth bound sees, and freeing it recursively would overflow
  // the C++ stack.
  ~Value() {
    std::vector<ValuePtr> pending = std::move(items);
    while (!pending.empty()) {
      ValuePtr last = std::move(pending.back());
      pending.pop_back();
      if (last.use_count() == 1) {
        for (auto& item : last->items) pending.push_back(std::move(item));
        last->items.clear();
      }
    }
  }

  Kind kind = Kind::none;
  bool memoized = false;          // stored in the memo: a value is stored once
  std::uint32_t depth = 1;        // nesting of tuples, lists and dicts, bounded below
  std::int64_t integer = 0;       // boolean, integer
  std::string text;               // text; a global's dotted name; a storage's key
  std::vector<ValuePtr> items;    // tuple, list; dict as key, value, key, value, ...
  const AllowedGlobal* global = nullptr;
  std::unique_ptr<TorchTensor> tensor;  // tensor only: most values are not, and stay small
};

// What one value costs on the heap: the object, make_shared's control block, the allocator's
// bookkeeping.
constexpr std::size_t kValueBytes = sizeof(Value) + 32;
// A vector grows by doubling, so an element may hold twice its size until the vector is freed.
constexpr std::size_t kSlotBytes = 2 * sizeof(ValuePtr);
// A storage's entry in the map of storages, beside its key.
constexpr std::size_t kStorageBytes = sizeof(TorchStorage) + 64;

// Far above what a state dict needs, low enough that a hostile file cannot exhaust memory.
constexpr std::size_t kMaxStack = 1U << 20;
// A state dict nests four deep; the bound keeps a hostile nesting from overflowing the C++ stack
// when the values are freed.
constexpr std::size_t kMaxDepth = 32;

class Machine {
 public:
  Machine(std::string_view bytes, const std::string& file, std::uint64_t file_bytes)
      : bytes_(bytes), file_(file), file_bytes_(file_bytes), budget_(kTorchPickleMemoryFactor * file_bytes + kTorchPickleMemorySlack) {}

  TorchStateDict run() {
    for (;;) {
      const std::size_t at = position_;
      const auto opcode = static_cast<unsigned char>(read(1)[0]);
      if (opcode == '.') break;
      step(opcode, at);
    }
    if (stack_.size() != 1 || !marks_.empty()) fail("the pickle ends with " + std::to_string(stack_.size()) + " values on its stack");
    return state_dict(*stack_.back());
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const { throw DataError(file_, reason); }

  std::string_view read(std::size_t count) {
    if (bytes_.size() - position_ < count) fail("the pickle is truncated at byte " + std::to_string(position_));
    const auto view = bytes_.substr(position_, count);
    position_ += count;
    return view;
  }
  template <typename T>
  T read_little() {
    T value{};
    const auto raw = read(sizeof value);
    std::memcpy(&value, raw.data(), sizeof value);
    return value;
  }
  std::string read_line() {
    const auto end = bytes_.find('\n', position_);
    if (end == std::string_view::npos) fail("the pickle is truncated inside a global's name");
    std::string line(bytes_.substr(position_, end - position_));
    position_ = end + 1;
    return line;
  }

  // Counts `bytes` of memory against the budget, refusing the file past it.
  void spend(std::size_t bytes) {
    spent_ += bytes;
    if (spent_ > budget_) {
      fail("the pickle needs more memory than " + std::to_string(kTorchPickleMemoryFactor) + " times the file's " +
           std::to_string(file_bytes_) + " bytes (at byte " + std::to_string(position_) +
           " of the pickle); a state dict needs far less");
    }
  }
  ValuePtr make(Kind kind) {
    spend(kValueBytes);
    auto value = std::make_shared<Value>();
    value->kind = kind;
    return value;
  }
  // None, the booleans and the empty tuple are never changed, so one value of each serves them all.
  ValuePtr shared_constant(ValuePtr& slot, Kind kind, std::int64_t integer) {
    if (!slot) {
      slot = make(kind);
      slot->integer = integer;
    }
    return slot;
  }

  void push(ValuePtr value) {
    if (stack_.size() >= kMaxStack) fail("the pickle's stack grows past " + std::to_string(kMaxStack) + " values");
    if (stack_.size() == stack_high_) {
      ++stack_high_;
      spend(kSlotBytes);
    }
    stack_.push_back(std::move(value));
  }
  ValuePtr pop() {
    const std::size_t floor = marks_.empty() ? 0 : marks_.back();
    if (stack_.size() <= floor) fail("the pickle pops from an empty stack at byte " + std::to_string(position_));
    auto value = std::move(stack_.back());
    stack_.pop_back();
    return value;
  }
  ValuePtr& top() {
    if (stack_.empty()) fail("the pickle reads an empty stack at byte " + std::to_string(position_));
    return stack_.back();
  }
  std::vector<ValuePtr> pop_to_mark() {
    if (marks_.empty()) fail("the pickle closes a MARK it never opened at byte " + std::to_string(position_));
    std::vector<ValuePtr> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
  }
  // A pickler numbers its memo entries in order, so the memo is a vector; the slots an index past
  // its end adds are paid for, so that a huge index is refused by the memory bound.
  void memoize(std::size_t index) {
    // Python's pickler memoizes each object once and recalls it after: storing a value under a
    // second index serves no pickle it writes, and would let a file flood the memo with one value.
    if (top()->memoized && (index >= memo_.size() || memo_[index] != top())) {
      fail("the pickle memoizes one value twice (memo index " + std::to_string(index) + "); Python's pickler never does");
    }
    top()->memoized = true;
    if (index >= memo_.size()) {
      const std::size_t added = index - memo_.size() + 1;
      if (added > budget_ / kSlotBytes) spend(budget_ + 1);
      spend(added * kSlotBytes);
      memo_.resize(index + 1);
    }
    memo_[index] = top();
  }
  void recall(std::size_t index) {
    if (index >= memo_.size() || !memo_[index]) fail("the pickle recalls memo entry " + std::to_string(index) + ", never stored");
    push(memo_[index]);
  }
  void deepen(Value& container, const std::vector<ValuePtr>& items) const {
    for (const auto& item : items) container.depth = std::max(container.depth, item->depth + 1);
    if (container.depth > kMaxDepth) fail("the pickle nests values more than " + std::to_string(kMaxDepth) + " deep");
  }
  void push_tuple(std::vector<ValuePtr> items) {
    if (items.empty()) {
      push(shared_constant(empty_tuple_, Kind::tuple, 0));
      return;
    }
    spend(kSlotBytes * items.size());
    auto tuple = make(Kind::tuple);
    deepen(*tuple, items);
    tuple->items = std::move(items);
    push(std::move(tuple));
  }
  void push_integer(std::int64_t number) {
    auto value = make(Kind::integer);
    value->integer = number;
    push(std::move(value));
  }
  void push_text(std::string_view text) {
    spend(text.size());
    auto value = make(Kind::text);
    value->text = std::string(text);
    push(std::move(value));
  }
  void push_boolean(bool flag) { push(shared_constant(flag ? true_ : false_, Kind::boolean, flag ? 1 : 0)); }

  void push_global(const std::string& module, const std::string& name) {
    for (std::size_t index = 0; index < std::size(kAllowedGlobals); ++index) {
      const AllowedGlobal& allowed = kAllowedGlobals[index];
      if (module == allowed.module && name == allowed.name) {
        // A global is never changed: one value per global serves every mention of it.
        ValuePtr& value = globals_[index];
        if (!value) {
          spend(module.size() + name.size() + 1);
          value = make(Kind::global);
          value->text = module + "." + name;
          value->global = &allowed;
        }
        push(value);
        return;
      }
    }
    fail("the pickle asks for the global '" + module + "." + name +
         "', which a PyTorch state dict never holds; nothing of the file was run (allowed: collections.OrderedDict, "
         "torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter and torch's storage types)");
  }

  void add_items(Value& target, const std::vector<ValuePtr>& items) {
    for (const auto& item : items) {
      if (item.get() == &target) fail("the pickle puts a container inside itself");
    }
    deepen(target, items);
    spend(kSlotBytes * items.size());
    if (target.kind == Kind::list) {
      target.items.insert(target.items.end(), items.begin(), items.end());
      return;
    }
    if (target.kind != Kind::dict || items.size() % 2 != 0) fail("the pickle sets items on something that is not a dict");
    target.items.insert(target.items.end(), items.begin(), items.end());
  }

  void step(unsigned char opcode, std::size_t at) {
    switch (opcode) {
      case 0x80: {  // PROTO
        const auto version = static_cast<unsigned char>(read(1)[0]);
        if (version < 2 || version > 5) fail("pickle protocol " + std::to_string(version) + " is not one torch writes");
        return;
      }
      case 0x95: (void)read_little<std::uint64_t>(); return;  // FRAME: a length hint
      case 'c': {  // GLOBAL
        const std::string module = read_line();
        const std::string name = read_line();
        push_global(module, name);
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        const auto name = pop();
        const auto module = pop();
        if (name->kind != Kind::text || module->kind != Kind::text) fail("STACK_GLOBAL without two names");
        push_global(module->text, name->text);
        return;
      }
      case 'q': memoize(static_cast<unsigned char>(read(1)[0])); return;  // BINPUT
      case 'r': memoize(read_little<std::uint32_t>()); return;            // LONG_BINPUT
      case 0x94: memoize(memo_.size()); return;                           // MEMOIZE
      case 'h': recall(static_cast<unsigned char>(read(1)[0])); return;   // BINGET
      case 'j': recall(read_little<std::uint32_t>()); return;             // LONG_BINGET
      case '(':  // MARK
        if (marks_.size() >= kMaxStack) fail("too many nested MARKs");
        if (marks_.size() == marks_high_) {
          ++marks_high_;
          spend(2 * sizeof(std::size_t));
        }
        marks_.push_back(stack_.size());
        return;
      case ')': push_tuple({}); return;  // EMPTY_TUPLE
      case 't': push_tuple(pop_to_mark()); return;  // TUPLE
      case 0x85: case 0x86: case 0x87: {  // TUPLE1, TUPLE2, TUPLE3
        std::vector<ValuePtr> items(static_cast<std::size_t>(opcode - 0x84));
        for (auto item = items.rbegin(); item != items.rend(); ++item) *item = pop();
        push_tuple(std::move(items));
        return;
      }
      case ']': push(make(Kind::list)); return;  // EMPTY_LIST
      case '}': push(make(Kind::dict)); return;  // EMPTY_DICT
      case 'a': {  // APPEND
        auto item = pop();
        add_items(*top(), {std::move(item)});
        return;
      }
      case 'e': case 'u': {  // APPENDS, SETITEMS
        auto items = pop_to_mark();
        add_items(*top(), items);
        return;
      }
      case 's': {  // SETITEM
        auto value = pop();
        auto key = pop();
        add_items(*top(), {std::move(key), std::move(value)});
        return;
      }
      case 'X': push_text(read(read_little<std::uint32_t>())); return;         // BINUNICODE
      case 0x8c: push_text(read(static_cast<unsigned char>(read(1)[0]))); return;  // SHORT_BINUNICODE
      case 'J': push_integer(read_little<std::int32_t>()); return;              // BININT
      case 'K': {  // BININT1: offsets, sizes and strides of a state dict, mostly; one value each
        const auto number = static_cast<unsigned char>(read(1)[0]);
        push(shared_constant(small_integers_[number], Kind::integer, number));
        return;
      }
      case 'M': push_integer(read_little<std::uint16_t>()); return;             // BININT2
      case 0x8a: {  // LONG1
        const auto count = static_cast<unsigned char>(read(1)[0]);
        if (count > 8) fail("an integer of " + std::to_string(count) + " bytes at byte " + std::to_string(at));
        const auto raw = read(count);
        std::uint64_t bits = 0;
        for (std::size_t i = 0; i < count; ++i) bits |= static_cast<std::uint64_t>(static_cast<unsigned char>(raw[i])) << (8 * i);
        if (count > 0 && count < 8 && (static_cast<unsigned char>(raw[count - 1]) & 0x80U) != 0) bits |= ~std::uint64_t{0} << (8 * count);
        push_integer(static_cast<std::int64_t>(bits));
        return;
      }
      case 0x88: push_boolean(true); return;   // NEWTRUE
      case 0x89: push_boolean(false); return;  // NEWFALSE
      case 'N': push(shared_constant(none_, Kind::none, 0)); return;  // NONE
      case 'Q': push(storage(*pop())); return;  // BINPERSID
      case 'R': {  // REDUCE
        auto arguments = pop();
        auto callable = pop();
        push(reduce(*callable, *arguments));
        return;
      }
      case 'b': {  // BUILD: only the attributes (`_metadata`) torch sets on its ordered dict
        auto state = pop();
        if (top()->kind != Kind::dict || state->kind != Kind::dict) fail("the pickle sets the state of something other than a dict");
        return;
      }
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", opcode);
        fail(std::string("the pickle uses opcode ") + hex + " at byte " + std::to_string(at) +
             ", which torch's saver never emits; nothing of the file was run");
      }
    }
  }

  // A persistent id: ('storage', storage type, key, location, number of elements).
  ValuePtr storage(const Value& id) {
    const bool shaped = id.kind == Kind::tuple && id.items.size() == 5 && id.items[0]->kind == Kind::text &&
                        id.items[0]->text == "storage" && id.items[1]->kind == Kind::global &&
                        id.items[1]->global->callable == Callable::storage_type && id.items[2]->kind == Kind::text &&
                        id.items[3]->kind == Kind::text && id.items[4]->kind == Kind::integer && id.items[4]->integer >= 0;
    if (!shaped) fail("a persistent id that is not a storage of a known type");
    const std::string& key = id.items[2]->text;
    const TorchStorage record{id.items[1]->global->dtype, id.items[4]->integer};
    spend(2 * key.size() + kStorageBytes);
    const auto [found, inserted] = storages_.emplace(key, record);
    if (!inserted && (found->second.dtype != record.dtype || found->second.elements != record.elements)) {
      fail("storage '" + key + "' is named with two types or lengths");
    }
    auto value = make(Kind::storage);
    value->text = key;
    return value;
  }

  std::vector<std::int64_t> sizes(const Value& tuple, const char* what) const {
    if (tuple.kind != Kind::tuple) fail(std::string("a tensor's ") + what + " is not a tuple");
    std::vector<std::int64_t> result;
    for (const auto& item : tuple.items) {
      if (item->kind != Kind::integer || item->integer < 0) fail(std::string("a tensor's ") + what + " holds a negative or non-integer value");
      result.push_back(item->integer);
    }
    return result;
  }

  ValuePtr reduce(const Value& callable, const Value& arguments) {
    if (callable.kind != Kind::global || arguments.kind != Kind::tuple) fail("the pickle calls something that is not an allowed global");
    const auto& args = arguments.items;
    switch (callable.global->callable) {
      case Callable::ordered_dict:
        if (!args.empty()) fail("collections.OrderedDict is called with arguments");
        return make(Kind::dict);
      case Callable::rebuild_tensor: {
        // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
        if ((args.size() != 6 && args.size() != 7) || args[0]->kind != Kind::storage || args[1]->kind != Kind::integer ||
            args[1]->integer < 0 || args[4]->kind != Kind::boolean || args[5]->kind != Kind::dict || !args[5]->items.empty()) {
          fail("torch._utils._rebuild_tensor_v2 is called with arguments torch never writes");
        }
        auto tensor = make(Kind::tensor);
        spend(sizeof(TorchTensor) + 2 * args[0]->text.size() + 2 * sizeof(std::int64_t) * (args[2]->items.size() + args[3]->items.size()));
        tensor->tensor = std::make_unique<TorchTensor>();
        tensor->tensor->storage = args[0]->text;
        tensor->tensor->storage_offset = args[1]->integer;
        tensor->tensor->shape = sizes(*args[2], "size");
        tensor->tensor->strides = sizes(*args[3], "stride");
        if (tensor->tensor->shape.size() != tensor->tensor->strides.size()) fail("a tensor's size and stride differ in length");
        return tensor;
      }
      case Callable::rebuild_parameter:
        if (args.size() != 3 || args[0]->kind != Kind::tensor) fail("torch._utils._rebuild_parameter is called with arguments torch never writes");
        {
          // A new value, as the parameter is a new object for the pickler: it memoizes both.
          auto parameter = make(Kind::tensor);
          spend(sizeof(TorchTensor));
          parameter->tensor = std::make_unique<TorchTensor>(*args[0]->tensor);
          return parameter;
        }
      case Callable::storage_type: break;
    }
    fail("the pickle calls " + callable.text + ", which is not callable here");
  }

  TorchStateDict state_dict(const Value& result) {
    if (result.kind != Kind::dict) fail("the pickle holds no dict of tensors");
    TorchStateDict dict;
    std::set<std::string> names;
    for (std::size_t i = 0; i < result.items.size(); i += 2) {
      const auto& key = *result.items[i];
      const auto& value = *result.items[i + 1];
      if (key.kind != Kind::text) fail("a key of the state dict is not a string");
      if (value.kind != Kind::tensor) fail("entry '" + key.text + "' of the state dict is not a tensor");
      if (!names.insert(key.text).second) fail("tensor '" + key.text + "' is stored twice");
      TorchTensor tensor = *value.tensor;
      tensor.name = key.text;
      dict.tensors.push_back(std::move(tensor));
    }
    dict.storages = storages_;
    return dict;
  }

  std::string_view bytes_;
  const std::string& file_;
  std::uint64_t file_bytes_;
  std::size_t position_ = 0;
  std::vector<ValuePtr> stack_;
  std::vector<std::size_t> marks_;
  std::vector<ValuePtr> memo_;
  std::map<std::string, TorchStorage> storages_;
  ValuePtr none_, true_, false_, empty_tuple_;
  std::array<ValuePtr, std::size(kAllowedGlobals)> globals_;
  std::array<ValuePtr, 256> small_integers_;
  std::size_t budget_;
  std::size_t spent_ = 0;
  std::size_t stack_high_ = 0;  // the stack's highest size yet, each slot counted once
  std::size_t marks_high_ = 0;
};

}  // namespace

std::uint64_t torch_element_bytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64") return 8;
  if (dtype == "F32" || dtype == "I32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16") return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL") return 1;
  return 0;
}

TorchStateDict read_torch_pickle(std::string_view bytes, const std::string& file, std::uint64_t file_bytes) {
  return Machine(bytes, file, std::max<std::uint64_t>(file_bytes, bytes.size())).run();
}

}  // namespace claimrag::pretrained
