"""Test-wide settings: hypothesis profiles.

- ``default``: no deadline (a deadline measures wall time, which depends on the machine's load), and the
  number of examples each property test states.
- ``thorough`` (``HYPOTHESIS_PROFILE=thorough python -m pytest``): ten times as many examples in every property
  test (``strategies.examples``), for an exploration before a release.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", deadline=None, print_blob=True)
settings.register_profile("thorough", deadline=None, print_blob=True, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
