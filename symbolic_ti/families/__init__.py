"""Representation families, by name.

Each family is a :class:`~symbolic_ti.families.base.Family` subclass with a parameter table and a docstring
giving its kernel formula, parameter domains and source. Register new families in :data:`FAMILIES`.
"""

from __future__ import annotations

from typing import Any

from collections.abc import Mapping

from ..arguments import ARGUMENTS, check_mapping
from ..errors import FamilyError, ParameterError
from .base import Family, Parameter
from .exchangeable import Exchangeable
from .relu import ReluNNGP, ReluNTK
from .data import Embedding, Precomputed, Similarity
from .similarity import Geometric, ItemSimilarityFamily
from .compose import SumFamily
from .pnas import PnasHidden, PnasNTK
from .activations import ActivationNNGP, ActivationNTK

__all__ = ["Family", "Parameter", "Exchangeable", "Geometric", "ItemSimilarityFamily", "ReluNNGP", "ReluNTK",
           "Similarity", "Embedding", "SumFamily", "PnasHidden", "PnasNTK", "Precomputed", "ActivationNNGP", "ActivationNTK", "FAMILIES", "get_family",
           "make_family"]

#: Registered families by name.
FAMILIES: dict[str, type[Family]] = {Exchangeable.name: Exchangeable, Geometric.name: Geometric}

FAMILIES[ReluNNGP.name] = ReluNNGP
FAMILIES[ReluNTK.name] = ReluNTK
FAMILIES[Similarity.name] = Similarity
FAMILIES[Embedding.name] = Embedding
FAMILIES[PnasHidden.name] = PnasHidden
FAMILIES[PnasNTK.name] = PnasNTK
FAMILIES[Precomputed.name] = Precomputed
FAMILIES[ActivationNNGP.name] = ActivationNNGP
FAMILIES[ActivationNTK.name] = ActivationNTK


def get_family(name: str, **values: Any) -> Family:
    """Build the family called ``name`` with some parameter values (others stay symbolic).

    Parameters
    ----------
    name : str
        A key of :data:`FAMILIES`, e.g. ``"exchangeable"``.
    **values
        Exact parameter values; see the family's docstring for names and domains.

    Raises
    ------
    FamilyError
        For an unknown family name (the message lists the known ones).
    ParameterError
        For an unknown parameter or a value outside its domain.
    """
    try:
        cls = FAMILIES[name]
    except KeyError:
        raise FamilyError(f"unknown family {name!r}; known families: {', '.join(sorted(FAMILIES))}") from None
    return cls(**values)


def make_family(family: str | Family = "exchangeable", parameters: Mapping[str, Any] | None = None) -> Family:
    """Return ``family`` if it is a Family (then ``parameters`` must be empty), else build it by name.

    Parameters
    ----------
    family : str or Family
        A name of :data:`FAMILIES` or a family instance.
    parameters : mapping from parameter names to exact values, optional
        E.g. ``{"alpha": "1/10"}``; for an instance, values to change (:meth:`Family.with_values`).

    Raises
    ------
    FamilyError, ParameterError
        For an unknown family, a ``family`` or ``parameters`` of the wrong type, an unknown parameter or a value
        outside its domain.
    """
    values = check_mapping(parameters, "parameters")
    if isinstance(family, Family):
        return family.with_values(**values) if values else family
    if not isinstance(family, str):
        raise ParameterError(f"family must be {ARGUMENTS['family'].allowed}, got {family!r}")
    return get_family(family, **values)
