#pragma once
// The sequence-classification heads of the three families, which share one shape: the first
// token's state through a dense layer and an activation, then a linear classifier.
// BERT: bert.pooler.dense + tanh, then classifier. RoBERTa: classifier.dense + tanh, then
// classifier.out_proj. DeBERTa: the ContextPooler's pooler.dense + pooler_hidden_act, then classifier.

#include <string>

#include "claimrag/pretrained/activation.hpp"
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"
#include "claimrag/pretrained/model_config.hpp"

namespace claimrag::pretrained {

struct ClassificationHead {
  LinearWeights pooler;  ///< [hidden, hidden]
  Activation activation = Activation::tanh;
  LinearWeights classifier;  ///< [labels, hidden]
};

/// Takes the head's tensors for `config` (one output per label of config.labels). `prefix` is
/// where the base model lies ("bert." or ""), under which BERT keeps its pooler.
ClassificationHead load_classification_head(const ModelConfig& config, CheckpointTensors& tensors,
                                            const std::string& prefix);

/// The logits [1, labels] of one sequence from its last hidden states [tokens, hidden].
nn::Matrix<float> classify(const ClassificationHead& head, const nn::Matrix<float>& states);

}  // namespace claimrag::pretrained
