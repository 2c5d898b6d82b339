from . import fit  # noqa: F401
