"""The reference library's DebertaV2ForSequenceClassification (modeling_deberta_v2.py) in eval
mode, written as its modules are: disentangled self-attention over (batch × heads) with the
relative embeddings projected on every forward, log-bucketed relative positions, content-to-position
and position-to-content terms gathered from products against all 2 × span relative rows, the
masked softmax (XSoftmax), the relative embeddings' LayerNorm, the context pooler (first token,
dense, GELU) and the classifier. Module and parameter names are the reference's, so its state
dict loads a checkpoint written in the reference layout. Covers the configurations the benchmark
writes: relative_attention, share_att_key or separate pos_key_proj / pos_query_proj, no
absolute positions or a table of them, type_vocab_size 0 or more, embedding_size equal to
hidden_size. Needs Debian's python3-torch.
"""

import torch
from torch import nn

from bert_torch import Layer


def attention_types(cfg):
    kinds = cfg.get("pos_att_type") or []
    if isinstance(kinds, str):
        kinds = kinds.split("|")
    return [kind.strip().lower() for kind in kinds]


def make_log_bucket_position(relative_pos, bucket_size, max_position):
    """Distances of magnitude below bucket_size / 2 kept; larger ones log-spaced up to max_position."""
    sign = torch.sign(relative_pos)
    mid = bucket_size // 2
    near = (relative_pos < mid) & (relative_pos > -mid)
    abs_pos = torch.where(near, torch.tensor(mid - 1).type_as(relative_pos), torch.abs(relative_pos))
    log_pos = torch.ceil(torch.log(abs_pos / mid) / torch.log(torch.tensor((max_position - 1) / mid)) * (mid - 1)) + mid
    return torch.where(abs_pos <= mid, relative_pos.type_as(log_pos), log_pos * sign)


def build_relative_position(length, bucket_size, max_position):
    """[1, length, length]: the (bucketed) distance from query i to key j."""
    ids = torch.arange(length, dtype=torch.long)
    relative = ids[:, None] - ids[None, :]
    if bucket_size > 0 and max_position > 0:
        relative = make_log_bucket_position(relative, bucket_size, max_position)
    return relative.to(torch.long).unsqueeze(0)


class DisentangledSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.head_size = hidden // self.heads
        self.query_proj, self.key_proj, self.value_proj = (nn.Linear(hidden, hidden) for _ in range(3))
        self.share_att_key = cfg.get("share_att_key", False)
        self.pos_att_type = attention_types(cfg)
        self.position_buckets = cfg.get("position_buckets", -1)
        max_relative = cfg.get("max_relative_positions", -1)
        self.max_relative_positions = max_relative if max_relative >= 1 else cfg["max_position_embeddings"]
        self.pos_ebd_size = self.position_buckets if self.position_buckets > 0 else self.max_relative_positions
        if not self.share_att_key:
            if "c2p" in self.pos_att_type:
                self.pos_key_proj = nn.Linear(hidden, hidden)
            if "p2c" in self.pos_att_type:
                self.pos_query_proj = nn.Linear(hidden, hidden)

    def transpose_for_scores(self, x):
        """[batch, tokens, hidden] -> [batch × heads, tokens, head size]."""
        x = x.view(x.size(0), x.size(1), self.heads, self.head_size).permute(0, 2, 1, 3)
        return x.contiguous().view(-1, x.size(2), x.size(3))

    def forward(self, hidden, mask, relative_pos, rel_embeddings):
        query, key, value = (self.transpose_for_scores(proj(hidden)) for proj in (self.query_proj, self.key_proj, self.value_proj))
        scale_factor = 1 + ("c2p" in self.pos_att_type) + ("p2c" in self.pos_att_type)
        scale = torch.sqrt(torch.tensor(query.size(-1), dtype=torch.float) * scale_factor)
        scores = torch.bmm(query, key.transpose(-1, -2) / scale)
        scores = scores + self.disentangled_attention_bias(query, key, relative_pos, rel_embeddings, scale_factor)
        batch, length = hidden.size(0), hidden.size(1)
        scores = scores.view(batch, self.heads, length, length)
        # XSoftmax: masked positions at the dtype's minimum, softmax, masked probabilities zeroed.
        masked = ~mask.to(torch.bool)
        scores = scores.masked_fill(masked, torch.finfo(scores.dtype).min)
        probabilities = torch.softmax(scores, dim=-1).masked_fill(masked, 0)
        context = torch.bmm(probabilities.view(-1, length, length), value)
        context = context.view(batch, self.heads, length, self.head_size).permute(0, 2, 1, 3).contiguous()
        return context.view(batch, length, -1)

    def disentangled_attention_bias(self, query, key, relative_pos, rel_embeddings, scale_factor):
        span = self.pos_ebd_size
        length = query.size(-2)
        batch = query.size(0) // self.heads
        rel_embeddings = rel_embeddings[0:span * 2, :].unsqueeze(0)
        if self.share_att_key:
            pos_query = self.transpose_for_scores(self.query_proj(rel_embeddings)).repeat(batch, 1, 1)
            pos_key = self.transpose_for_scores(self.key_proj(rel_embeddings)).repeat(batch, 1, 1)
        else:
            pos_key = pos_query = None
            if "c2p" in self.pos_att_type:
                pos_key = self.transpose_for_scores(self.pos_key_proj(rel_embeddings)).repeat(batch, 1, 1)
            if "p2c" in self.pos_att_type:
                pos_query = self.transpose_for_scores(self.pos_query_proj(rel_embeddings)).repeat(batch, 1, 1)
        score = 0
        scale = torch.sqrt(torch.tensor(pos_key.size(-1) if pos_key is not None else pos_query.size(-1), dtype=torch.float) * scale_factor)
        if "c2p" in self.pos_att_type:
            c2p = torch.bmm(query, pos_key.transpose(-1, -2))
            index = torch.clamp(relative_pos + span, 0, span * 2 - 1)
            score = score + torch.gather(c2p, dim=-1, index=index.expand([query.size(0), length, length])) / scale
        if "p2c" in self.pos_att_type:
            p2c = torch.bmm(key, pos_query.transpose(-1, -2))
            index = torch.clamp(-relative_pos + span, 0, span * 2 - 1)
            p2c = torch.gather(p2c, dim=-1, index=index.expand([query.size(0), length, length])).transpose(-1, -2)
            score = score + p2c / scale
        return score


class Embeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.word_embeddings = nn.Embedding(cfg["vocab_size"], hidden)
        self.position_biased_input = cfg.get("position_biased_input", True)
        if self.position_biased_input:
            self.position_embeddings = nn.Embedding(cfg["max_position_embeddings"], hidden)
        if cfg["type_vocab_size"] > 0:
            self.token_type_embeddings = nn.Embedding(cfg["type_vocab_size"], hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=cfg["layer_norm_eps"])

    def forward(self, ids, types, mask):
        x = self.word_embeddings(ids)
        if self.position_biased_input:
            x = x + self.position_embeddings(torch.arange(ids.size(1)).unsqueeze(0))
        if hasattr(self, "token_type_embeddings"):
            x = x + self.token_type_embeddings(types)
        return self.LayerNorm(x) * mask.unsqueeze(-1).to(x.dtype)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layer = nn.ModuleList([Layer(cfg, DisentangledSelfAttention) for _ in range(cfg["num_hidden_layers"])])
        self.position_buckets = cfg.get("position_buckets", -1)
        max_relative = cfg.get("max_relative_positions", -1)
        self.max_relative_positions = max_relative if max_relative >= 1 else cfg["max_position_embeddings"]
        span = self.position_buckets if self.position_buckets > 0 else self.max_relative_positions
        self.rel_embeddings = nn.Embedding(span * 2, cfg["hidden_size"])
        self.norm_rel_ebd = [kind.strip() for kind in cfg.get("norm_rel_ebd", "none").lower().split("|")]
        if "layer_norm" in self.norm_rel_ebd:
            self.LayerNorm = nn.LayerNorm(cfg["hidden_size"], eps=cfg["layer_norm_eps"], elementwise_affine=True)

    def forward(self, x, attention_mask):
        rel_embeddings = self.rel_embeddings.weight
        if "layer_norm" in self.norm_rel_ebd:
            rel_embeddings = self.LayerNorm(rel_embeddings)
        # [batch, 1, tokens, tokens]: 1 where both the query and the key are real tokens.
        mask = (attention_mask[:, None, None, :] * attention_mask[:, None, :, None]).to(torch.uint8)
        relative_pos = build_relative_position(x.size(1), self.position_buckets, self.max_relative_positions)
        for layer in self.layer:
            x = layer(x, mask, relative_pos, rel_embeddings)
        return x


class Deberta(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embeddings, self.encoder = Embeddings(cfg), Encoder(cfg)


class ContextPooler(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Linear(cfg["hidden_size"], cfg.get("pooler_hidden_size", cfg["hidden_size"]))

    def forward(self, hidden):
        return nn.functional.gelu(self.dense(hidden[:, 0]))


class DebertaV2ForSequenceClassification(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.deberta = Deberta(cfg)
        self.pooler = ContextPooler(cfg)
        self.classifier = nn.Linear(cfg.get("pooler_hidden_size", cfg["hidden_size"]), len(cfg["id2label"]))

    def forward(self, ids, types, attention_mask):
        x = self.deberta.embeddings(ids, types, attention_mask)
        return self.classifier(self.pooler(self.deberta.encoder(x, attention_mask)))
