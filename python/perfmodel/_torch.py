"""torch.nn.Module -> ONNX bytes in memory, for perfmodel.from_torch. torch is imported here
only, when from_torch is called."""
import copy
import io
import warnings


def _import_torch():
    try:
        import torch
    except ImportError:
        raise ImportError(
            "perfmodel.from_torch needs PyTorch (Debian: python3-torch; or pip install torch); "
            "without it, export the model to ONNX elsewhere and pass the file to "
            "perfmodel.predict") from None
    return torch


def export_onnx_bytes(module, example_inputs):
    """(ONNX bytes, batch of the first input). The export works on a copy in eval mode, so the
    caller's module (its mode, its weights) is unchanged, and keeps the network's own layers:

    - TrainingMode.PRESERVE on the eval-mode copy: BatchNorm stays a layer of its own (an
      EVAL export folds it into the convolution before it);
    - every floating-point parameter and buffer of the copy gets distinct random values:
      torch.onnx.export merges initializers of equal value (the all-ones BatchNorm weights of a
      freshly built model would become one), while tensors the module truly shares stay one
      tensor in the copy and are counted once, as module.parameters() counts them;
    - dim 0 of every input is the symbolic "batch", so predict's batch argument rebatches it.
    """
    torch = _import_torch()
    if not isinstance(module, torch.nn.Module):
        raise TypeError(f"from_torch: expected a torch.nn.Module, got {type(module).__name__}")
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    if not tensors:
        raise TypeError("from_torch: example_inputs must hold at least one tensor")
    batch = int(tensors[0].shape[0]) if tensors[0].dim() > 0 else None
    model = copy.deepcopy(module).eval()
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            if t.is_floating_point():
                t.uniform_(0.5, 1.5)
    names = [f"input{i}" for i in range(len(inputs))]
    dynamic = {n: {0: "batch"} for n, t in zip(names, inputs)
               if isinstance(t, torch.Tensor) and t.dim() > 0}
    buf = io.BytesIO()
    with warnings.catch_warnings():
        # torch warns that constant folding may change the parameters of a model exported in
        # training mode; the copy is in eval mode (PRESERVE only keeps BatchNorm unfolded).
        warnings.filterwarnings("ignore", message="It is recommended that constant folding")
        torch.onnx.export(model, inputs, buf, input_names=names, dynamic_axes=dynamic,
                          opset_version=13, training=torch.onnx.TrainingMode.PRESERVE,
                          do_constant_folding=True)
    return buf.getvalue(), batch
