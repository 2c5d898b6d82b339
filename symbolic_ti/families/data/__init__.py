"""The families whose kernel comes from user data: ``similarity`` (an item-similarity matrix), ``embedding``
(item vectors, cosine similarity) and ``precomputed`` (a trial Gram matrix).

* :mod:`.loading`: the one reader of their data (files: CSV, JSON, ``.npy``; inline JSON; Python tables), entry
  by entry exactly (docs/families.md#data-files, docs/families.md#exactness-of-data).
* :mod:`.checks`: validation of an item-similarity matrix (square, symmetric, unit diagonal, PSD).
* :mod:`.common`: what ``similarity`` and ``embedding`` share (the validated data, the base class).
* :mod:`.similarity`, :mod:`.embedding`, :mod:`.precomputed`: the families; :mod:`.trial_gram`: a trial Gram
  matrix put into the standard trial order.

Before release 0.2 these were the modules ``data_family``, ``data_loading``, ``similarity_checks``,
``data_similarity``, ``embedding``, ``precomputed`` and ``precomputed_loading`` of :mod:`symbolic_ti.families`;
the old paths still import, with a :class:`DeprecationWarning`, until 0.3.
"""

from __future__ import annotations

from .checks import FLOAT_PSD_TOL, FLOAT_SYMMETRY_TOL, PSD_SAMPLE_POINTS, check_similarity_matrix
from .embedding import MAX_EXACT_SQUARE_ROOTS, Embedding
from .loading import EXACT_DECIMALS, DataArgument
from .precomputed import Precomputed
from .similarity import Similarity
from .trial_gram import items_of_size, read_gram, standard_trials

__all__ = ["Similarity", "Embedding", "Precomputed", "EXACT_DECIMALS", "DataArgument", "FLOAT_SYMMETRY_TOL",
           "FLOAT_PSD_TOL", "PSD_SAMPLE_POINTS", "MAX_EXACT_SQUARE_ROOTS", "check_similarity_matrix",
           "standard_trials", "items_of_size", "read_gram"]
