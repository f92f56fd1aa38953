#!/usr/bin/python3
# Writes the tiny ONNX files of test/data/onnx/ (golden CLI tests), a few KB each.
"""Generates test/data/onnx/{tiny_cnn,tiny_seq,truncated}.onnx with onnx.helper.

tiny_cnn:  input [batch,3,16,16] -> Conv 3x3 (8) -> BatchNormalization -> Relu -> MaxPool 2
           -> GlobalAveragePool -> Flatten -> Gemm (8 -> 10): every weight an initializer.
tiny_seq:  input [batch, seq, 16] -> MatMul (16 -> 4): 'seq' must be set with --dim.
truncated: the first half of tiny_cnn.onnx.
Usage: /usr/bin/python3 scripts/make_test_onnx.py
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


if __name__ == "__main__":
    main()
