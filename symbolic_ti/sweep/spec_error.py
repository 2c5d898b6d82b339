"""The error of an invalid sweep specification (re-exported by :mod:`symbolic_ti.sweep.spec`)."""

from __future__ import annotations

from ..errors import ParameterError

__all__ = ["SpecError"]


class SpecError(ParameterError):
    """An invalid sweep specification (a :class:`~symbolic_ti.errors.ParameterError`: exit 2 in the CLI)."""

    __module__ = "symbolic_ti.sweep.spec"  # (where it is documented and was defined before)
