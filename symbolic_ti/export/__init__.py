from . import verification
