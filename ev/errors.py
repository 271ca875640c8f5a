"""Every error bjev raises on purpose lives here.

The CLI turns any :class:`BJEVError` into one line on stderr and exit code 2.
"""


class BJEVError(Exception):
    """Base class: a problem with the user's input, not a bug."""


class CardError(BJEVError, ValueError):
    """An unknown card symbol or an impossible set of cards."""


class RulesError(BJEVError, ValueError):
    """A rule field that does not exist or a value it does not allow."""


class EngineError(BJEVError, RuntimeError):
    """A question the engine cannot answer for this input (e.g. the unseen deck runs out)."""


class OutputError(BJEVError, OSError):
    """An output path that cannot be written."""


class MetadataError(BJEVError, ValueError):
    """A report metadata file (``--meta``) that cannot be read or holds a bad field."""
