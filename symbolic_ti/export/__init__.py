from . import conjunctivity  # noqa: F401  (registers the renderers of critical-conjunctivity reports)
from . import critical  # noqa: F401  (registers the renderers of critical-value reports)
