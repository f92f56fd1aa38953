#!/usr/bin/python3
"""Writes the bad-input corpus's convolutions whose weight is not an initializer and has another
rank than the data, without kernel_shape (each crashed libonnx's shape inference before
io/onnx/onnx_schemas.cpp checked it). Needs the onnx package: /usr/bin/python3 THIS [DIR]."""
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def save(name, nodes, inputs, inits=(), out_type=T.FLOAT):
    outputs = [h.make_tensor_value_info("y", out_type, None)]
    graph = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, f"{sys.argv[1] if len(sys.argv) > 1 else '.'}/{name}.onnx")


x3 = h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8])
x4 = h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])
w4 = h.make_tensor_value_info("w", T.FLOAT, [4, 3, 3, 3])
conv = h.make_node("Conv", ["x", "w"], ["y"], name="c")
# The weight a graph input with a declared shape: rank 4 on rank-3 data, rank 3 on rank-4 data.
save("conv_weight_input_rank", [conv], [x3, w4])
save("conv_weight_input_rank_low", [conv], [x4, h.make_tensor_value_info("w", T.FLOAT, [4, 3, 3])])
# The weight another node's output.
w0 = nh.from_array(np.zeros((4, 3, 3, 3), np.float32), "w0")
save("conv_weight_node_rank", [h.make_node("Identity", ["w0"], ["w"], name="id"), conv], [x3], [w0])
# The convolution inside an If branch, its weight the outer graph's input.
then_g = h.make_graph([h.make_node("Conv", ["x", "w"], ["yt"], name="c")], "then", [],
                      [h.make_tensor_value_info("yt", T.FLOAT, None)])
else_g = h.make_graph([h.make_node("Identity", ["x"], ["ye"], name="e")], "else", [],
                      [h.make_tensor_value_info("ye", T.FLOAT, None)])
cond = nh.from_array(np.array(True), "cond")
save("conv_weight_if_rank",
     [h.make_node("If", ["cond"], ["y"], name="if", then_branch=then_g, else_branch=else_g)],
     [x3, w4], [cond])
# QLinearConv, its weight (input 3) a graph input.
xu = h.make_tensor_value_info("x", T.UINT8, [1, 3, 8])
wu = h.make_tensor_value_info("w", T.UINT8, [4, 3, 3, 3])
scale = nh.from_array(np.array(1.0, np.float32), "s")
zero = nh.from_array(np.array(0, np.uint8), "z")
save("qlinearconv_weight_input_rank",
     [h.make_node("QLinearConv", ["x", "s", "z", "w", "s", "z", "s", "z"], ["y"], name="c")],
     [xu, wu], [scale, zero], T.UINT8)
