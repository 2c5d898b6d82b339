"""Experiment design (issue 26)."""
