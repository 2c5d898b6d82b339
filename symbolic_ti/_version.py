"""The one source of the package version (read by pyproject.toml and the JSON ``meta`` blocks)."""

__version__ = "0.2.0"
