"""``Within(var, value)``: a context variable set for a block and reset when the block ends, however
it ends. A plain class rather than ``contextlib.contextmanager``'s generator: the engine enters such
a block (the loaded tables, the Rev. Rul. 2001-62 reading) three times for every participant it
calculates, and the generator's machinery was most of their cost. Each is entered once."""

from __future__ import annotations

from contextvars import ContextVar, Token


class Within[T]:
    __slots__ = ("_token", "_value", "_var")

    def __init__(self, var: ContextVar[T], value: T) -> None:
        self._var, self._value = var, value
        self._token: Token[T] | None = None

    def __enter__(self) -> None:
        self._token = self._var.set(self._value)

    def __exit__(self, *exc_info: object) -> None:
        assert self._token is not None
        self._var.reset(self._token)
