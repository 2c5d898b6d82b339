"""``python -m symbolic_ti``: the ``symbolic-ti`` command line (see :mod:`symbolic_ti.cli`)."""

from .cli import main

raise SystemExit(main())
