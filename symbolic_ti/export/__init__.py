"""Every rendering of results and reports: text, LaTeX, JSON, notebook.

Importing this package registers the renderers (``symbolic_ti.display``) of every result and report type, one
module per type.
"""

from . import general  # noqa: F401  (general-n closed forms)
from . import verification  # noqa: F401  (VerifyReport)
