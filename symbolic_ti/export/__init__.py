from . import verification  # noqa: F401 - registers the renderers of VerifyReport
