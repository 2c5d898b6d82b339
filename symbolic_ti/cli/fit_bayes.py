"""``symbolic-ti fit --subject-column C --hierarchical --bayes``: the Bayesian hierarchical fit (NUTS in NumPyro,
the optional extra ``bayes``; docs/fitting.md, "Bayesian hierarchical fits"). :mod:`symbolic_ti.cli.fit` adds the
options (:func:`add_options`) and dispatches here (:func:`run_bayes`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..errors import DataError, DataWarning, ParameterError
from .options import CliContext, Excludes, Requires, parse_positive_int

__all__ = ["add_options", "RULES", "run_bayes"]

#: Options that need ``--bayes`` or do not go with it (:func:`symbolic_ti.cli.parsing.add_rules`).
RULES: tuple[Requires | Excludes, ...] = (
    Excludes("--bayes", "--no-intervals", why=": the posterior intervals come with the draws"),
    Requires("--bayes", "--hierarchical", why=" (the Bayesian fit is of the hierarchical model)"),
    *(Requires(option, "--bayes", why=" (an option of the sampler)") for option in ("--draws", "--warmup", "--chains")),
)


def add_options(p: argparse.ArgumentParser, context: CliContext) -> None:
    """Add ``--bayes``, ``--draws``, ``--warmup`` and ``--chains`` to the parser of ``fit``."""
    p.add_argument("--bayes", action="store_true",
                   help="with --hierarchical: full posteriors by NUTS in NumPyro (pip install 'symbolic-ti[bayes]') "
                        "instead of empirical Bayes; priors mu ~ Normal(0, 3^2), tau ~ HalfNormal(1); R-hat, "
                        "effective sample size and divergences checked; --seed seeds the sampler")
    p.add_argument("--draws", default=1000, type=context.option_type("--draws", parse_positive_int), metavar="N",
                   help="with --bayes: draws kept per chain, >= 10 (default: 1000)")
    p.add_argument("--warmup", default=1000, type=context.option_type("--warmup", parse_positive_int), metavar="N",
                   help="with --bayes: warm-up iterations per chain, >= 10 (default: 1000)")
    p.add_argument("--chains", default=2, type=context.option_type("--chains", parse_positive_int), metavar="N",
                   help="with --bayes: chains, run one after another, >= 2 (default: 2)")


def run_bayes(args: argparse.Namespace, context: Any, task: Any, family: Any, load: dict[str, Any],
              data_option: Callable[[str, argparse.Namespace], str]) -> str:
    """Sample the hierarchical model and return the report (text or JSON); ``data_option`` names the option a
    loader message is about (that of :mod:`symbolic_ti.cli.fit`). Failing diagnostics are printed as warnings on
    stderr (the report flags them too)."""
    import sys
    import warnings

    from ..behaviour.bayes import sample_hierarchical
    from ..errors import SamplingWarning

    ridge = context.ridge(args)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("ignore", DataWarning)  # shown once for the pooled data
            warnings.simplefilter("always", SamplingWarning)
            result = sample_hierarchical(args.data, task, args.subject_column, filters=args.filter, load=load,
                                         family=family, ridge="fit" if ridge is None else ridge, draws=args.draws,
                                         warmup=args.warmup, chains=args.chains, seed=args.seed,
                                         budget=context.budget(args))
    except DataError as err:
        raise context.fail(data_option(str(err), args), err) from None
    except ParameterError as err:
        text = str(err)
        for option in ("draws", "warmup", "chains"):
            if text.startswith(f"{option} must"):
                raise context.fail(f"--{option}", err) from None
        if "real scores" in text or "NumPyro" in text:
            raise context.fail("--bayes", err) from None
        raise
    for w in caught:
        if issubclass(w.category, SamplingWarning):
            print(f"symbolic-ti: warning: {w.message}", file=sys.stderr)
    if args.format == "json":
        from ..export.jsonreport import dumps

        return dumps(result.to_dict())
    return result.to_text()
