"""Test-wide settings: hypothesis profiles, one BLAS thread.

- ``default``: no deadline (a deadline measures wall time, which depends on the machine's load), and the
  number of examples each property test states.
- ``thorough`` (``HYPOTHESIS_PROFILE=thorough python -m pytest``): ten times as many examples in every property
  test (``strategies.examples``), for an exploration before a release.

OpenBLAS runs one thread per process in the suite (``OPENBLAS_NUM_THREADS=1`` unless it is set): the suite
already keeps every core busy with its xdist workers, and each worker's extra BLAS threads spun for nothing on
the few small matrix products (on two busy cores the width-4096 network of ``test_networks.py`` took 11 s of
CPU with the default threads, 1.8 s with one). Set here, before any test module imports numpy, it reaches the
xdist workers and every subprocess a test starts (the docs examples, the CLI tests).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("default", deadline=None, print_blob=True)
settings.register_profile("thorough", deadline=None, print_blob=True, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
