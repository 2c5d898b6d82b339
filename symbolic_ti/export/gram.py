"""Writer of Gram matrices in scikit-learn's precomputed layout (``symbolic-ti derive --format gram``).

One JSON object (format ``symbolic_ti.gram``, version 2):

* ``meta``: the versioned block of every JSON report;
* ``task`` (``n``, ``exceptions``), ``family`` (its one-line description), ``ridge`` (exact text or
  ``"ridgeless"``), ``ridgeless`` (true for the ridgeless limit ``lambda -> 0+``) and, with a ridge only, ``alpha``
  (``KernelRidge(alpha=...)``, a float). A ridgeless export has no ``alpha``: the limit is not ridge 0
  (``KernelRidge(alpha=0)`` gives wrong predictions on a singular Gram matrix, docs/interop.md); its predictions
  are the minimum-norm solution ``K_test_train K_train^+ y_train`` (``numpy.linalg.lstsq``). Version 1 wrote
  ``alpha: 0`` there and had no ``ridgeless`` field;
* ``train_trials`` (m pairs ``[i, j]``), ``y_train`` (m targets), ``test_trials`` (every ordered trial);
* ``K_train`` (m x m floats) and ``K_test_train`` (q x m floats), and with exact data ``K_train_exact`` /
  ``K_test_train_exact`` (the same entries as exact sympy text);
* ``predictions``: the exact predictions of the test trials as floats (for the check, docs/interop.md).

Two lines of scikit-learn reproduce the predictions with a ridge, and numpy's least squares ridgeless
(docs/interop.md)::

    d = json.load(open("gram.json"))
    KernelRidge(alpha=d["alpha"], kernel="precomputed").fit(d["K_train"], d["y_train"]).predict(d["K_test_train"])
    # a task with counts (presentations) has sample_weight (and exact counts): fit(..., sample_weight=w)
    np.array(d["K_test_train"]) @ np.linalg.lstsq(d["K_train"], d["y_train"], rcond=None)[0]   # ridgeless
"""

from __future__ import annotations

import os
from typing import Any

from ..files import write_atomic
from ..interop.sklearn_bridge import PrecomputedGram
from ..display import dumps
from .values import meta_block
from .taskblock import task_block

__all__ = ["gram_dict", "gram_json", "write_gram"]

#: ``meta.format_version`` of the gram export.
GRAM_FORMAT_VERSION = 2  # 2: ``ridgeless`` added, no ``alpha`` for the ridgeless limit (1 wrote 0)


def gram_dict(gram: PrecomputedGram, predictions: dict[tuple[int, int], Any] | None = None) -> dict[str, Any]:
    """The JSON-ready dictionary of the module docstring.

    Parameters
    ----------
    gram : PrecomputedGram
        From :func:`symbolic_ti.interop.precomputed_gram`.
    predictions : dict trial -> exact number, optional
        The exact predictions (``Result.f``) to include as floats.

    Returns
    -------
    dict
    """
    task = gram.task
    out: dict[str, Any] = {
        "meta": meta_block("symbolic_ti.gram", GRAM_FORMAT_VERSION),
        "task": task_block(task),
        "family": gram.family.describe(),
        "ridge": "ridgeless" if gram.ridge is None else str(gram.ridge),
        "ridgeless": gram.ridge is None,
        **({} if gram.ridge is None else {"alpha": gram.alpha}),
        "train_trials": [list(t) for t in gram.train],
        "y_train": list(gram.targets),
        "test_trials": [list(t) for t in gram.test],
        "K_train": gram.float_train.tolist(),
        "K_test_train": gram.float_test_train.tolist(),
    }
    if not task.uniform_counts:  # the weights of the squared errors: KernelRidge.fit(..., sample_weight=...)
        out["sample_weight"] = gram.sample_weight.tolist()
        out["counts"] = [str(c) for c in gram.counts]
    if gram.k_train is not None and gram.k_test_train is not None:
        out["K_train_exact"] = [[str(v) for v in gram.k_train.row(r)] for r in range(gram.k_train.rows)]
        out["K_test_train_exact"] = [[str(v) for v in gram.k_test_train.row(r)]
                                     for r in range(gram.k_test_train.rows)]
    if predictions is not None:
        out["predictions"] = [float(predictions[t]) for t in gram.test]
    return out


def gram_json(gram: PrecomputedGram, predictions: dict[tuple[int, int], Any] | None = None) -> str:
    """:func:`gram_dict` as compact JSON text (one line; :func:`symbolic_ti.display.dumps`)."""
    return dumps(gram_dict(gram, predictions), indent=None)


def write_gram(path: str | os.PathLike[str], gram: PrecomputedGram,
               predictions: dict[tuple[int, int], Any] | None = None) -> None:
    """Write :func:`gram_json` to ``path`` atomically (:func:`symbolic_ti.files.write_atomic`).

    Raises
    ------
    ExportError
        If the file cannot be written (the message names the path); an existing file is then unchanged.
    """
    write_atomic(path, gram_json(gram, predictions))
