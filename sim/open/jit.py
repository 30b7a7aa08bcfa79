"""The two ways the open-melding engine compiles a kernel.

``kernel``: ``njit(cache=True)`` with numba's reference-counting runtime switched on
explicitly, for kernels that allocate arrays (or call one that does); a ``noalloc`` kernel may
call a ``kernel`` (which returns no array), since the switch is not inherited from the caller.

``noalloc``: ``njit(cache=True, _nrt=False)``, for kernels that allocate nothing and call only
other ``noalloc`` kernels (or inlined helpers that allocate nothing).  Without numba's
reference-counting runtime a kernel takes its array arguments as plain views: numba emits no
atomic reference-count increment and decrement for each array argument of each call, which
the optimiser cannot remove from functions with several exits.  Those atomic operations were
about half of the engine's time (measured with ``perf`` on Loba, issue 19 part 5).  The
results are the same; a ``noalloc`` kernel that allocates fails to compile ("NRT required
but not enabled"), so a mistake is loud.
"""

from numba import njit

kernel = njit(cache=True, _nrt=True)
noalloc = njit(cache=True, _nrt=False)
