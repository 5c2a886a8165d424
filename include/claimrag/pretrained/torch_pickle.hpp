#pragma once
// The `data.pkl` of a PyTorch checkpoint, read by a small pickle machine that executes nothing:
// it knows only the opcodes and the globals torch's saver emits for a state dict (an ordered
// dict of tensors rebuilt by torch._utils._rebuild_tensor_v2 over storages named by persistent
// ids), and refuses anything else, naming the global or the opcode it met.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::pretrained {

/// One storage the pickle names: its element type and its length in elements.
struct TorchStorage {
  std::string dtype;  ///< safetensors' names: "F32", "F16", "BF16", "F64", "I64", "I32", "I16", "I8", "U8", "BOOL"
  std::int64_t elements = 0;
};

/// One tensor of the state dict: a view into a storage.
struct TorchTensor {
  std::string name;
  std::string storage;  ///< the storage's key: its member is `data/<key>` of the archive
  std::int64_t storage_offset = 0;  ///< in elements
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  ///< in elements
};

/// A state dict as the pickle describes it, tensors in the pickle's order.
struct TorchStateDict {
  std::vector<TorchTensor> tensors;
  std::map<std::string, TorchStorage> storages;
};

/// The pickle machine's memory is bounded: its values, stack, memo and storages cost at most this
/// many times the size of the file holding the pickle, plus kTorchPickleMemorySlack; a pickle
/// needing more is refused. A real state dict needs a small fraction of its file (the tensors'
/// bytes are most of it); one of tens of thousands of one-element tensors about 8 times it.
inline constexpr std::size_t kTorchPickleMemoryFactor = 16;
/// What any pickle may spend beyond kTorchPickleMemoryFactor times its file's size.
inline constexpr std::size_t kTorchPickleMemorySlack = std::size_t{1} << 20;

/// The bytes per element of a dtype named as in TorchStorage (0 for an unknown name).
std::uint64_t torch_element_bytes(const std::string& dtype);

/// Reads the pickle `bytes` of `file`, a file of `file_bytes` bytes (the archive holding it; at
/// least the pickle's size is taken). DataError naming the file for a global outside the allowed
/// set (naming it: "os.system", say), an opcode torch's saver never emits, truncated or malformed
/// data, a value of the dict that is not a tensor, a key given twice, or a storage named with two
/// types or lengths, or a pickle that needs more memory than the bound above.
TorchStateDict read_torch_pickle(std::string_view bytes, const std::string& file, std::uint64_t file_bytes);

}  // namespace claimrag::pretrained
