"""The reference library's BertForSequenceClassification (modeling_bert.py) in eval mode, written
as its modules are: batched matmuls over heads, an additive attention mask, erf GELU, pooler,
classifier. Module and parameter names are the reference's, so its state dict loads a checkpoint
written in the reference layout. Needs Debian's python3-torch.
"""

import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.head_size = hidden // self.heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)

    def split(self, x):
        return x.view(x.size(0), x.size(1), self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size) + mask
        context = torch.matmul(nn.functional.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).contiguous()
        return context.view(x.size(0), x.size(1), -1)


class DenseNorm(nn.Module):
    def __init__(self, inputs, hidden, eps):
        super().__init__()
        self.dense, self.LayerNorm = nn.Linear(inputs, hidden), nn.LayerNorm(hidden, eps=eps)

    def forward(self, x, residual):
        return self.LayerNorm(self.dense(x) + residual)


class Attention(nn.Module):
    """Self-attention (BERT's, or another family's given as `self_attention`) and its output layer;
    `inputs` are whatever that self-attention reads beside the hidden states."""

    def __init__(self, cfg, self_attention=SelfAttention):
        super().__init__()
        self.self = self_attention(cfg)
        self.output = DenseNorm(cfg["hidden_size"], cfg["hidden_size"], cfg["layer_norm_eps"])

    def forward(self, x, *inputs):
        return self.output(self.self(x, *inputs), x)


class Intermediate(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Linear(cfg["hidden_size"], cfg["intermediate_size"])

    def forward(self, x):
        return nn.functional.gelu(self.dense(x))


class Layer(nn.Module):
    """One post-norm transformer layer, as BERT and DeBERTa-v2 have it."""

    def __init__(self, cfg, self_attention=SelfAttention):
        super().__init__()
        self.attention = Attention(cfg, self_attention)
        self.intermediate = Intermediate(cfg)
        self.output = DenseNorm(cfg["intermediate_size"], cfg["hidden_size"], cfg["layer_norm_eps"])

    def forward(self, x, *inputs):
        attended = self.attention(x, *inputs)
        return self.output(self.intermediate(attended), attended)


class Embeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.word_embeddings = nn.Embedding(cfg["vocab_size"], hidden)
        self.position_embeddings = nn.Embedding(cfg["max_position_embeddings"], hidden)
        self.token_type_embeddings = nn.Embedding(cfg["type_vocab_size"], hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=cfg["layer_norm_eps"])

    def forward(self, ids, types):
        positions = torch.arange(ids.size(1)).unsqueeze(0)
        x = self.word_embeddings(ids) + self.token_type_embeddings(types) + self.position_embeddings(positions)
        return self.LayerNorm(x)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layer = nn.ModuleList([Layer(cfg) for _ in range(cfg["num_hidden_layers"])])


class Pooler(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Linear(cfg["hidden_size"], cfg["hidden_size"])


class Bert(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embeddings, self.encoder, self.pooler = Embeddings(cfg), Encoder(cfg), Pooler(cfg)


class BertForSequenceClassification(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.bert = Bert(cfg)
        self.classifier = nn.Linear(cfg["hidden_size"], len(cfg["id2label"]))

    def forward(self, ids, types, attention_mask):
        # The reference's extended mask: 0 where attended, the dtype's minimum where masked.
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
        x = self.bert.embeddings(ids, types)
        for layer in self.bert.encoder.layer:
            x = layer(x, mask)
        pooled = torch.tanh(self.bert.pooler.dense(x[:, 0]))
        return self.classifier(pooled)
