#!/usr/bin/python3
"""Trains the lab's two decoder-only transformers and writes their weights.

The text is the manual pages of the machine that trains (see
judge/src/lab/man_text.hpp), produced by `judge-lab-corpus`; nothing of it is
stored. The models read characters (96 of them: newline and printable
ASCII) and use grouped-query attention. The layout of the weights file is
the one judge/src/lab/model.cpp reads; docs/lab.md gives the command that
made the committed file and the figures it reached.
"""
import argparse
import math
import struct
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

VOCAB = 96
CONTEXT = 256
MAGIC = b"JLABMDL1"


def encode(raw):
    """Bytes to token ids: newline is 0, printable ASCII c is c - 31; the rest is dropped."""
    table = bytearray(range(256))
    table[10] = 0
    for c in range(32, 127):
        table[c] = c - 31
    dropped = bytes(c for c in range(256) if c != 10 and not 32 <= c <= 126)
    return torch.frombuffer(bytearray(raw.translate(bytes(table), dropped)), dtype=torch.uint8)


class Block(torch.nn.Module):
    def __init__(self, d, heads, kv_heads, head_dim, ff):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, head_dim
        self.ln1 = torch.nn.LayerNorm(d)
        self.wq = torch.nn.Linear(d, heads * head_dim, bias=False)
        self.wk = torch.nn.Linear(d, kv_heads * head_dim, bias=False)
        self.wv = torch.nn.Linear(d, kv_heads * head_dim, bias=False)
        self.wo = torch.nn.Linear(heads * head_dim, d, bias=False)
        self.ln2 = torch.nn.LayerNorm(d)
        self.w1 = torch.nn.Linear(d, ff)
        self.w2 = torch.nn.Linear(ff, d)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.ln1(x)
        q = self.wq(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        group = self.heads // self.kv_heads  # query head h reads key/value head h // group
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.wo(attended)
        return x + self.w2(F.gelu(self.w1(self.ln2(x))))


class Decoder(torch.nn.Module):
    def __init__(self, d, layers, heads, kv_heads, head_dim, ff):
        super().__init__()
        self.config = (VOCAB, CONTEXT, d, layers, heads, kv_heads, head_dim, ff)
        self.tok = torch.nn.Embedding(VOCAB, d)
        self.pos = torch.nn.Embedding(CONTEXT, d)
        self.blocks = torch.nn.ModuleList(Block(d, heads, kv_heads, head_dim, ff) for _ in range(layers))
        self.lnf = torch.nn.LayerNorm(d)
        torch.nn.init.normal_(self.tok.weight, std=0.02)
        torch.nn.init.normal_(self.pos.weight, std=0.02)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.lnf(x) @ self.tok.weight.T  # tied output embedding

    def tensors(self):
        yield self.tok.weight
        yield self.pos.weight
        for blk in self.blocks:
            yield from (blk.ln1.weight, blk.ln1.bias, blk.wq.weight, blk.wk.weight, blk.wv.weight, blk.wo.weight,
                        blk.ln2.weight, blk.ln2.bias, blk.w1.weight, blk.w1.bias, blk.w2.weight, blk.w2.bias)
        yield self.lnf.weight
        yield self.lnf.bias


def batches(data, batch, generator):
    while True:
        starts = torch.randint(0, len(data) - CONTEXT - 1, (batch,), generator=generator)
        windows = torch.stack([data[s:s + CONTEXT + 1] for s in starts.tolist()]).long()
        yield windows[:, :-1], windows[:, 1:]


@torch.no_grad()
def mean_loss(model, data, windows=64):
    """Nats per character over `windows` evenly spaced windows of `data`."""
    total, count = 0.0, 0
    step = (len(data) - CONTEXT - 1) // windows
    for i in range(windows):
        w = data[i * step:i * step + CONTEXT + 1].long()[None]
        logits = model(w[:, :-1])
        total += F.cross_entropy(logits[0], w[0, 1:], reduction="sum").item()
        count += CONTEXT
    return total / count


def train(name, model, data, held_out, steps, batch, lr, seed):
    generator = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01, betas=(0.9, 0.98))
    start = time.time()
    for step, (x, y) in zip(range(steps), batches(data, batch, generator)):
        for group in opt.param_groups:  # warm up, then cosine to a tenth
            warm = min(1.0, (step + 1) / 100)
            group["lr"] = lr * warm * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / steps)))
        loss = F.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"{name} step {step} loss {loss.item():.3f} ({time.time() - start:.0f} s)", flush=True)
    model.eval()
    print(f"{name}: held-out loss {mean_loss(model, held_out):.3f} nats/char", flush=True)


def write(path, models):
    with open(path, "wb") as out:
        out.write(MAGIC)
        out.write(struct.pack("<I", len(models)))
        for model in models:
            out.write(struct.pack("<8I", *model.config))
            for tensor in model.tensors():
                values = tensor.detach().to(torch.float32).contiguous().flatten().tolist()
                out.write(struct.pack(f"<{len(values)}f", *values))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", required=True, help="the judge-lab-corpus executable")
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--draft-steps", type=int, default=800)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    text = subprocess.run([args.corpus, "training"], check=True, capture_output=True).stdout
    held = subprocess.run([args.corpus, "held-out"], check=True, capture_output=True).stdout
    data, held_out = encode(text), encode(held)
    print(f"training text {len(data)} characters, held-out {len(held_out)}", flush=True)
    target = Decoder(d=128, layers=4, heads=4, kv_heads=2, head_dim=32, ff=512)
    draft = Decoder(d=64, layers=2, heads=2, kv_heads=1, head_dim=32, ff=256)
    train("target", target, data, held_out, args.steps, args.batch, 3e-3, seed=1)
    train("draft", draft, data, held_out, args.draft_steps, args.batch, 4e-3, seed=2)
    write(args.out, [target, draft])


if __name__ == "__main__":
    sys.exit(main())
