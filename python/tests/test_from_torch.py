"""from_torch on a fresh torchvision resnet18: the module's own parameter count and the
conv/matmul MACs of the ONNX path (test/data/onnx/zoo_reference.json, which
scripts/export_zoo.py measured with torch.profiler); the module is left as it was."""
import json
import os

import pytest

import perfmodel

torch = pytest.importorskip("torch", reason="PyTorch is not installed (python3-torch): "
                                            "from_torch is not tested")
torchvision = pytest.importorskip("torchvision", reason="torchvision is not installed "
                                                        "(python3-torchvision)")


def macs_by_kind(prediction):
    """Conv and matmul MACs of the prediction's layers, as test/onnx/zoo_test.cpp counts them."""
    conv = matmul = 0
    for layer in prediction.to_dict()["layers"]:
        if layer["kind"] in ("conv2d", "conv_transpose2d"):
            conv += layer["macs"]
        elif layer["kind"] in ("linear", "matmul"):
            matmul += layer["macs"]
    return conv, matmul


def test_resnet18_parameters_and_macs(root):
    model = torchvision.models.resnet18(weights=None)
    assert model.training  # fresh: train mode, every BatchNorm weight 1
    params = sum(p.numel() for p in model.parameters())
    assert params == 11689512
    p = perfmodel.from_torch(model, torch.randn(1, 3, 224, 224), hw="a100")
    assert p.totals.params == params
    with open(os.path.join(root, "test/data/onnx/zoo_reference.json")) as f:
        ref = json.load(f)["models"]["resnet18"]
    assert macs_by_kind(p) == (ref["conv_macs"], ref["matmul_macs"])
    # the ONNX path's model equals the shipped resnet18 (converted from the zoo's export)
    shipped = perfmodel.predict("resnet18", "a100", batch=1)
    assert p.totals.flops == shipped.totals.flops
    # the caller's module is unchanged
    assert model.training
    assert torch.all(model.bn1.weight == 1)


def test_from_torch_batch_and_predict_args():
    model = torchvision.models.resnet18(weights=None)
    p1 = perfmodel.from_torch(model, torch.randn(1, 3, 224, 224), hw="a100", dtype="fp16")
    p8 = perfmodel.from_torch(model, torch.randn(1, 3, 224, 224), hw="a100", dtype="fp16",
                              batch=8)
    assert p8.totals.flops == 8 * p1.totals.flops
    example8 = perfmodel.from_torch(model, torch.randn(8, 3, 224, 224), hw="a100", dtype="fp16")
    assert example8.totals.flops == p8.totals.flops
