"""Aria's errors: each says what went wrong and what the person can do about it."""

from __future__ import annotations


class AriaError(Exception):
    """Base class. ``str(err)`` is one line naming the cause and the fix."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(f"{message} {hint}".strip())


class ConfigError(AriaError):
    """A setting is missing, malformed or points somewhere unusable."""


class DatabaseUnavailable(AriaError):
    """The database cannot be reached, or lacks something Aria needs (e.g. pgvector)."""


class SeedError(AriaError):
    """Seeding the SmartRestaurant database was refused or failed (nothing was kept)."""


class GuardRejection(AriaError):
    """The safety guard refused a SQL statement. ``reason`` is fit to show and to feed back to a model."""


class QueryFailed(AriaError):
    """A guarded query failed on the database (syntax error, missing column, bad data, a limit such as
    temp_file_limit, ...): the SQL's own failure, worth another attempt; not an outage."""


class QueryTimeout(QueryFailed):
    """A query ran past its deadline and was cancelled."""


class CostRejection(GuardRejection):
    """EXPLAIN estimated a plan too expensive to run."""


class ModelError(AriaError):
    """A language model could not be reached, timed out, or answered unusably."""


class KnowledgeBaseError(AriaError):
    """The knowledge base is missing, built for another database, or cannot be changed as asked."""


class ValueRefused(KnowledgeBaseError):
    """The knowledge base's database refused a value for what it holds (a NUL byte, invalid text, a value too
    large, a broken constraint): writing the same value again fails again; a changed one may pass."""


class AlreadyRunning(AriaError):
    """Another Aria process already holds a resource (e.g. a running demo)."""
