#!/usr/bin/python3
"""Makes an ONNX model whose weights, over 2 GB, are ONNX external data (the loader's scale test).

  input x [batch, 16384] -> MatMul W1 [16384, 32768] -> Relu -> MatMul W2 [32768, 1024] -> y

W1 alone is 2 GiB (2^31 bytes: one more than a signed 32-bit count holds), W2 128 MiB; both
live in one data file beside the model (big.onnx.data), W2 at an offset past 2^31. The data
file is written in chunks (memory stays small); its bytes are a repeated pattern, which is
all the loader needs (it checks the sizes and never reads float weights).

  /usr/bin/python3 scripts/make_big_onnx.py /tmp/bigonnx     # writes big.onnx, big.onnx.data
  build/perfmodel predict --hw a100 --model /tmp/bigonnx/big.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

D_IN, D_HID, D_OUT = 16384, 32768, 1024


def external(name, dims, location, offset):
    t = T()
    t.name = name
    t.data_type = T.FLOAT
    t.dims.extend(dims)
    t.data_location = T.EXTERNAL
    length = int(np.prod(dims)) * 4
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v
    return t, length


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    data_name = "big.onnx.data"
    w1, n1 = external("W1", [D_IN, D_HID], data_name, 0)
    w2, n2 = external("W2", [D_HID, D_OUT], data_name, n1)
    chunk = np.full(1 << 22, 0.001, dtype=np.float32).tobytes()  # 16 MiB
    with open(os.path.join(out, data_name), "wb") as f:
        left = n1 + n2
        while left > 0:
            f.write(chunk[: min(left, len(chunk))])
            left -= min(left, len(chunk))
    nodes = [
        h.make_node("MatMul", ["x", "W1"], ["h"], "fc1"),
        h.make_node("Relu", ["h"], ["r"], "relu"),
        h.make_node("MatMul", ["r", "W2"], ["y"], "fc2"),
    ]
    g = h.make_graph(nodes, "big", [h.make_tensor_value_info("x", T.FLOAT, ["batch", D_IN])],
                     [h.make_tensor_value_info("y", T.FLOAT, ["batch", D_OUT])], [w1, w2])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    onnx.save_model(m, os.path.join(out, "big.onnx"))
    print("%s/big.onnx: weights %d bytes in %s" % (out, n1 + n2, data_name))


if __name__ == "__main__":
    main()
