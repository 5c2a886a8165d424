#include "claimrag/pretrained/classification_head.hpp"

#include "claimrag/error.hpp"
#include "claimrag/pretrained/dense_ops.hpp"

namespace claimrag::pretrained {

ClassificationHead load_classification_head(const ModelConfig& config, CheckpointTensors& tensors,
                                            const std::string& prefix) {
  const std::int64_t hidden = config.hidden_size;
  const auto labels = static_cast<std::int64_t>(config.labels.size());
  ClassificationHead head;
  switch (config.architecture) {
    case Architecture::bert:
      head.pooler = take_linear(tensors, prefix + "pooler.dense", hidden, hidden);
      head.activation = Activation::tanh;
      head.classifier = take_linear(tensors, "classifier", labels, hidden);
      break;
    case Architecture::roberta:
      // The reference's RoBERTa classifier has no base-model pooler: one stored (saved from the
      // bare model) is reported as unused.
      head.pooler = take_linear(tensors, "classifier.dense", hidden, hidden);
      head.activation = Activation::tanh;
      head.classifier = take_linear(tensors, "classifier.out_proj", labels, hidden);
      break;
    case Architecture::deberta_v2:
      head.pooler = take_linear(tensors, "pooler.dense", config.pooler_hidden_size, hidden);
      head.activation = config.pooler_hidden_act;
      head.classifier = take_linear(tensors, "classifier", labels, config.pooler_hidden_size);
      break;
    case Architecture::t5:
      // Its head is lm_head's label-token rows (t5_weights.hpp), not a pooled classifier.
      throw InternalError("load_classification_head called for a T5 checkpoint");
  }
  return head;
}

nn::Matrix<float> classify(const ClassificationHead& head, const nn::Matrix<float>& states) {
  const nn::Matrix<float> first = states.topRows(1);
  nn::Matrix<float> pooled;
  linear_forward(first, head.pooler, pooled);
  apply_activation(head.activation, pooled);
  nn::Matrix<float> logits;
  linear_forward(pooled, head.classifier, logits);
  return logits;
}

}  // namespace claimrag::pretrained
