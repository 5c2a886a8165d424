#include "claimrag/dense/train.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>
#include <spdlog/spdlog.h>

#include "claimrag/dense/row_sparse_adam.hpp"
#include "claimrag/error.hpp"
#include "claimrag/sequential_eigen.hpp"

namespace claimrag::dense {

namespace {

using Texts = std::vector<std::vector<std::int32_t>>;

// A renumbering of the table rows that puts every row the training texts can reach first (in
// increasing id order) and the others after. Adam is elementwise and the embedding bag only
// gathers and scatters rows, so training on row-permuted tables and permuting back gives the
// same bytes; what changes is that the rows Adam visits at every step lie together in memory
// instead of one in three scattered over the whole table (on SciFact-shaped data the 40
// epochs went from 7.2 s to 1.5 s on one thread).
std::vector<std::int32_t> training_rows_first(const DualEncoder<float>& model, const Texts& queries,
                                              const Texts& documents, const std::vector<TrainingPair>& pairs) {
  std::vector<char> reached(static_cast<std::size_t>(model.vocabulary_size()), 0);
  const auto mark = [&](const std::vector<std::int32_t>& ids, std::size_t limit) {
    for (std::size_t t = 0; t < std::min(ids.size(), limit); ++t) {
      const std::int32_t id = ids[t];
      if (id < 0 || id >= model.vocabulary_size()) throw InternalError("dense training: token id outside the vocabulary");
      reached[static_cast<std::size_t>(id)] = 1;
    }
  };
  for (const auto& pair : pairs) {
    if (pair.query < 0 || static_cast<std::size_t>(pair.query) >= queries.size() || pair.document < 0 ||
        static_cast<std::size_t>(pair.document) >= documents.size()) {
      throw InternalError("training pair refers to a query or document that does not exist");
    }
    mark(queries[static_cast<std::size_t>(pair.query)], model.max_tokens(Tower::query));
    mark(documents[static_cast<std::size_t>(pair.document)], model.max_tokens(Tower::document));
  }
  std::vector<std::int32_t> new_of_old(reached.size());
  std::int32_t next = 0;
  for (const bool first : {true, false}) {
    for (std::size_t id = 0; id < reached.size(); ++id) {
      if (static_cast<bool>(reached[id]) == first) new_of_old[id] = next++;
    }
  }
  return new_of_old;
}

// The texts the pairs refer to, renumbered; the others are left empty (training never reads them).
Texts renumber(const Texts& texts, const std::vector<TrainingPair>& pairs, bool queries,
               const std::vector<std::int32_t>& new_of_old) {
  Texts renumbered(texts.size());
  for (const auto& pair : pairs) {
    const auto index = static_cast<std::size_t>(queries ? pair.query : pair.document);
    if (!renumbered[index].empty() || texts[index].empty()) continue;
    renumbered[index].reserve(texts[index].size());
    for (const std::int32_t id : texts[index]) renumbered[index].push_back(new_of_old[static_cast<std::size_t>(id)]);
  }
  return renumbered;
}

// Renumbers the rows of every table of a model (row r moves to row new_of_old[r]) for the
// object's lifetime, and restores the model's own numbering when it ends, even by an exception.
class RowsRenumbered {
 public:
  RowsRenumbered(nn::ParameterRegistry<float>& registry, const std::vector<std::int32_t>& new_of_old)
      : registry_(registry), new_of_old_(new_of_old) {
    permute(/*back=*/false);
  }
  ~RowsRenumbered() { permute(/*back=*/true); }
  RowsRenumbered(const RowsRenumbered&) = delete;
  RowsRenumbered& operator=(const RowsRenumbered&) = delete;

 private:
  void permute(bool back) {
    for (std::size_t i = 0; i < registry_.size(); ++i) {
      auto& table = registry_[i].value;
      const nn::Matrix<float> source = table;
      for (std::size_t r = 0; r < new_of_old_.size(); ++r) {
        const auto old_row = static_cast<Eigen::Index>(r);
        const auto new_row = static_cast<Eigen::Index>(new_of_old_[r]);
        if (back) {
          table.row(old_row) = source.row(new_row);
        } else {
          table.row(new_row) = source.row(old_row);
        }
      }
    }
  }

  nn::ParameterRegistry<float>& registry_;
  const std::vector<std::int32_t>& new_of_old_;
};

// A batch's products are 128 × 128 × 128: Eigen would fork threads for each, which costs more
// than it saves and lets the blocking of a product depend on the thread count. Products run on
// one thread while training (sequential_eigen.hpp; Adam's row loop is where the threads go).

}  // namespace

std::vector<std::size_t> shuffled_order(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  return order;
}

std::vector<double> train(DualEncoder<float>& model, const std::vector<std::vector<std::int32_t>>& queries,
                          const std::vector<std::vector<std::int32_t>>& documents,
                          const std::vector<TrainingPair>& pairs, std::mt19937_64& rng) {
  if (pairs.empty()) throw UsageError("dense training: no training pairs");
  const DenseOptions& options = model.options();
  const std::vector<std::int32_t> new_of_old = training_rows_first(model, queries, documents, pairs);
  const Texts renumbered_queries = renumber(queries, pairs, true, new_of_old);
  const Texts renumbered_documents = renumber(documents, pairs, false, new_of_old);
  model.parameters().zero_grad();
  const RowsRenumbered renumbered(model.parameters(), new_of_old);

  std::vector<TrainingPair> sorted_pairs = pairs;
  std::sort(sorted_pairs.begin(), sorted_pairs.end());
  nn::AdamOptions adam_options;
  adam_options.learning_rate = options.learning_rate;
  RowSparseAdam<float> adam(model.parameters(), adam_options);
  const auto batch_size = static_cast<std::size_t>(options.batch_size);
  const SequentialEigenProducts sequential_products;

  std::vector<double> epoch_losses;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::size_t> order = shuffled_order(pairs.size(), rng);
    double loss_sum = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += batch_size) {
      const std::vector<std::size_t> batch(order.begin() + static_cast<std::ptrdiff_t>(begin),
                                           order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), begin + batch_size)));
      const ContrastiveBatch laid_out =
          make_contrastive_batch(model, renumbered_queries, renumbered_documents, pairs, batch, sorted_pairs);
      loss_sum += contrastive_forward_backward(model, laid_out) * static_cast<double>(batch.size());
      adam.mark_rows(model.table_index(Tower::query), laid_out.queries.ids);
      adam.mark_rows(model.table_index(Tower::document), laid_out.documents.ids);
      adam.step();
      adam.zero_grad();
    }
    epoch_losses.push_back(loss_sum / static_cast<double>(pairs.size()));
    if (!options.quiet) {
      const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
      spdlog::info("dense: epoch {}/{} mean loss {:.6f} ({:.3f} s)", epoch + 1, options.epochs, epoch_losses.back(),
                   seconds.count());
    }
  }
  return epoch_losses;
}

TrainedModel fit(std::int32_t vocabulary_size, const std::vector<std::vector<std::int32_t>>& queries,
                 const std::vector<std::vector<std::int32_t>>& documents,
                 const std::vector<TrainingPair>& pairs, const DenseOptions& options,
                 const std::function<void()>& alongside_initialisation) {
  std::mt19937_64 rng(options.seed);
  TrainedModel trained{DualEncoder<float>(vocabulary_size, options), {}};
  if (alongside_initialisation) {
    // Drawing the normal variates is sequential (a rejection method: no draw can be skipped to),
    // so the caller's independent work fills the other core meanwhile.
    std::thread initialise([&] { trained.model.initialise(rng); });
    std::exception_ptr failure;
    try {
      alongside_initialisation();
    } catch (...) {
      failure = std::current_exception();
    }
    initialise.join();
    if (failure) std::rethrow_exception(failure);
  } else {
    trained.model.initialise(rng);
  }
  trained.epoch_losses = train(trained.model, queries, documents, pairs, rng);
  return trained;
}

}  // namespace claimrag::dense
