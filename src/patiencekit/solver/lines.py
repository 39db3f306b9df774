"""The lines of the compact searches: each position found keeps its line as (its last
move, the line before it), a chain of pairs that costs one pair a position; the moves are
read back only for the line that wins.

>>> unwind((3, (2, (1, None))))
[1, 2, 3]
"""

from __future__ import annotations

__all__ = ["Line", "unwind"]

#: the line to a position: (its last move, the line before it), or None at the root
Line = tuple[int, object] | None


def unwind(line: Line) -> list[int]:
    """The moves of a line, first first."""
    out: list[int] = []
    while line is not None:
        out.append(line[0])
        rest = line[1]
        line = rest if isinstance(rest, tuple) else None
    out.reverse()
    return out
