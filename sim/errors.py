"""The base class of every error a user can fix by changing the input."""


class UserInputError(ValueError):
    """Bad input a user can fix; the CLI prints one line and exits 2."""
