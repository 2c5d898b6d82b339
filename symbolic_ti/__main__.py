"""``python -m symbolic_ti``: the ``symbolic-ti`` command line (see :mod:`symbolic_ti.cli`)."""

from .cli.app import main

raise SystemExit(main())
