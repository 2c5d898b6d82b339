r"""NNGP and NTK of fully connected networks with an activation ``phi``, weight and bias scales ``W_std``,
``b_std``, and ``depth`` hidden layers (families ``activation-nngp``, ``activation-ntk``).

The network (neural-tangents' ``"ntk"`` parameterization, ``stax/linear.py::Dense``)
---------------------------------------------------------------------------------
Trial inputs ``x = (e_i; e_j)/sqrt(2)`` (unit norm, ``x . x' = t`` in ``{0, 1/2, 1}``), ``depth = L`` hidden
layers, ``L + 1`` dense layers, all with the same ``W_std = w`` and ``b_std = b``:

.. math::
    \Sigma_1(t) = w^2 t + b^2,\qquad
    \Sigma_{h+1}(t) = w^2\, V_\phi(\Sigma_h(1), \Sigma_h(t)) + b^2,\qquad
    \Theta_1 = \Sigma_1,\quad \Theta_{h+1}(t) = \Sigma_{h+1}(t) + w^2\, \Theta_h(t)\, D_\phi(\Sigma_h(1), \Sigma_h(t)),

with ``V(q, c) = E[phi(u) phi(v)]`` and ``D(q, c) = E[phi'(u) phi'(v)]`` for centred Gaussians of variance ``q``
and covariance ``c`` (Lee et al. 2018; Jacot et al. 2018; Novak et al., "Neural Tangents", ICLR 2020). The NNGP
is ``Sigma_{L+1}``, the NTK ``Theta_{L+1}`` (every layer trained); the families' kernels are these divided by
their diagonal (``t = 1``), so ``kappa_o = K(1/2)/K(1)``, ``kappa_d = K(0)/K(1)``, and the ridge is relative to
the diagonal (:func:`symbolic_ti.interop.diag_reg`).

Closed forms (``rho = c / q``):

* ``erf``: ``V = (2/pi) asin(2c / (1 + 2q))``, ``D = (4/pi) / sqrt((1 + 2q)^2 - 4c^2)`` (Williams 1997,
  "Computing with infinite networks"; neural-tangents ``stax.Erf``);
* ``sign``: ``V = (2/pi) asin(rho)``, ``D = 0`` (the derivative vanishes almost everywhere; neural-tangents
  ``stax.Sign`` sets the NTK contribution to zero, so the NTK equals the NNGP);
* ``step`` (``1(u > 0)``): ``V = 1/4 + asin(rho)/(2 pi)``, ``D = 0`` (Cho & Saul 2009, ``k_0``; the same
  convention).

* ``a u + b relu(u)`` (:func:`~.activation_quadrature.relu_combination`: every activation that is linear on
  ``u > 0`` and on ``u < 0``, so ReLU ``Max(u, 0)``, ``Abs(u) = 2 relu(u) - u``, leaky ``Max(u, s u)``, ``Min(u, 0) = u - relu(u)``):
  ``V = (a^2 + a b) c + b^2 q k_1(rho) / 2``, ``D = a^2 + a b + b^2 k_0(rho) / 2`` with the arc-cosine kernels
  ``k_1, k_0`` of Cho & Saul 2009 (eq. (6), ``n = 1, 0``; :func:`~symbolic_ti.families.relu_kappas.arccos_kernel`),
  ``E[u relu(v)] = c / 2`` (the two halves ``v > 0``, ``v < 0`` of ``E[u v] = c`` are equal by the symmetry
  ``(u, v) -> (-u, -v)``) and ``E[1(u > 0) 1(v > 0)] = k_0(rho) / 2``.

Any other activation, a sympy expression in ``u`` (``tanh(u)``, ``log(1 + exp(u))``, GELU
``u*(1 + erf(u/sqrt(2)))/2``, ...), is numeric, labelled as such. A smooth one goes through Gaussian quadrature in
mpmath (:mod:`symbolic_ti.families.activation_quadrature`); one with a kink (:func:`~.activation_quadrature.has_kink`)
that the certified path takes (kinks at ``u = 0``) through the certified balls of
:mod:`symbolic_ti.families.activation_certified` at :data:`KINK_DPS` digits, because Gauss-Hermite's error estimate
is not a bound across a kink; any other kinked one through Gauss-Hermite with an
:class:`~symbolic_ti.errors.UntrustedNumericWarning` (:attr:`ActivationNNGP.kernel_method` says which).
``certified_kappas(dps)`` gives the values as certified balls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import mpmath
import sympy as sp

from ..errors import ParameterError
from .activation_certified import CertifiedKappas, acb_function, certified_kappas, growth_bound
from .activation_quadrature import QuadratureKernel, derivative_ae, has_kink, parse_activation, relu_combination
from .base import Parameter, Trial
from .layered import LayeredFamily
from .kernel_values import kernel_value, register_kernel_values
from .relu_kappas import arccos_derivative, arccos_kernel, relu_conjunctivity

__all__ = ["CLOSED_FORMS", "KINK_DPS", "ActivationNNGP", "ActivationNTK", "activation_kappas", "relu_combination",
           "relu_combination_kappas"]

#: Digits of the certified values used for kinked activations (within the quadrature tolerance ``1e-10``).
KINK_DPS = 12

_HALF = sp.Rational(1, 2)
_W = Parameter("W_std", sp.Symbol("W_std", positive=True), domain=sp.Interval.open(0, sp.oo),
               description="weight scale of every dense layer (neural-tangents W_std); default 1")
_B = Parameter("b_std", sp.Symbol("b_std", nonnegative=True), domain=sp.Interval(0, sp.oo),
               description="bias scale of every dense layer (neural-tangents b_std); default 0 (no bias)")
_DEPTH = Parameter("depth", sp.Symbol("depth", integer=True, positive=True), domain=sp.Interval(1, sp.oo),
                   description="number of hidden layers L (L + 1 dense layers); default 1", integer=True)

Dual = Callable[[sp.Expr, sp.Expr], sp.Expr]


def _erf_v(q: sp.Expr, c: sp.Expr) -> sp.Expr:
    return 2 / sp.pi * sp.asin(2 * c / (1 + 2 * q))


def _erf_d(q: sp.Expr, c: sp.Expr) -> sp.Expr:
    return 4 / sp.pi / sp.sqrt((1 + 2 * q) ** 2 - 4 * c ** 2)


#: activation name -> (V, D, whether phi is odd, so that t = 0 stays 0 without bias)
CLOSED_FORMS: dict[str, tuple[Dual, Dual, bool]] = {
    "erf": (_erf_v, _erf_d, True),
    "sign": (lambda q, c: 2 / sp.pi * sp.asin(c / q), lambda q, c: sp.Integer(0), True),
    "step": (lambda q, c: sp.Rational(1, 4) + sp.asin(c / q) / (2 * sp.pi), lambda q, c: sp.Integer(0), False),
}


def activation_kappas(activation: str, depth: int, w2: Any = 1, b2: Any = 0,
                      kind: str = "nngp") -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(kappa_o, kappa_d, diagonal)`` of a closed-form activation's NNGP or NTK, exactly (module docstring).

    Parameters
    ----------
    activation : {"erf", "sign", "step"}
    depth : int >= 1
        Hidden layers.
    w2, b2 : exact numbers or symbols
        ``W_std^2 > 0`` and ``b_std^2 >= 0``.
    kind : {"nngp", "ntk"}

    Returns
    -------
    (kappa_o, kappa_d, diagonal) : sympy expressions; ``kappa = K(t)/K(1)`` and the unnormalized ``K(1)``

    Raises
    ------
    ParameterError
        For an unknown activation or kind, or a depth that is not an integer >= 1.

    Examples
    --------
    >>> activation_kappas("sign", 1)[:2]
    (1/3, 0)
    """
    if activation not in CLOSED_FORMS:
        raise ParameterError(f"activation {activation!r} has no closed form here; closed forms: "
                             f"{', '.join(CLOSED_FORMS)}")
    if kind not in ("nngp", "ntk"):
        raise ParameterError(f"kind must be 'nngp' or 'ntk', got {kind!r}")
    if isinstance(depth, bool) or not isinstance(depth, (int, sp.Integer)) or int(depth) < 1:
        raise ParameterError(f"depth must be an integer >= 1 (hidden layers), got {depth!r}")
    v, d, _ = CLOSED_FORMS[activation]
    return _recursion(v, d, int(depth), w2, b2, kind)


def _recursion(v: Dual, d: Dual, depth: int, w2: Any, b2: Any, kind: str) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """The exact recursion of the module docstring with the duals ``v`` and ``d``."""
    w2, b2 = sp.sympify(w2), sp.sympify(b2)
    ts = (sp.Integer(1), _HALF, sp.Integer(0))
    sigma = [w2 * t + b2 for t in ts]
    theta = list(sigma)
    for _ in range(depth):
        q = sigma[0]
        new = [w2 * v(q, c) + b2 for c in sigma]
        theta = [n_ + w2 * th * d(q, c) for n_, th, c in zip(new, theta, sigma, strict=True)]
        sigma = new
    out = theta if kind == "ntk" else sigma
    ko, kd = out[1] / out[0], out[2] / out[0]
    if depth == 1:
        ko, kd = sp.simplify(ko), sp.simplify(kd)
    return ko, kd, out[0]


def relu_combination_kappas(a: Any, b: Any, depth: int, w2: Any = 1, b2: Any = 0,
                            kind: str = "nngp") -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(kappa_o, kappa_d, diagonal)`` of the NNGP or NTK of the activation ``a u + b relu(u)``, exactly.

    The arc-cosine duals of the module docstring (Cho & Saul 2009, eq. (6), ``n = 0, 1``) in the recursion of
    :func:`activation_kappas`.

    Parameters
    ----------
    a, b : exact real numbers, not both 0
    depth : int >= 1
    w2, b2 : exact numbers, ``W_std^2 > 0``, ``b_std^2 >= 0``
    kind : {"nngp", "ntk"}

    Returns
    -------
    (kappa_o, kappa_d, diagonal) : sympy expressions (in pi, sqrt, acos)

    Raises
    ------
    ParameterError
        For a zero activation, an unknown kind, or a depth that is not an integer >= 1.

    Examples
    --------
    >>> relu_combination_kappas(0, 1, 1)[:2]
    (sqrt(3)/(2*pi) + 1/3, 1/pi)
    """
    a, b = sp.sympify(a), sp.sympify(b)
    if a == 0 and b == 0:
        raise ParameterError("activation: a u + b relu(u) with a = b = 0 is zero; its kernel is undefined")
    if kind not in ("nngp", "ntk"):
        raise ParameterError(f"kind must be 'nngp' or 'ntk', got {kind!r}")
    if isinstance(depth, bool) or not isinstance(depth, (int, sp.Integer)) or int(depth) < 1:
        raise ParameterError(f"depth must be an integer >= 1 (hidden layers), got {depth!r}")
    lin = a * a + a * b

    def v(q: sp.Expr, c: sp.Expr) -> sp.Expr:
        return lin * c + b * b * q * arccos_kernel(c / q) / 2

    def d(q: sp.Expr, c: sp.Expr) -> sp.Expr:
        return lin + b * b * arccos_derivative(c / q) / 2

    ko, kd, diag = _recursion(v, d, int(depth), w2, b2, kind)
    return (sp.expand(ko), sp.expand(kd), diag) if depth == 1 else (ko, kd, diag)


def _explicit(name: str) -> Callable[[int, int, sp.Expr, sp.Expr, sp.Expr], sp.Expr]:
    def explicit(kind: int, depth: int, dot: sp.Expr, w2: sp.Expr, b2: sp.Expr) -> sp.Expr:
        ko, kd, _ = activation_kappas(name, depth, w2, b2, "ntk" if kind == 1 else "nngp")
        return ko if dot == _HALF else kd
    return explicit


for _name in CLOSED_FORMS:
    register_kernel_values(_name, _explicit(_name))


def _numeric_recursion(activation: str, kind: str, depth: int, w2: Any, b2: Any, use_mp: bool) -> tuple[Any, Any]:
    """The recursion of the module docstring in float or mpmath arithmetic (apart from the sympy forms)."""
    m: Any = mpmath if use_mp else __import__("math")
    pi = mpmath.mp.pi if use_mp else m.pi

    def v(q: Any, c: Any) -> Any:
        if activation == "erf":
            return 2 / pi * m.asin(2 * c / (1 + 2 * q))
        r = min(max(c / q, -1), 1)
        return 2 / pi * m.asin(r) if activation == "sign" else 0.25 + m.asin(r) / (2 * pi)

    def d(q: Any, c: Any) -> Any:
        return 4 / pi / m.sqrt((1 + 2 * q) ** 2 - 4 * c * c) if activation == "erf" else 0 * q

    return _dual_layers(v, d, kind, depth, w2, b2, (1, 0.5 if not use_mp else mpmath.mpf(1) / 2, 0))


def _dual_layers(v: Callable[[Any, Any], Any], d: Callable[[Any, Any], Any], kind: str, depth: int, w2: Any,
                 b2: Any, dots: tuple[Any, Any, Any]) -> tuple[Any, Any]:
    """The layer recursion of the module docstring from an activation's dual ``v`` and derivative dual ``d``:
    the input dot products ``dots`` (same trial, one shared item, none) through ``depth`` layers; returns
    ``(kappa_o, kappa_d)`` of the NNGP or (``kind == "ntk"``) the NTK, each over its diagonal."""
    sigma = [w2 * t + b2 for t in dots]
    ntk = list(sigma)
    for _ in range(depth):
        q = sigma[0]
        new = [w2 * v(q, c) + b2 for c in sigma]
        ntk = [nw + w2 * th * d(q, c) for nw, th, c in zip(new, ntk, sigma, strict=True)]
        sigma = new
    out = ntk if kind == "ntk" else sigma
    return out[1] / out[0], out[2] / out[0]


def _combination_numeric(a: Any, b: Any, kind: str, depth: int, w2: Any, b2: Any) -> tuple[Any, Any]:
    """:func:`relu_combination_kappas` in mpmath at the current precision (the same duals)."""
    lin, pi = a * a + a * b, mpmath.pi

    def theta(q: Any, c: Any) -> Any:
        return mpmath.acos(max(min(c / q, mpmath.mpf(1)), mpmath.mpf(-1)))

    def v(q: Any, c: Any) -> Any:
        t = theta(q, c)
        return lin * c + b * b * q * (mpmath.sin(t) + (pi - t) * mpmath.cos(t)) / (2 * pi)

    def d(q: Any, c: Any) -> Any:
        return lin + b * b * (pi - theta(q, c)) / (2 * pi)

    return _dual_layers(v, d, kind, depth, w2, b2, (mpmath.mpf(1), mpmath.mpf(1) / 2, mpmath.mpf(0)))


class _ActivationFamily(LayeredFamily):
    """Shared code of :class:`ActivationNNGP` and :class:`ActivationNTK`."""

    parameters: ClassVar[tuple[Parameter, ...]] = (_W, _B, _DEPTH)
    _defaults = {"W_std": 1, "b_std": 0}
    exchangeable = True
    swap_invariant = True
    data_parameters = (("activation", "erf, sign, step (closed forms), or a sympy expression in u such as "
                                      "tanh(u) (Gaussian quadrature, numeric)"),)
    _kind: ClassVar[str] = "nngp"

    def __init__(self, activation: Any = "erf", **values: Any) -> None:
        text = str(activation).strip()
        self._closed = text in CLOSED_FORMS
        self._activation = text if self._closed else parse_activation(text)
        self._quadrature: QuadratureKernel | None = None
        self._combination: tuple[sp.Expr, sp.Expr] | None = None
        self._certified: tuple[Any, Any] | None = None
        self._values_at: dict[int, tuple[Any, ...]] = {}
        self._route = "closed form"
        super().__init__(**values)
        if not self._closed:
            if self.free_symbols:
                raise ParameterError(f"{self.name}: activation {text!r} is evaluated numerically; give W_std and "
                                     f"b_std values")
            self._combination = relu_combination(self._activation)
            if self._combination is not None:
                self._route = "arc-cosine"
            elif has_kink(self._activation) and self._certifiable():
                self._route = "certified"
            else:
                self._route = "quadrature"
                self._quadrature = QuadratureKernel(self._activation, self._kind, self.depth,
                                                    self._values["W_std"], self._values["b_std"])

    def _certifiable(self) -> bool:
        """Whether the certified path takes the activation (and, for the NTK, its derivative)."""
        try:
            for expr in (self._activation, derivative_ae(self._activation)) if self._kind == "ntk" else (
                    self._activation,):
                acb_function(expr)
                growth_bound(expr)
        except ParameterError:
            return False
        return True

    @property
    def kernel_method(self) -> str:
        """How the kernel values are computed: ``"closed form"`` (erf, sign, step), ``"arc-cosine"`` (exact,
        ``a u + b relu(u)``: :func:`~.activation_quadrature.relu_combination`), ``"certified"`` (a kink at 0: Arb balls at
        :data:`KINK_DPS` digits), ``"quadrature"`` (Gauss-Hermite; for a kink elsewhere its estimate is no bound
        and an :class:`~symbolic_ti.errors.UntrustedNumericWarning` says so)."""
        return self._route

    @property
    def activation(self) -> str:
        """The activation: a closed-form name or the sympy expression's text."""
        return self._activation if isinstance(self._activation, str) else str(self._activation)

    @property
    def numeric_only(self) -> bool:
        """Whether the kernel is only numeric (an activation without a closed form)."""
        return not self._closed

    def kappas(self) -> tuple[sp.Expr, sp.Expr]:
        """``(kappa_o, kappa_d)`` exactly (closed-form activations).

        Raises
        ------
        ParameterError
            For an activation evaluated by quadrature (use ``kernel_numeric``).
        """
        if not self._closed and self._combination is None:
            raise ParameterError(f"{self.describe()}: the activation has no closed form; its kernel is numeric")
        cached = getattr(self, "_kappas", None)
        if cached is None:
            v = self.symbol_values()
            if self._combination is not None:
                ko, kd, _ = relu_combination_kappas(*self._combination, self.depth, v["W_std"] ** 2,
                                                    v["b_std"] ** 2, self._kind)
            else:
                ko, kd, _ = activation_kappas(self.activation, self.depth, v["W_std"] ** 2, v["b_std"] ** 2,
                                              self._kind)
            cached = (ko, kd)
            self._kappas = cached
        return cached

    def certified_kappas(self, dps: int = 15) -> CertifiedKappas:
        """``(kappa_o, kappa_d)`` of an activation without closed form as certified balls at ``dps`` digits.

        :func:`symbolic_ti.families.activation_certified.certified_kappas` (rigorous Gaussian quadrature in ball
        arithmetic); ``result.certified`` is False, with an ``UntrustedNumericWarning``, if ``10^-dps`` is not
        reached.

        Raises
        ------
        ParameterError
            For a closed-form activation (use :meth:`kappas`) or one outside the certified whitelist.
        """
        if self._closed:
            raise ParameterError(f"{self.describe()}: the activation has a closed form; use kappas()")
        return certified_kappas(self._activation, self._kind, self.depth, self._values["W_std"],
                                self._values["b_std"], dps)

    def alpha_value(self) -> sp.Expr:
        """The conjunctivity factor ``alpha = (1 + kappa_d - 2 kappa_o)/(1 - kappa_d)``, exactly."""
        return relu_conjunctivity(*self.kappas())

    def exchangeable_form(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        """``(1, alpha, kappa_d)``; with exact parameters in named constants
        (:class:`~symbolic_ti.families.kernel_values.NetworkKernelValue`) unless the kappas are rational."""
        if not self._closed:
            return super().exchangeable_form()
        ko, kd = self.kappas()
        v = self.symbol_values()
        if self.free_symbols or (ko.is_Rational and kd.is_Rational):
            return sp.Integer(1), self.alpha_value(), kd
        # named constants at every depth: even depth-1 forms mix several arcsines and square roots, and
        # expanding them in the solver is slow (n = 9, 6>4, erf NTK with b_std = 1/2: minutes)
        args = (1 if self._kind == "ntk" else 0, self.depth)
        params = (v["W_std"] ** 2, v["b_std"] ** 2)
        ko_c: sp.Expr = ko if ko.is_Rational else kernel_value(self.activation, *args, _HALF, *params)
        kd_c: sp.Expr = kd if kd.is_Rational else kernel_value(self.activation, *args, sp.Integer(0), *params)
        return sp.Integer(1), (1 + kd_c - 2 * ko_c) / (1 - kd_c), kd_c

    def kernel(self, a: Trial, b: Trial) -> sp.Expr:
        """Exact ``K(a, b)``: 1, ``kappa_o`` or ``kappa_d`` by the number of shared positions, as the compact
        closed forms of :meth:`kappas` (not expanded: expanding nested forms only makes them longer)."""
        return self._kernel_expr(a, b, {})

    def kernel_numeric(self, a: Trial, b: Trial, p: Mapping[str, Any]) -> Any:
        shared = int(a[0] == b[0]) + int(a[1] == b[1])
        use_mp = any(isinstance(v, mpmath.mpf) for v in p.values())
        if self._combination is not None:  # the arc-cosine recursion at the working precision (not the nested
            key = mpmath.mp.dps if use_mp else 0  # sympy forms, whose evaluation is slow from depth 3 on)
            values = self._values_at.get(key)
            if values is None:
                with mpmath.workdps((mpmath.mp.dps if use_mp else 15) + 10):
                    a, b, w2, b2 = (mpmath.mpf(str(sp.N(x, mpmath.mp.dps + 5))) for x in
                                    (*self._combination, self._values["W_std"] ** 2, self._values["b_std"] ** 2))
                    values = _combination_numeric(a, b, self._kind, self.depth, w2, b2)
                values = tuple(+x if use_mp else float(x) for x in values)
                self._values_at[key] = values
            ko, kd = values
        elif self._route == "certified":
            if self._certified is None:
                balls = self.certified_kappas(KINK_DPS)
                self._certified = (mpmath.mpf(balls.kappa_o.mid().str(30, radius=False)),
                                   mpmath.mpf(balls.kappa_d.mid().str(30, radius=False)))
            ko, kd = self._certified if use_mp else (float(x) for x in self._certified)
        elif self._quadrature is not None:
            ko, kd = self._quadrature.kappas(mpmath.mp.dps if use_mp else None)
        else:
            ko, kd = _numeric_recursion(self.activation, self._kind, int(round(float(p["depth"]))),
                                        p["W_std"] ** 2, p["b_std"] ** 2, use_mp)
        one = mpmath.mpf(1) if use_mp else 1.0
        return one if shared == 2 else (ko if shared == 1 else kd)

    def describe(self) -> str:
        """One line with the activation, e.g. ``activation-ntk(activation=erf, W_std=1, b_std=0, depth=2)``."""
        base = super().describe()
        inner = base[len(self.name) + 1:-1]
        return f"{self.name}(activation={self.activation}{', ' + inner if inner else ''})"

    def _identity(self) -> tuple:
        return super()._identity() + (self.activation,)

    def _init_values(self) -> dict[str, Any]:
        out = super()._init_values()
        out["activation"] = self.activation
        return out


class ActivationNNGP(_ActivationFamily):
    r"""NNGP kernel of a fully connected network with activation ``phi``, ``W_std``, ``b_std`` and ``depth``
    hidden layers, normalized to unit diagonal (:mod:`symbolic_ti.families.activations`).

    Parameters
    ----------
    activation : str, default "erf"
        ``"erf"``, ``"sign"``, ``"step"`` (exact closed forms) or a sympy expression in ``u`` (numeric, by
        Gaussian quadrature in mpmath; e.g. ``"tanh(u)"``).
    W_std : number > 0, default 1
    b_std : number >= 0, default 0
    depth : integer >= 1, default 1

    Raises
    ------
    ParameterError
        For an activation that does not parse, a value outside its domain, or a symbolic depth.

    Examples
    --------
    >>> ActivationNNGP(activation="erf").kappas()
    (asin(1/3)/asin(2/3), 0)
    """

    name = "activation-nngp"
    _kind = "nngp"


class ActivationNTK(_ActivationFamily):
    r"""NTK of a fully connected network with activation ``phi``, ``W_std``, ``b_std`` and ``depth`` hidden
    layers (every layer trained), normalized to unit diagonal (:mod:`symbolic_ti.families.activations`).

    Parameters
    ----------
    activation : str, default "erf"
        As :class:`ActivationNNGP`. For ``sign`` and ``step`` the NTK equals the NNGP (``phi' = 0`` a.e.).
    W_std : number > 0, default 1
    b_std : number >= 0, default 0
    depth : integer >= 1, default 1

    Raises
    ------
    ParameterError
        For an activation that does not parse, a value outside its domain, or a symbolic depth.
    """

    name = "activation-ntk"
    _kind = "ntk"

