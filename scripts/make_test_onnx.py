#!/usr/bin/python3
# Writes the tiny ONNX files of test/data/onnx/ (golden CLI tests), a few KB each.
"""Generates test/data/onnx/{tiny_cnn,tiny_seq,truncated}.onnx with onnx.helper.

tiny_cnn:  input [batch,3,16,16] -> Conv 3x3 (8) -> BatchNormalization -> Relu -> MaxPool 2
           -> GlobalAveragePool -> Flatten -> Gemm (8 -> 10): every weight an initializer.
tiny_seq:  input [batch, seq, 16] -> MatMul (16 -> 4): 'seq' must be set with --dim.
truncated: the first half of tiny_cnn.onnx.

Fixed-batch exports, made as people make them: torch.onnx.export(model, x, path) with no
dynamic_axes (the batch, 1, is baked into the input and into the Reshape/Expand targets):
fixed_patch_embed: input [1,3,16,16] -> Conv 4x4/4 (8) -> reshape(n, 8, 16) -> permute -> class
           token expand(n, -1, -1) + concat -> + position embedding -> token 0 -> Linear (8 -> 4),
           the patch embedding of torchvision's ViT (vit_b_16 fails at --batch 8 without the rule).
fixed_shuffle: input [1,8,4,4] -> chunk(2) -> Conv 1x1 on one half -> concat -> channel shuffle
           (view(n, 2, 4, h, w) -> transpose(1, 2) -> view(n, -1, h, w)), as torchvision's
           ShuffleNetV2 unit does.
fixed_attention: input [1,5,8] -> nn.MultiheadAttention(8, 2 heads, batch_first): its views
           hold the batch inside a dim ([seq, batch x heads, head_dim]), which the rule cannot
           move: the case docs/onnx.md says cannot follow --batch.
Usage: /usr/bin/python3 scripts/make_test_onnx.py   (Debian: python3-onnx, python3-torch)
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def init(name, *shape):
    rng = np.random.default_rng(sum(map(ord, name)))
    return nh.from_array(rng.standard_normal(shape).astype(np.float32), name)


def tiny_cnn():
    nodes = [
        h.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], "conv", pads=[1, 1, 1, 1]),
        h.make_node("BatchNormalization", ["c", "bn.weight", "bn.bias", "bn.mean", "bn.var"],
                    ["b"], "bn"),
        h.make_node("Relu", ["b"], ["r"], "relu"),
        h.make_node("MaxPool", ["r"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
        h.make_node("GlobalAveragePool", ["p"], ["g"], "gap"),
        h.make_node("Flatten", ["g"], ["f"], "flatten"),
        h.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["y"], "fc", transB=1),
    ]
    inits = [init("conv.weight", 8, 3, 3, 3), init("conv.bias", 8), init("bn.weight", 8),
             init("bn.bias", 8), init("bn.mean", 8), init("bn.var", 8),
             init("fc.weight", 10, 8), init("fc.bias", 10)]
    g = h.make_graph(nodes, "tiny_cnn", [h.make_tensor_value_info("x", T.FLOAT,
                                                                    ["batch", 3, 16, 16])],
                     [h.make_tensor_value_info("y", T.FLOAT, ["batch", 10])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="perfmodel")


def tiny_seq():
    g = h.make_graph([h.make_node("MatMul", ["x", "w"], ["y"], "proj")], "tiny_seq",
                     [h.make_tensor_value_info("x", T.FLOAT, ["batch", "seq", 16])],
                     [h.make_tensor_value_info("y", T.FLOAT, ["batch", "seq", 4])],
                     [init("w", 16, 4)])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="perfmodel")


def fixed_batch_exports(out):
    import torch
    from torch import nn

    class PatchEmbed(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_proj = nn.Conv2d(3, 8, kernel_size=4, stride=4)
            self.class_token = nn.Parameter(torch.randn(1, 1, 8))
            self.pos_embedding = nn.Parameter(torch.randn(1, 17, 8))
            self.head = nn.Linear(8, 4)

        def forward(self, x):
            n = x.shape[0]
            x = self.conv_proj(x)
            x = x.reshape(n, 8, 16).permute(0, 2, 1)
            x = torch.cat([self.class_token.expand(n, -1, -1), x], dim=1) + self.pos_embedding
            return self.head(x[:, 0])

    class Shuffle(nn.Module):
        def __init__(self):
            super().__init__()
            self.branch2 = nn.Conv2d(4, 4, kernel_size=1)

        def forward(self, x):
            x1, x2 = x.chunk(2, dim=1)
            x = torch.cat((x1, self.branch2(x2)), dim=1)
            n, c, h, w = x.size()
            x = x.view(n, 2, c // 2, h, w)
            x = torch.transpose(x, 1, 2).contiguous()
            return x.view(n, -1, h, w)

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attention = nn.MultiheadAttention(8, 2, batch_first=True)

        def forward(self, x):
            return self.self_attention(x, x, x, need_weights=False)[0]

    torch.manual_seed(0)
    for name, model, x in [("fixed_patch_embed", PatchEmbed(), torch.randn(1, 3, 16, 16)),
                           ("fixed_shuffle", Shuffle(), torch.randn(1, 8, 4, 4)),
                           ("fixed_attention", Attention(), torch.randn(1, 5, 8))]:
        path = os.path.join(out, name + ".onnx")
        torch.onnx.export(model.eval(), x, path, input_names=["x"], output_names=["y"])
        onnx.checker.check_model(onnx.load(path))


def main():
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "test", "data", "onnx")
    os.makedirs(out, exist_ok=True)
    cnn = tiny_cnn()
    onnx.checker.check_model(cnn)
    onnx.save(cnn, os.path.join(out, "tiny_cnn.onnx"))
    seq = tiny_seq()
    onnx.checker.check_model(seq)
    onnx.save(seq, os.path.join(out, "tiny_seq.onnx"))
    data = cnn.SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    fixed_batch_exports(out)


if __name__ == "__main__":
    main()
