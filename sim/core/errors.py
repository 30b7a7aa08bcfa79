"""Errors a user can fix (bad input): the CLI prints one line and exits with code 2.
Kept free of heavy imports so the CLI starts fast."""


class UserInputError(ValueError):
    """Bad input a user can fix; the CLI prints its message as one line and exits 2."""


class AdviceError(UserInputError):
    """A position the advisor cannot evaluate (illegal knock, impossible stock, ...)."""
