"""Peak memory: the measured model of ``derive``'s peak, and the memory this process may still take.

Used by :mod:`symbolic_ti.budgets` (``Estimate.memory`` and :func:`symbolic_ti.budgets.check_memory`): the memory
available is read when a check runs, never at import, so that a task or a spec is valid on every machine and only
the run that will not fit on this one is refused, with its estimate (docs/performance.md#peak-memory-of-derive).
This module imports only ``contextlib``.
"""

from __future__ import annotations

import contextlib

__all__ = ["available_memory", "symbolic_peak", "SYMBOLIC_PEAK_AT_61", "IMPORT_PEAK_BYTES", "ASYMMETRIC_PEAK_AT_51"]

#: Peak memory (``ru_maxrss``) of the ``derive`` command writing every symbolic closed form, mirror-symmetric
#: exceptions, to a file (``-o``): the import's 80 MB (n = 21) plus a part growing as ``n^e``, given at n = 61 per
#: format. Measured 2026-12-02 (docs/performance.md#peak-memory-of-derive): text 178 MB at n = 41, 660 MB at 61,
#: 2.08 GB at 81, 5.4 GB at 101 (``n^4.6`` to ``n^4.85`` above the import; 4.8 kept); JSON 91 MB at 41, 167 MB at 61, 1.3 GB at
#: 101 (the report is streamed record by record; ``n^5.2``, 5.3 kept). LaTeX (not measured) as text, scaled by its
#: bytes (155 against 113 MB at 61); JSON poly as JSON; gram as text.
SYMBOLIC_PEAK_AT_61: dict[str, tuple[float, float]] = {
    "json": (87e6, 5.3), "json-poly": (87e6, 5.3), "latex": (800e6, 4.8), "text": (580e6, 4.8), "gram": (580e6, 4.8),
}
#: The peak memory of the command before any closed form (the imports; ``derive -n 21`` text: 80 MB).
IMPORT_PEAK_BYTES = 80e6
#: Peak memory of JSON of exchangeable n = 51, 26>24 (exceptions not mirror symmetric): 553 MB (1.14 GB at n = 61,
#: 31>29; measured 2026-12-01), modelled as the import plus ``(n/51)^5``; other formats by their ratio to JSON in
#: :data:`SYMBOLIC_PEAK_AT_61` (not measured).
ASYMMETRIC_PEAK_AT_51 = 553e6

def _meminfo_available(text: str) -> float | None:
    """Bytes of ``MemAvailable`` in the text of ``/proc/meminfo`` (``None`` if it has no such line).

    >>> _meminfo_available("MemTotal:  24683584 kB\\nMemAvailable:  22564732 kB\\n")
    23106285568.0
    """
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key == "MemAvailable" and rest.split():
            return float(rest.split()[0]) * (1024 if rest.strip().endswith("kB") else 1)
    return None


def available_memory() -> float | None:
    """Bytes of memory this process may still take, read now (not at import): ``MemAvailable`` of
    ``/proc/meminfo``, lowered to what the control group's limit leaves (``memory.max`` less
    ``memory.current``, cgroup v2); ``None`` where neither can be read (not Linux), and then nothing is refused
    for memory."""
    found: list[float] = []
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/meminfo", encoding="ascii") as fh:
            value = _meminfo_available(fh.read())
        if value is not None:
            found.append(value)
    with contextlib.suppress(OSError, ValueError):
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        if limit != "max":
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
                found.append(float(limit) - float(fh.read().strip()))
    return min(found) if found else None



def symbolic_peak(n: int, fmt: str = "text", mirror: bool = True) -> float:
    """Estimated peak memory in bytes of ``derive`` writing every symbolic closed form of exchangeable ``n``
    (:data:`SYMBOLIC_PEAK_AT_61`, :data:`ASYMMETRIC_PEAK_AT_51`; docs/performance.md#budgets).

    >>> round(symbolic_peak(61) / 1e6)
    660
    >>> round(symbolic_peak(61, "json") / 1e6)
    167
    """
    part, exponent = SYMBOLIC_PEAK_AT_61.get(fmt, SYMBOLIC_PEAK_AT_61["text"])
    if not mirror:
        part = (ASYMMETRIC_PEAK_AT_51 - IMPORT_PEAK_BYTES) * part / SYMBOLIC_PEAK_AT_61["json"][0]
        return IMPORT_PEAK_BYTES + part * (n / 51) ** 5
    return IMPORT_PEAK_BYTES + part * (n / 61) ** exponent
