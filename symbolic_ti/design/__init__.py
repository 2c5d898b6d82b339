"""Experiment design: which task, which test trials and how many presentations tell hypotheses apart
(docs/design.md).

A **hypothesis** (:class:`Hypothesis`, :func:`parse_hypothesis`, :func:`load_hypotheses`) is a representation
family at exact parameter values (or a grid of them with weights), a ridge or a gradient-flow training time, and
the response scale ``beta`` of ``fit``: ``P(first item wins) = sigmoid(beta f(i, j))``. A **design**
(:class:`ExperimentDesign`) is a task of any paradigm, the trials presented and the presentations of each; a
**design space** (:class:`DesignSpace`, :func:`design_space`) is ranges of them. :func:`design_experiment`
derives every hypothesis's exact predictions on every design (:mod:`.predictions`), hands the choice
probabilities to the information layer (``information``: divergences, expected log Bayes factors, mutual
information, Fisher information; ``power``; ``search``; ``adaptive``) and returns a ranked,
immutable :class:`DesignReport` (text, LaTeX, JSON: :mod:`symbolic_ti.export.design`).
"""

from __future__ import annotations

from .experiment import MI_METHODS, design_estimate, design_experiment
from .from_data import AdaptiveDesignReport, adaptive_design
from .hypotheses import HYPOTHESIS_KEYS, Hypothesis, hypotheses_from_dict, hypothesis, load_hypotheses, \
    normalised, parse_hypothesis
from .predictions import choice_probabilities, exact_predictions, fisher_parameters, logit_jacobian
from .report import CRITERIA, DesignEvaluation, DesignReport, FisherSummary, PowerSummary, TrialInformation
from .space import PLACEMENTS, TRIAL_SETS, DesignSpace, ExperimentDesign, design_space, design_trials

__all__ = ["Hypothesis", "HYPOTHESIS_KEYS", "hypothesis", "parse_hypothesis", "load_hypotheses",
           "hypotheses_from_dict", "normalised", "exact_predictions", "choice_probabilities", "fisher_parameters",
           "logit_jacobian", "ExperimentDesign", "DesignSpace", "design_space", "design_trials", "PLACEMENTS",
           "TRIAL_SETS", "design_experiment", "design_estimate", "MI_METHODS", "DesignReport", "DesignEvaluation",
           "FisherSummary", "TrialInformation", "CRITERIA", "PowerSummary", "adaptive_design",
           "AdaptiveDesignReport"]
