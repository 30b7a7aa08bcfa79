"""Input errors of the analysis layer that the CLI reports as one line (exit code 2).
Kept free of heavy imports so that the CLI and worker processes stay light."""


class SweepError(ValueError):
    """A sweep that cannot be run as asked."""
