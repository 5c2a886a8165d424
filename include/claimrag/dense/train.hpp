#pragma once
// Training the dual encoder: in-batch contrastive loss, Adam, shuffled mini-batches.
//
// Each epoch visits every training pair once in an order drawn from the generator
// (Fisher–Yates with rng() % (i + 1), written out so the order does not depend on the standard
// library). Batches are consecutive slices of that order; the last, shorter batch is kept, as
// torch's DataLoader does by default (919 pairs at batch 128: 7 full batches and one of 23,
// 320 Adam steps over 40 epochs). The epoch's loss is the mean of its batch losses weighted by
// batch size, i.e. the mean loss per pair.

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "claimrag/dense/contrastive_loss.hpp"
#include "claimrag/dense/dual_encoder.hpp"

namespace claimrag::dense {

/// Trains an initialised `model` for model.options().epochs epochs and returns the mean loss of
/// each epoch. `queries` and `documents` are token-id sequences (ids < vocabulary size);
/// `pairs` index them (UsageError if empty, InternalError if out of range). Logs one line per
/// epoch through spdlog::info unless options().quiet. Parameters after training depend only on
/// the inputs and the generator's state, not on the number of OpenMP threads, and equal those
/// of the plain recipe (dense nn::Adam over whole tables) byte for byte; gradients are left zero.
std::vector<double> train(DualEncoder<float>& model, const std::vector<std::vector<std::int32_t>>& queries,
                          const std::vector<std::vector<std::int32_t>>& documents,
                          const std::vector<TrainingPair>& pairs, std::mt19937_64& rng);

/// A model trained from scratch and its per-epoch losses.
struct TrainedModel {
  DualEncoder<float> model;
  std::vector<double> epoch_losses;
};

/// The whole recipe: a generator seeded with options.seed initialises the tables, then
/// shuffles the pairs of every epoch. `alongside_initialisation` (optional) runs on the calling
/// thread while the tables are drawn on a thread of their own, and may fill `queries` and
/// `documents` (read only after it returns): the draws are one sequential stream, the same bytes
/// whatever runs beside them. Its exception, if any, is rethrown once the drawing has ended.
TrainedModel fit(std::int32_t vocabulary_size, const std::vector<std::vector<std::int32_t>>& queries,
                 const std::vector<std::vector<std::int32_t>>& documents,
                 const std::vector<TrainingPair>& pairs, const DenseOptions& options,
                 const std::function<void()>& alongside_initialisation = {});

/// The permutation of 0..n-1 that train() uses for one epoch (exposed for tests).
std::vector<std::size_t> shuffled_order(std::size_t n, std::mt19937_64& rng);

}  // namespace claimrag::dense
