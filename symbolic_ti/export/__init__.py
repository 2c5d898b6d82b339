from . import general  # noqa: F401  (registers the renderers of the general-n closed forms)
