"""All rendering: text, LaTeX, JSON and notebook (HTML, MathJax) output of every result and report.

Results and reports are plain data that inherit :class:`symbolic_ti.display.Rendered`; the modules of this
package register their renderers with :func:`symbolic_ti.display.renderer` when they are imported. Importing
this package imports every renderer module (one line each, sorted), and ``import symbolic_ti`` imports this
package, so every renderer is registered before any result exists. A new renderer module gets its line here.
"""

# ruff: noqa: F401  (imported for the renderers they register)
from __future__ import annotations

from . import conjunctivity
from . import critical
from . import dynamics
from . import fit
from . import general
from . import jsonreport
from . import latex
from . import latex_parse
from . import latex_printer
from . import latex_result
from . import notebook
from . import summary
from . import text
from . import values
from . import verification
