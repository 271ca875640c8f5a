"""Every error bjev raises on purpose lives here, and the one way an error quotes what it was given.

The CLI turns any :class:`BJEVError` into one line on stderr and exit code 2.
"""
from __future__ import annotations

#: the longest quotation of the user's input in an error message (characters, quotes included)
EXCERPT_CHARS = 40


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


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)`` cut to at most ``limit`` characters: a long one keeps its start and end around '…'.

    Error messages quote the user's input only through this, so that a 100,000-character hand or a
    4,000-digit number gives a short line (``repr`` of such an integer would even raise).
    """
    try:
        text = repr(value)
    except (ValueError, RecursionError):       # an integer of more than 4,300 digits; a deeply nested list
        text = f"<{type(value).__name__}>"
        if isinstance(value, int):
            text = f"<an integer of {value.bit_length()} bits>"
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[-(limit - 1 - head):]
