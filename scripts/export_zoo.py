#!/usr/bin/python3
# Exports the model zoo to ONNX (random weights) and writes PyTorch's own reference figures.
"""Export the perfmodel model zoo and its PyTorch reference figures.

For every zoo model this script
  1. builds the network with random weights (torchvision, or the BERT-/GPT-2-style
     transformers defined below),
  2. exports it to ONNX (opset 13, dynamic batch axis) into --out (default /tmp/perfmodel-zoo),
  3. measures the reference figures with PyTorch itself: params = sum(p.numel()), the inference
     buffers that ONNX stores as initializers (BatchNorm running statistics, the causal mask),
     and the MACs of convolutions and matrix products from torch.profiler(with_flops=True)
     (aten::conv2d, mm, addmm, bmm, baddbmm; FLOPs / 2; the fused linear+GELU
     aten::_addmm_activation, which has no FLOP formula, from its recorded shapes),
  4. with --perfmodel BIN, converts each ONNX file to models/<name>.yaml with `BIN convert`.

The reference goes to test/data/onnx/zoo_reference.json (--reference); test/onnx checks it.
Python is only a generator of test inputs and reference numbers, never part of the product.

Usage: /usr/bin/python3 scripts/export_zoo.py [--out DIR] [--models a,b] [--perfmodel BIN]
"""
import argparse
import json
import math
import os
import subprocess
import sys

import torch
import torchvision
from torch import nn
from torch.profiler import ProfilerActivity, profile

SEQ = 128
GEMM_OPS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}


class BertBase(nn.Module):
    """BERT-base-style encoder: token embedding + learned positions, post-LN encoder, pooler."""

    def __init__(self, vocab=30522, d=768, heads=12, layers=12, seq=SEQ):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, seq, d) * 0.02)
        self.norm = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.pooler = nn.Linear(d, d)

    def forward(self, ids):
        x = self.norm(self.tok(ids) + self.pos)
        x = self.encoder(x)
        return torch.tanh(self.pooler(x[:, 0]))


class Gpt2Small(nn.Module):
    """GPT-2-small-style decoder: pre-LN blocks with a causal mask, final LN, LM head."""

    def __init__(self, vocab=50257, d=768, heads=12, layers=12, seq=SEQ):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, seq, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("causal_mask", torch.triu(torch.full((seq, seq), -math.inf), 1))

    def forward(self, ids):
        x = self.blocks(self.tok(ids) + self.pos, mask=self.causal_mask)
        return self.head(self.norm(x))


def build(name):
    """Returns (model, example input at batch 1)."""
    tv = torchvision.models
    image = torch.randn(1, 3, 224, 224)
    if name == "googlenet":  # eval mode never runs the aux heads: leave them out of the model
        return tv.googlenet(weights=None, aux_logits=False, init_weights=True), image
    if name == "bert_base":
        return BertBase(), torch.randint(0, 30522, (1, SEQ))
    if name == "gpt2_small":
        return Gpt2Small(), torch.randint(0, 50257, (1, SEQ))
    return getattr(tv, name)(weights=None), image


def randomize(model):
    """Gives every parameter and buffer distinct random values. Freshly initialised layers share
    values (LayerNorm/BatchNorm weights are all ones, TransformerEncoder deep-copies one layer)
    and torch.onnx.export deduplicates equal initializers, which would merge layers' weights."""
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
        for n, b in model.named_buffers():
            if b.is_floating_point() and n.endswith("running_var"):
                b.uniform_(0.5, 1.5)
            elif b.is_floating_point() and n.endswith("running_mean"):
                b.normal_(0.0, 0.02)


def export(model, example, path):
    # PRESERVE (model already in eval mode) keeps BatchNormalization separate from Conv, so the
    # ONNX file has the network's own layers; eval-mode export would fold BN into the conv.
    torch.onnx.export(model, (example,), path, opset_version=13, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": {0: "batch"},
                                                             "output": {0: "batch"}},
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True)


def reference(model, example):
    params = sum(p.numel() for p in model.parameters())
    # Float buffers the exporter stores as initializers. perfmodel marks BatchNorm running
    # statistics as buffers (bytes, not params); any other (the causal mask) it cannot tell
    # from a weight, so the test expects params + other_buffers.
    floats = [(n, b) for n, b in model.named_buffers() if b.is_floating_point()]
    buffers = sum(b.numel() for _, b in floats)
    other = sum(b.numel() for n, b in floats if not n.endswith(("running_mean", "running_var")))
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU], with_flops=True,
                                  record_shapes=True) as prof:
        model(example)
    conv = matmul = 0
    for e in prof.key_averages(group_by_input_shape=True):
        if e.key == "aten::conv2d":
            conv += e.flops // 2
        elif e.key in GEMM_OPS:
            matmul += e.flops // 2
        elif e.key == "aten::_addmm_activation":
            # Linear + GELU fused by nn.TransformerEncoderLayer in eval mode: the profiler has
            # no FLOP formula for it, so count its mm from the recorded shapes [M,K] x [K,N].
            (m, k), (_, n) = e.input_shapes[1], e.input_shapes[2]
            matmul += e.count * m * k * n
    return {"params": params, "buffers": buffers, "other_buffers": other, "conv_macs": conv,
            "matmul_macs": matmul,
            "batch": int(example.shape[0])}


ZOO = ["resnet50", "resnet18", "mobilenet_v2", "googlenet", "densenet121", "squeezenet1_1",
       "efficientnet_b0", "vit_b_16", "bert_base", "gpt2_small"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/perfmodel-zoo")
    ap.add_argument("--models", default=",".join(ZOO))
    ap.add_argument("--reference", default=os.path.join(root, "test/data/onnx/zoo_reference.json"))
    ap.add_argument("--perfmodel", help="perfmodel binary: convert each export to models/*.yaml")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    refs = {}
    if os.path.exists(args.reference):
        with open(args.reference) as f:
            refs = json.load(f).get("models", {})
    for name in args.models.split(","):
        model, example = build(name)
        model.eval()
        randomize(model)
        path = os.path.join(args.out, name + ".onnx")
        export(model, example, path)
        refs[name] = reference(model, example)
        print(name, refs[name], file=sys.stderr, flush=True)
        if args.perfmodel:
            subprocess.run([args.perfmodel, "convert", "--model", path, "-o",
                            os.path.join(root, "models", name + ".yaml")], check=True)
    doc = {"schema": "perfmodel.zoo_reference/1",
           "generator": "scripts/export_zoo.py (torch %s, torchvision %s)"
                        % (torch.__version__, torchvision.__version__),
           "models": {k: refs[k] for k in sorted(refs)}}
    tmp = args.reference + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, args.reference)


if __name__ == "__main__":
    main()
