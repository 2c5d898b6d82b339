"""Exact bridges to neighbouring tools: scikit-learn's ``KernelRidge`` and neural-tangents.

* :mod:`symbolic_ti.interop.sklearn_bridge`: the ridge as ``KernelRidge(alpha=...)`` and the Gram and cross-Gram
  matrices in scikit-learn's precomputed layout (train x train, test x train);
* :mod:`symbolic_ti.interop.neural_tangents_bridge`: the ridge as neural-tangents' ``diag_reg`` and the network
  families as ``neural_tangents.stax`` networks, with the normalizations stated.

Neither tool is imported here: the bridges produce numbers and code; docs/interop.md shows them in use.
"""

from __future__ import annotations

from .neural_tangents_bridge import StaxNetwork, diag_reg, stax_network, trial_inputs
from .sklearn_bridge import PrecomputedGram, kernel_ridge_alpha, precomputed_gram

__all__ = ["PrecomputedGram", "kernel_ridge_alpha", "precomputed_gram", "StaxNetwork", "diag_reg", "stax_network",
           "trial_inputs"]
