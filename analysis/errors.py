"""Input errors of the analysis layer that the CLI reports as one line (exit code 2).
Kept free of heavy imports so that the CLI and worker processes stay light."""

from sim.core.errors import UserInputError


class SweepError(UserInputError):
    """A sweep that cannot be run as asked."""


class OddsError(UserInputError):
    """Tonk deal odds asked for a player count or tonk minimum that does not exist."""


class BackendError(UserInputError):
    """A parallel backend that cannot be used (e.g. an unreachable dask scheduler)."""


class TuneError(UserInputError):
    """A tuning run (``rummylab tune``) that cannot be run as asked."""
