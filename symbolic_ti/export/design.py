r"""Text, LaTeX, JSON and notebook renderings of :class:`~symbolic_ti.design.DesignReport` (docs/design.md).

* ``text``: the hypotheses, the ranking of the designs (mutual information with its standard error or
  ``exact``, the smallest expected log Bayes factor), then for the best designs the expected log Bayes factor of
  every ordered pair, the most informative trials with their divergences and exact predictions, and the Fisher
  information;
* ``latex``: a ``tabular`` of the ranking and one of the best design's trials (``%`` comment line first);
* ``dict``: the JSON of docs/design.md#json, opening with :func:`~symbolic_ti.export.values.meta_block`: exact
  predictions as :func:`~symbolic_ti.export.values.exact_value` records, every information value as a decimal
  string of ``dps`` significant digits with its float;
* ``notebook_latex``: the LaTeX tables as display math.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import sympy as sp

from ..design.from_data import AdaptiveDesignReport
from ..design.report import FORMAT_NAME, FORMAT_VERSION, DesignEvaluation, DesignReport
from ..display import renderer
from ..formatting import rounded
from .latex import plain_latex
from .taskblock import latex_text, task_block
from .values import exact_value, meta_block

__all__ = ["design_text", "design_latex", "design_dict", "design_notebook_latex", "adaptive_text", "adaptive_dict",
           "adaptive_latex"]

#: The ``meta.format`` of the JSON of :class:`~symbolic_ti.design.from_data.AdaptiveDesignReport`.
ADAPTIVE_FORMAT_NAME = "symbolic_ti.design_adaptive"

#: Significant digits of information values in text and LaTeX (JSON has all ``dps``).
SHOWN_DIGITS = 6


def _count(k: int, word: str) -> str:
    """``1 presentation``, ``2 presentations``."""
    return f"{k} {word}{'' if k == 1 else 's'}"


def _num(x: Any, digits: int = SHOWN_DIGITS) -> str:
    if isinstance(x, float) and not mpmath.isfinite(x):
        return "inf" if x > 0 else "-inf"
    return mpmath.nstr(mpmath.mpf(x), digits)


def _decimal(x: Any, dps: int) -> dict[str, Any]:
    if isinstance(x, float):  # a float64 value (a Monte Carlo estimate): its own digits, no more
        return {"decimal": repr(float(x)), "float": float(x)}  # (float(): a numpy float's repr names its type)
    with mpmath.workdps(dps + 5):  # (mpf() rounds to the working precision)
        value = mpmath.mpf(x)
        return {"decimal": mpmath.nstr(value, dps), "float": float(value)}


def _mi_text(e: DesignEvaluation) -> str:
    info = e.information
    se = getattr(info, "standard_error", None)
    if getattr(info, "below_range", False):
        return f"{_num(info.value)} (lower bound, see note)"
    if getattr(info, "method", "") == "exact" or se is None:
        return f"{_num(info.value)} (exact)"
    if info.method == "series":
        return f"{_num(info.value)} (series)"
    return f"{_num(info.value)} +- {_num(se, 2)} ({info.method})"


def _mi_latex(e: DesignEvaluation, math_mode: bool = False) -> str:
    """The mutual information of a LaTeX table cell as :func:`_mi_text` marks it: exact values plain, a Monte
    Carlo one ``value \\pm se`` with its method, a series or a lower bound named (``math_mode``: inside an
    ``array``, the words as ``\\text``)."""
    info = e.information
    se = getattr(info, "standard_error", None)
    value = _num(e.mutual_information)

    def word(text: str) -> str:
        return rf"\ (\text{{{text}}})" if math_mode else f" ({text})"

    def maths(text: str) -> str:
        return text if math_mode else f"${text}$"

    if getattr(info, "below_range", False):
        return maths(value) + word("lower bound")
    if getattr(info, "method", "") == "exact" or se is None:
        return value
    if info.method == "series":
        return maths(value) + word("series")
    return maths(rf"{value} \pm {_num(se, 2)}") + word(info.method)


def _pair(report: DesignReport, a: int, b: int) -> str:
    return f"H{a + 1} vs H{b + 1}"


def _detail(report: DesignReport, rank: int, e: DesignEvaluation, trials: int) -> list[str]:
    h = len(report.hypotheses)
    d = e.design
    counts = sorted(set(d.counts))
    each = f"{counts[0]} of each trial" if len(counts) == 1 else "placed by the search"
    lines = [f"design {rank}: {d.label} ({_count(d.total, 'presentation')}, {each})",
             "  expected log Bayes factor (nats, true vs other): " + ", ".join(
                 f"{_pair(report, a, b)} {_num(v)}" for (a, b), v in e.log_bayes_factors.items()),
             f"  mutual information: {_mi_text(e)} nats"]
    pairs = report.pairs()
    index = {t: k for k, t in enumerate(d.trials)}
    head = f"  {'trial':<8}{'category':<16}{'count':>6}{'weighted KL':>13}" + "".join(
        f"{f'KL(H{a + 1}||H{b + 1})':>13}" for a, b in pairs) + "".join(
        f"{f'f | H{k + 1}':>14}" for k in range(h))
    lines += [f"  most informative trials (per presentation, nats; {min(trials, len(e.trials))} of "
              f"{len(e.trials)}):", head]
    for ti in e.trials[:trials]:
        k = index[ti.trial]
        lines.append(f"  {f'{ti.trial[0]},{ti.trial[1]}':<8}{ti.category:<16}{ti.count:>6}{' ' + _num(ti.score):>13}"
                     + "".join(f"{' ' + _num(e.divergences[a, b][k]):>13}" for a, b in pairs)
                     + "".join(f"{' ' + _short(e.predictions[m][k]):>14}" for m in range(h)))
    for f in e.fisher:
        lines.append(f"  Fisher information of {f.hypothesis} ({', '.join(f.parameters)}): D = log det I = "
                     f"{_num(f.d_optimality)}, A = trace I^-1 = {_num(f.a_optimality)}")
    return lines + _power_lines(report, e)


_CRITERION = {"likelihood-ratio": "likelihood ratio", "bic": "BIC"}


def _power_value(est: Any) -> str:
    if est.method == "exact":
        return f"{rounded(est.value, '.4f')} (exact)"
    return f"{rounded(est.value, '.4f')} [{rounded(est.lower, '.4f')}, {rounded(est.upper, '.4f')}] ({est.outcomes} simulated)"


def _power_lines(report: DesignReport, e: DesignEvaluation) -> list[str]:
    if not e.power:
        return []
    lines = [f"  power (probability of picking the true hypothesis; to reach {rounded(report.power_target, 'g')}: the smallest "
             f"multiplier m of the presentations):"]
    for s in e.power:
        m = s.smallest
        reach = ("not reached up to m = 4096" if m is None or m.multiplier is None else
                 f"m = {m.multiplier} ({_count(int(m.counts.sum()), 'presentation')})" + (
                     f", at every m from {m.stable_multiplier} to {m.scanned_to}" if m.stable_multiplier else
                     f", not at m = {m.scanned_to}"))
        what = "every parameter" if s.refit == "all" else "beta"
        refit = "" if s.refitted is None else f"; {what} refitted: {_power_value(s.refitted)}"
        lines.append(f"    H{s.true + 1} true vs H{s.other + 1}, {_CRITERION[s.criterion]}: {_power_value(s.power)}; "
                     f"{reach}{refit}")
    return lines


def _power_dict(s: Any) -> dict[str, Any]:
    def est(x: Any) -> dict[str, Any] | None:
        return None if x is None else {"value": x.value, "lower": x.lower, "upper": x.upper, "level": x.level,
                                       "method": x.method, "outcomes": x.outcomes, "ties": x.ties}

    m = s.smallest
    return {"true": s.true + 1, "other": s.other + 1, "criterion": s.criterion, "power": est(s.power),
            "smallest": None if m is None else {
                "target": m.target, "multiplier": m.multiplier,
                "presentations": None if m.counts is None else int(m.counts.sum()),
                "power": est(m.power), "power_below": est(m.power_below),
                "stable_multiplier": m.stable_multiplier, "scanned_to": m.scanned_to,
                "curve": [[j, v, method] for (j, v), method in zip(m.curve, m.curve_methods, strict=True)]},
            "refitted": est(s.refitted), "refit": s.refit}


def _refit_what(report: DesignReport) -> str:
    """What the refitted power refits: ``beta`` or every parameter."""
    return "every parameter" if any(s.refit == "all" for e in report.evaluations for s in e.power) else "beta"


def _m(smallest: Any, name: str) -> str:
    value = None if smallest is None else getattr(smallest, name)
    return "--" if value is None else str(value)


def _short(value: sp.Expr) -> str:
    text = str(value)
    return text if len(text) <= 13 else _num(sp.N(value, 15), 6)


@renderer("text", DesignReport)
def design_text(report: DesignReport, designs: int = 1, trials: int = 8, ranking: int = 20) -> str:
    """Plain text; ``designs`` best designs in detail with their ``trials`` most informative trials, and the
    first ``ranking`` rows of the ranking."""
    n = len(report.evaluations)
    crit = "mutual information" if report.criterion == "mutual-information" else "smallest expected log Bayes factor"
    lines = [f"symbolic_ti design: {len(report.hypotheses)} hypotheses, {n} design{'s' if n != 1 else ''}, ranked "
             f"by {crit} (nats; {report.dps} digits computed)", "hypotheses (prior weight):"]
    for k, h in enumerate(report.hypotheses):
        time = "" if h.time is None else f", training time t = {h.time}"
        lines.append(f"  H{k + 1}  {h.name}: {h.family.describe()}, ridge {h.ridge_text}{time}, beta = {h.beta}; "
                     f"weight {h.weight}")
    if report.search != "fixed":
        lines.append(f"presentations: {report.search}")
    width = max(len(e.design.label) for e in report.evaluations) + 2
    lines += ["", f"  {'rank':<6}{'design':<{width}}{'presentations':>14}  {'mutual information':<34}"
                  f"{'min E[log BF]':>14}"]
    for k, e in enumerate(report.evaluations[:ranking]):
        lines.append(f"  {k + 1:<6}{e.design.label:<{width}}{e.design.total:>14}  {_mi_text(e):<34}"
                     f"{' ' + _num(e.smallest_log_bayes_factor):>14}")
    if n > ranking:
        lines.append(f"  ... {n - ranking} more (to_text(ranking=...) or --format json for all)")
    for k, e in enumerate(report.evaluations[:designs]):
        lines += [""] + _detail(report, k + 1, e, trials)
    if report.notes:
        lines += [""] + [f"note: {note}" for note in report.notes]
    return "\n".join(lines)


def _hypothesis_dict(k: int, h: Any) -> dict[str, Any]:
    return {"index": k + 1, "name": h.name, "label": h.label, "family": h.family.name,
            "parameters": {name: exact_value(v) for name, v in h.family.values.items()},
            "point": {name: exact_value(v) for name, v in h.point},
            "ridge": "ridgeless" if h.ridge is None else exact_value(h.ridge),
            "time": None if h.time is None else exact_value(h.time),
            "beta": exact_value(h.beta), "weight": exact_value(h.weight)}


def _evaluation_dict(report: DesignReport, rank: int, e: DesignEvaluation) -> dict[str, Any]:
    dps, d = report.dps, e.design
    index = {t: k for k, t in enumerate(d.trials)}
    info = e.information
    se = getattr(info, "standard_error", None)
    trials = []
    for ti in e.trials:
        k = index[ti.trial]
        trials.append({
            "trial": list(ti.trial), "category": ti.category, "count": ti.count,
            "weighted_divergence": _decimal(ti.score, dps),
            "predictions": [exact_value(e.predictions[m][k]) for m in range(len(report.hypotheses))],
            "probabilities": [_decimal(e.probabilities[m][k], dps) for m in range(len(report.hypotheses))],
            "divergences": [{"true": a + 1, "other": b + 1, "value": _decimal(e.divergences[a, b][k], dps)}
                            for a, b in report.pairs()]})
    return {"rank": rank, "task": task_block(d.task), "label": d.label, "presentations": d.total,
            "mutual_information": {"value": _decimal(info.value, dps), "method": getattr(info, "method", None),
                                   "standard_error": None if se is None else float(se)},
            "log_bayes_factors": [{"true": a + 1, "other": b + 1, "value": _decimal(v, dps)}
                                  for (a, b), v in e.log_bayes_factors.items()],
            "fisher": [{"hypothesis": f.hypothesis, "parameters": list(f.parameters),
                        "matrix": [list(row) for row in f.matrix], "d_optimality": _finite(f.d_optimality),
                        "a_optimality": _finite(f.a_optimality),
                        "jacobian_trials": [list(t) for t in d.trials],  # (the rows of jacobian, in this order)
                        "jacobian": [[exact_value(x) for x in row] for row in f.jacobian]} for f in e.fisher],
            "power": [_power_dict(s) for s in e.power], "trials": trials}


def _finite(x: float) -> float | str:
    return x if mpmath.isfinite(x) else ("inf" if x > 0 else "-inf")


@renderer("dict", DesignReport)
def design_dict(report: DesignReport) -> dict[str, Any]:
    """JSON-ready dictionary (docs/design.md#json); opens with a ``meta`` block (format ``symbolic_ti.design``)."""
    return {"meta": meta_block(FORMAT_NAME, FORMAT_VERSION, created=False), "criterion": report.criterion,
            "dps": report.dps, "search": report.search, "units": "nats", "notes": list(report.notes),
            "power_target": report.power_target,
            "hypotheses": [_hypothesis_dict(k, h) for k, h in enumerate(report.hypotheses)],
            "designs": [_evaluation_dict(report, k + 1, e) for k, e in enumerate(report.evaluations)]}


@renderer("latex", DesignReport)
def design_latex(report: DesignReport, trials: int = 8) -> str:
    """Two LaTeX tabulars: the ranking, and the best design's most informative trials (``%`` comment first)."""
    h = len(report.hypotheses)
    rows = [f"{k + 1} & {latex_text(e.design.label)} & {e.design.total} & {_mi_latex(e)} & "
            f"{_num(e.smallest_log_bayes_factor)} \\\\" for k, e in enumerate(report.evaluations)]
    ranking = ("% symbolic_ti design: " + "; ".join(f"H{k + 1} = {x.name}" for k, x in enumerate(report.hypotheses))
               + "\n" r"\begin{tabular}{rlrrr}" "\n" r"\hline" "\n"
               r"rank & design & presentations & $I(H; Y)$ (nats) & $\min E[\log \mathrm{BF}]$ \\" "\n"
               r"\hline" "\n" + "\n".join(rows) + "\n" r"\hline" "\n" r"\end{tabular}")
    best = report.best
    index = {t: k for k, t in enumerate(best.design.trials)}
    pairs = report.pairs()
    cols = "".join(f" & $\\mathrm{{KL}}(H_{a + 1} \\| H_{b + 1})$" for a, b in pairs) + "".join(
        f" & $f \\mid H_{m + 1}$" for m in range(h))
    body = []
    for ti in best.trials[:trials]:
        k = index[ti.trial]
        body.append(f"$({ti.trial[0]}, {ti.trial[1]})$ & {ti.count}" + "".join(
            f" & {_num(best.divergences[a, b][k])}" for a, b in pairs) + "".join(
            f" & ${plain_latex(best.predictions[m][k])}$" for m in range(h)) + r" \\")
    table = ("\\begin{tabular}{l" + "r" * (1 + len(pairs) + h) + "}\n\\hline\n" f"trial & count{cols} \\\\\n"
             "\\hline\n" + "\n".join(body) + "\n\\hline\n\\end{tabular}")
    out = ranking + "\n\n" + f"% best design: {best.design.label}\n" + table + _fisher_latex(best)
    if any(e.power for e in report.evaluations):
        refit = any(s.refitted is not None for e in report.evaluations for s in e.power)
        rows = [f"{k + 1} & {latex_text(e.design.label)} & $H_{s.true + 1}$ vs $H_{s.other + 1}$ & "
                f"{_CRITERION[s.criterion]} & {rounded(s.power.value, '.4f')} & "
                f"{_m(s.smallest, 'multiplier')} & {_m(s.smallest, 'stable_multiplier')}"
                + ("" if not refit else f" & {'--' if s.refitted is None else rounded(s.refitted.value, '.4f')}")
                + " \\\\"
                for k, e in enumerate(report.evaluations) for s in e.power]
        out += ("\n\n" f"% power; m: the smallest multiplier of the presentations reaching power "
                f"{rounded(report.power_target, 'g')}; stable: from which it stays there (up to at least twice m)"
                + (f"; refit: the power with {_refit_what(report)} refitted to each experiment" if refit else "")
                + "\n"
                r"\begin{tabular}{rllrrrr" + ("r" if refit else "") + "}\n" r"\hline" "\n"
                r"rank & design & true vs other & comparison & power & $m$ & stable"
                + (" & refit" if refit else "") + r" \\" "\n" r"\hline" "\n"
                + "\n".join(rows) + "\n" r"\hline" "\n" r"\end{tabular}")
    return out


#: Largest number of parameters whose Fisher information matrix the LaTeX table writes out.
FISHER_MATRIX_SIZE = 4


def _fisher_latex(best: DesignEvaluation) -> str:
    """The Fisher information of the best design per hypothesis: D, A and (for at most
    :data:`FISHER_MATRIX_SIZE` parameters) the matrix; ``""`` without Fisher information."""
    if not best.fisher:
        return ""
    rows = []
    for f in best.fisher:
        k = len(f.parameters)
        matrix = ("--" if k > FISHER_MATRIX_SIZE else
                  "$\\left(\\begin{array}{" + "r" * k + "}" + r" \\ ".join(
                      " & ".join(_num(x, 4) for x in row) for row in f.matrix) + "\\end{array}\\right)$")
        params = ", ".join(r"$\lambda$" if p == "lambda" else f"${sp.latex(sp.Symbol(p))}$" for p in f.parameters)
        d, a = (r"$-\infty$" if x == -math.inf else r"$\infty$" if x == math.inf else _num(x)
                for x in (f.d_optimality, f.a_optimality))
        rows.append(f"{latex_text(f.hypothesis)} & {params} & {d} & {a} & {matrix} \\\\")
    return ("\n\n% Fisher information of the best design: D = log det I (larger is better), A = trace I^-1 "
            "(smaller is better)\n" r"\begin{tabular}{llrrl}" "\n" r"\hline" "\n"
            r"hypothesis & parameters & $\log\det I$ & $\mathrm{tr}\, I^{-1}$ & $I$ \\" "\n" r"\hline" "\n"
            + "\n".join(rows) + "\n" r"\hline" "\n" r"\end{tabular}")


def _math_text(text: str) -> str:
    """``text`` inside MathJax's ``\\text{}`` (its special characters escaped)."""
    for a, b in (("\\", r"\backslash "), ("{", r"\{"), ("}", r"\}"), ("_", r"\_"), ("&", r"\&"), ("%", r"\%"),
                 ("#", r"\#"), ("$", r"\$")):
        text = text.replace(a, b)
    return rf"\text{{{text}}}"


@renderer("notebook_latex", DesignReport)
def design_notebook_latex(report: DesignReport, ranking: int = 20) -> str:
    """The ranking of :func:`design_latex` (its first ``ranking`` rows) as display math MathJax renders: an
    ``array``, not a ``tabular``."""
    rows = [f"{k + 1} & {_math_text(e.design.label)} & {e.design.total} & {_mi_latex(e, True)} & "
            f"{_num(e.smallest_log_bayes_factor)} \\\\" for k, e in enumerate(report.evaluations[:ranking])]
    return ("$$\\begin{array}{rlrrr}\n" r"\text{rank} & \text{design} & \text{presentations} & "
            r"I(H; Y)\ (\text{nats}) & \min E[\log \mathrm{BF}] \\ \hline" "\n" + "\n".join(rows)
            + "\n\\end{array}$$")


@renderer("html", DesignReport)
def design_html(report: DesignReport, ranking: int = 20, trials: int = 8) -> str:
    """The notebook's HTML: the ranking (its first ``ranking`` rows; with power, every ranked design's power of
    each ordered pair and criterion, and the smallest multiplier reaching the target), the best design's
    ``trials`` most informative trials with their divergences, its Fisher information and power in full, and the
    notes."""
    from .notebook import _CELL, _e, _table

    def cell(x: Any, left: bool = False) -> str:
        return f'<td style="{_CELL}{";text-align:left" if left else ""}">{_e(x)}</td>'

    criteria = [] if report.power_target is None else list(_CRITERION)

    def powers(e: DesignEvaluation, criterion: str) -> str:
        """Every ordered pair's power of one criterion, and the smallest multiplier reaching the target."""
        return "; ".join(f"H{x.true + 1} vs H{x.other + 1} {rounded(x.power.value, '.3f')}" + (
            "" if x.smallest is None or x.smallest.multiplier is None else f" (m = {x.smallest.multiplier})")
            for x in e.power if x.criterion == criterion)

    rows = [f"<tr>{cell(k + 1)}{cell(e.design.label, True)}{cell(e.design.total)}{cell(_mi_text(e), True)}"
            f"{cell(_num(e.smallest_log_bayes_factor))}" + "".join(cell(powers(e, c), True) for c in criteria)
            + "</tr>" for k, e in enumerate(report.evaluations[:ranking])]
    crit = "mutual information" if report.criterion == "mutual-information" else "smallest expected log Bayes factor"
    heads = [f"power, {_CRITERION[c]} (to reach {rounded(report.power_target, 'g')}: smallest m)" for c in criteria]
    out = [_table(["rank", "design", "presentations", "mutual information (nats)", "min E[log BF]", *heads], rows,
                  f"{_count(len(report.evaluations), 'design')} ranked by {crit}; hypotheses: " + "; ".join(
                      f"H{k + 1} = {h.name} (weight {h.weight})" for k, h in enumerate(report.hypotheses)))]
    best, pairs = report.best, report.pairs()
    index = {t: k for k, t in enumerate(best.design.trials)}
    rows = [f"<tr>{cell(f'({ti.trial[0]}, {ti.trial[1]})')}{cell(ti.category, True)}{cell(ti.count)}"
            f"{cell(_num(ti.score))}" + "".join(cell(_num(best.divergences[a, b][index[ti.trial]])) for a, b in pairs)
            + "</tr>" for ti in best.trials[:trials]]
    out.append(_table(["trial", "category", "count", "weighted KL"] + [f"KL(H{a + 1}||H{b + 1})" for a, b in pairs],
                      rows, f"best design {best.design.label}: most informative trials (per presentation, nats)"))
    if best.fisher:
        rows = [f"<tr>{cell(f.hypothesis, True)}{cell(', '.join(f.parameters), True)}{cell(_num(f.d_optimality))}"
                f"{cell(_num(f.a_optimality))}</tr>" for f in best.fisher]
        out.append(_table(["hypothesis", "parameters", "D = log det I", "A = trace I^-1"], rows,
                          "Fisher information of the best design"))
    if best.power:
        out.append("<pre>" + _e("\n".join(_power_lines(report, best))) + "</pre>")
    if report.search != "fixed":
        out.append(f"<p>presentations: {_e(report.search)}</p>")
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in report.notes) + "</ul>")
    return "<div>" + "".join(out) + "</div>"


@renderer("html", AdaptiveDesignReport)
def adaptive_html(report: AdaptiveDesignReport, candidates: int = 8) -> str:
    """The notebook's HTML: prior and posterior of each hypothesis, then the ``candidates`` best next trials."""
    from .notebook import _CELL, _e, _table

    def cell(x: Any, left: bool = False) -> str:
        return f'<td style="{_CELL}{";text-align:left" if left else ""}">{_e(x)}</td>'

    rows = [f"<tr>{cell(f'H{k + 1}')}{cell(h.name, True)}{cell(rounded(float(h.weight), '.6g'))}"
            f"{cell(rounded(report.log_likelihood[k], '.6f'))}{cell(rounded(report.posterior[k], '.6g'))}</tr>"
            for k, h in enumerate(report.hypotheses)]
    out = [_table(["", "hypothesis", "prior", "log L", "posterior"], rows,
                  f"{_count(report.presentations, 'choice')} on {_count(len(report.observed), 'trial')} of {report.source}")]
    rows = [f"<tr>{cell(report.trial_text(t))}{cell(rounded(g, '.6g'))}</tr>" for t, g in report.candidates[:candidates]]
    out.append(_table(["trial", "expected information gain (nats)"], rows,
                      "next: " + "; ".join(report.trial_text(t) for t in report.next)))
    return "<div>" + "".join(out) + "</div>"


def _trial_text(t: tuple[int, int]) -> str:
    return f"{t[0]},{t[1]}"


@renderer("text", AdaptiveDesignReport)
def adaptive_text(report: AdaptiveDesignReport, candidates: int = 8) -> str:
    """Plain text: the hypotheses with prior and posterior, then the candidate trials by expected information
    gain (the ``candidates`` first)."""
    obs = len(report.observed)
    lines = [f"symbolic_ti design from data: {len(report.hypotheses)} hypotheses, {_count(report.presentations, 'choice')} on "
             f"{obs} trial{'s' if obs != 1 else ''} of {report.source}",
             f"  {'':<4}{'hypothesis':<30}{'prior':>12}{'log L':>14}{'posterior':>14}"]
    for k, h in enumerate(report.hypotheses):
        lines.append(f"  H{k + 1:<3}{h.name[:29]:<30}{rounded(float(h.weight), '>12.6g')}{rounded(report.log_likelihood[k], '>14.6f')}"
                     f"{rounded(report.posterior[k], '>14.6g')}")
    shown = report.candidates[:candidates]
    lines += ["", f"next trial{'s' if len(report.next) != 1 else ''}: "
              + "; ".join(report.trial_text(t) for t in report.next),
              f"expected information gain of one presentation under the posterior (nats; {len(shown)} of "
              f"{len(report.candidates)} candidates):"]
    lines += [f"  {_trial_text(t) if report.item_labels is None else report.trial_text(t):<8}{rounded(g, '.6g')}"
              for t, g in shown]
    return "\n".join(lines)


@renderer("dict", AdaptiveDesignReport)
def adaptive_dict(report: AdaptiveDesignReport) -> dict[str, Any]:
    """JSON-ready dictionary (docs/design.md#adaptive-design-from-data; format ``symbolic_ti.design_adaptive``)."""
    return {"meta": meta_block(ADAPTIVE_FORMAT_NAME, FORMAT_VERSION, created=False), "source": report.source,
            "units": "nats",
            "hypotheses": [{**_hypothesis_dict(k, h), "log_likelihood": _finite(report.log_likelihood[k]),
                            "posterior": report.posterior[k]} for k, h in enumerate(report.hypotheses)],
            "observed": [{"trial": list(t), "first_wins": w, "presentations": n} for t, w, n in report.observed],
            "next": [list(t) for t in report.next],
            "item_labels": None if report.item_labels is None else list(report.item_labels),
            "candidates": [{"trial": list(t), "information_gain": g} for t, g in report.candidates]}


@renderer("latex", AdaptiveDesignReport)
def adaptive_latex(report: AdaptiveDesignReport, candidates: int = 8) -> str:
    """A LaTeX tabular of the prior and posterior, and one of the best candidate trials."""
    rows = [f"$H_{k + 1}$ & {latex_text(h.name)} & {rounded(float(h.weight), '.6g')} & {rounded(report.posterior[k], '.6g')} \\\\"
            for k, h in enumerate(report.hypotheses)]
    best = [f"$({t[0]}, {t[1]})$ & {rounded(g, '.6g')} \\\\" for t, g in report.candidates[:candidates]]
    return (f"% symbolic_ti design from data: {_count(report.presentations, 'choice')} of {latex_text(report.source)}\n"
            "\\begin{tabular}{llrr}\n\\hline\n & hypothesis & prior & posterior \\\\\n\\hline\n" + "\n".join(rows)
            + "\n\\hline\n\\end{tabular}\n\n\\begin{tabular}{lr}\n\\hline\ntrial & expected gain (nats) \\\\\n"
            "\\hline\n" + "\n".join(best) + "\n\\hline\n\\end{tabular}")
