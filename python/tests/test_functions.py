"""Every function on shipped models and files; to_dict() equals the CLI's --format json for
the same arguments (the CLI binary run beside it)."""
import os

import pytest

import perfmodel


def test_predict_shipped_model(root):
    p = perfmodel.predict("resnet50", "a100", batch=8, dtype="fp16")
    assert p.schema == "perfmodel.prediction/1"
    assert p.model.name == "resnet50"
    assert p.hardware.name == "a100"
    assert p.totals.predicted_seconds > 0
    assert len(p.layers) == p.totals.layers
    assert p.to_dict()["totals"]["predicted_seconds"] == p.totals.predicted_seconds


def test_predict_equals_cli(cli_json):
    p = perfmodel.predict("resnet50", "a100", batch=8, dtype="half", pass_="train")
    assert p.to_dict() == cli_json("predict", "--model", "resnet50", "--hw", "a100",
                                   "--batch", "8", "--dtype", "fp16", "--pass", "train")


def test_predict_fusion_power_equals_cli(cli_json):
    p = perfmodel.predict("mobilenet_v2", "h100", batch=4, fusion="inference", power=300,
                          runtime=0.002)
    assert p.to_dict() == cli_json("predict", "--model", "mobilenet_v2", "--hw", "h100",
                                   "--batch", "4", "--fusion", "inference", "--power", "300",
                                   "--runtime", "0.002")


def test_predict_calibrated_equals_cli(cli_json):
    p = perfmodel.predict("nin", "xeon-emr-2c", batch=5, calibration="xeon-emr-2c")
    assert p.calibrated is True
    assert p.to_dict() == cli_json("predict", "--model", "nin", "--hw", "xeon-emr-2c",
                                   "--batch", "5", "--calibration", "xeon-emr-2c")


def test_predict_layout_equals_cli(cli_json):
    # fp16 convolutions are NHWC-native on the GPU target: NCHW pays cuDNN's conversions.
    nchw = perfmodel.predict("resnet50", "h200", batch=32, dtype="fp16",
                             calibration="h200-kernels")
    cl = perfmodel.predict("resnet50", "h200", batch=32, dtype="fp16",
                           calibration="h200-kernels", layout="channels-last")
    assert cl.totals.predicted_seconds < nchw.totals.predicted_seconds
    assert cl.to_dict() == cli_json("predict", "--model", "resnet50", "--hw", "h200", "--batch",
                                    "32", "--dtype", "fp16", "--calibration", "h200-kernels",
                                    "--layout", "nhwc")
    # A CPU calibration ignores the layout.
    cpu = perfmodel.predict("nin", "xeon-emr-2c", batch=5, calibration="xeon-emr-2c")
    cpu_cl = perfmodel.predict("nin", "xeon-emr-2c", batch=5, calibration="xeon-emr-2c",
                               layout="nhwc")
    assert cpu_cl.to_dict() == cpu.to_dict()
    with pytest.raises(perfmodel.InputError, match="layout: unknown layout 'nwhc'"):
        perfmodel.predict("nin", "h200", layout="nwhc")


def test_predict_onnx_path_and_bytes(root, cli_json):
    path = os.path.join(root, "test/data/onnx/tiny_cnn.onnx")
    by_path = perfmodel.predict(path, "v100", batch=2)
    assert by_path.to_dict() == cli_json("predict", "--model", path, "--hw", "v100",
                                         "--batch", "2")
    with open(path, "rb") as f:
        by_bytes = perfmodel.predict(f.read(), "v100", batch=2)
    assert by_bytes.totals.to_dict() == by_path.totals.to_dict()
    assert [l.name for l in by_bytes.layers] == [l.name for l in by_path.layers]


def test_hw_dict_is_the_yaml_fields(root):
    yaml = pytest.importorskip("yaml", reason="python3-yaml is needed to read the spec here")
    with open(os.path.join(root, "hw_specs/a100.yaml")) as f:
        fields = yaml.safe_load(f)
    by_dict = perfmodel.predict("resnet18", fields, batch=4)
    by_name = perfmodel.predict("resnet18", "a100", batch=4)
    assert by_dict.to_dict() == by_name.to_dict()
    fields["name"] = "a100-fast-dram"
    fields["memory"][-1]["bandwidth"] = "3000 GB/s"
    faster = perfmodel.predict("resnet18", fields, batch=4)
    assert faster.hardware.name == "a100-fast-dram"
    assert faster.totals.predicted_seconds < by_name.totals.predicted_seconds


def test_sweep_equals_cli(cli_json):
    s = perfmodel.sweep("resnet50", ["t4", "a100"], batch=[1, 8], dtype="fp16",
                        sort="throughput")
    assert s.schema == "perfmodel.sweep/1"
    assert s.evaluated == 4
    assert s.to_dict() == cli_json("sweep", "--model", "resnet50", "--hw", "t4,a100",
                                   "--batch", "1,8", "--dtype", "fp16", "--sort", "throughput")


def test_llm_sweep_equals_cli(cli_json):
    s = perfmodel.sweep("llama-3-8b", "h100", batch=[0, 1, 8], prompt=[128, 9000],
                        generate=4, tp=[1, 2], sort="throughput")
    assert s.schema == "perfmodel.llm_sweep/1"
    assert s.evaluated == 4  # batch 0 and the 9,003 positions of a 8,192-position model skipped
    assert s.to_dict() == cli_json("sweep", "--model", "llama-3-8b", "--hw", "h100",
                                   "--batch", "0,1,8", "--prompt", "128,9000", "--generate", "4",
                                   "--tp", "1,2", "--sort", "throughput")
    assert len(s.to_pandas()) == 12
    with pytest.raises(perfmodel.InputError, match="prompt: must be at least 1"):
        perfmodel.sweep("llama-3-8b", "h100", prompt=0, generate=4)


def test_llm_equals_cli(root, cli_json):
    config = os.path.join(root, "models/llm/llama-2-7b.json")
    r = perfmodel.llm(config, "h200", batch=2, prompt=128, generate=4)
    assert r.schema == "perfmodel.llm/1"
    assert r.ttft_seconds > 0
    assert r.to_dict() == cli_json("llm", "--model", config, "--hw", "h200", "--batch", "2",
                                   "--prompt", "128", "--generate", "4")
    by_name = perfmodel.llm("llama-3-8b", "h100", prompt=512, generate=16, batch=4,
                            per_layer=True)
    assert by_name.to_dict() == cli_json("llm", "--model", "llama-3-8b", "--hw", "h100",
                                         "--prompt", "512", "--generate", "16", "--batch", "4",
                                         "--per-layer")


def test_trace_equals_cli(root, cli_json):
    path = os.path.join(root, "test/data/trace/concrete.json")
    t = perfmodel.trace(path, hw="v100")
    assert t.schema == "perfmodel.trace/2"
    assert t.to_dict() == cli_json("trace", path, "--hw", "v100")
    k = perfmodel.trace(path, view="kernels", sort="mean", top=0)
    assert "operators" not in k and len(k.kernels) > 0
    assert k.to_dict() == cli_json("trace", path, "--view", "kernels", "--sort", "mean",
                                   "--top", "0")


def test_kernels_equals_cli(root, cli_json):
    csv = os.path.join(root, "test/golden/kernels_roofline_table/runs.csv")
    k = perfmodel.kernels(csv, "v100")
    assert k.schema == "perfmodel.kernels/1"
    assert len(k.rows) > 0
    assert k.to_dict() == cli_json("kernels", "--hw", "v100", "--input", csv)


def test_hardware_equals_cli(cli_json):
    h = perfmodel.hardware("A100")
    assert h.schema == "perfmodel.hardware/1"
    assert h.to_dict() == cli_json("info", "--hw", "a100")


def test_lists_equal_cli(cli_json):
    hw = perfmodel.list_hw()
    assert "a100" in hw and "h100" in hw.names
    assert hw.to_dict() == cli_json("list", "hw")
    models = perfmodel.list_models()
    assert "resnet50" in models
    assert models.to_dict() == cli_json("list", "models")
    for name in ("nin", "vgg16", "bert_base"):
        assert perfmodel.predict(name, "a100").totals.flops > 0


def test_to_pandas_is_the_layer_table():
    pandas = pytest.importorskip("pandas", reason="pandas is optional (python3-pandas)")
    p = perfmodel.predict("resnet18", "a100")
    df = p.to_pandas()
    assert isinstance(df, pandas.DataFrame)
    assert len(df) == len(p.layers)
    assert list(df.columns) == list(p.to_dict()["layers"][0].keys())
    assert len(perfmodel.sweep("nin", "a100", batch=[1, 2]).to_pandas()) == 2
    llm = perfmodel.llm("llama-3-8b", "h100", prompt=64, generate=2, per_layer=True)
    assert len(llm.to_pandas()) == len(llm.prefill_layers.layers)
    assert len(llm.to_pandas("decode_layers.layers")) == len(llm.decode_layers.layers)
    with pytest.raises(ValueError, match="per_layer=True"):
        perfmodel.llm("llama-3-8b", "h100", prompt=64, generate=2).to_pandas()
    hw = perfmodel.hardware("a100")
    assert len(hw.to_pandas()) == len(hw.compute)
    assert list(hw.to_pandas("memory")["name"]) == [m.name for m in hw.memory]
