"""The ``symbolic-ti`` command line: one module per subcommand, shared option parsers."""

from __future__ import annotations

from .app import build_parser, main

__all__ = ["main", "build_parser"]
