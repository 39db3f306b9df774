"""Game number -> shuffled cards, the way PySolFC shuffles them.

A deal is a function of the game number alone, so any deal can be replayed.
Cards here are *card ids*: ``deck * 52 + suit * 13 + rank`` with suits in
PySolFC's order clubs, spades, hearts, diamonds (0..3) and ranks ace..king
(0..12). ``card_id % 52`` is the card's index in :mod:`patiencekit.cards`;
the deck number only tells the two copies of a card apart.

The shuffle (PySolFC's ``Game.shuffle`` with ``construct_random``):

1. Cards are created in order: deck by deck, suits C S H D, ranks A..K.
2. Game numbers below 32000 use the Microsoft C runtime's linear congruential
   generator (:class:`LCRandom31`). A one-deck game first reorders its 52 cards
   as Microsoft FreeCell does (:func:`ms_rearrange`), so those numbers give the
   Microsoft / FreeCell Pro deals. Numbers from 32000 up use CPython's
   Mersenne Twister (:class:`MTRandom`).
3. Fisher-Yates from the last index down: for ``n`` from ``len - 1`` to 1,
   swap items ``n`` and ``randint(0, n)``.
4. The **last** item of the list is the first card dealt.

>>> ids = shuffled_ids(24, decks=1)
>>> len(ids), sorted(ids) == list(range(52))
(52, True)
>>> dealing_order(24, decks=1)[:3]  # Klondike #24: 4C, 5H, QC go to piles 7, 6, 5
[3, 30, 11]

Two known differences with the ``pysol-cards`` package (the deal library that
PySolFC itself imports):

- ``pysol_cards.random.shuffle`` uses the Microsoft generator for game numbers
  up to *and including* 32000; PySolFC (and this module) use it only below
  32000, so #32000 is a Mersenne Twister deal here and in PySolFC.
- ``pysol_cards``' ``LCRandom31`` refuses the seed 0, so current PySolFC cannot
  open game #0. Older PySolFC, with its own ``LCRandom31``, dealt #0 from the
  generator seeded with 0; this module does the same rather than fail.
"""

from __future__ import annotations

import random as _random
from typing import Protocol

from patiencekit.errors import PatienceError

__all__ = [
    "MAX_GAME_NUMBER",
    "MS_NUMBER_LIMIT",
    "LCRandom31",
    "MTRandom",
    "dealing_order",
    "move_to_top",
    "ms_rearrange",
    "shuffled_ids",
]

MS_NUMBER_LIMIT = 32000
"""Game numbers below this use :class:`LCRandom31`; from it up, :class:`MTRandom`."""

MAX_GAME_NUMBER = 10**20 - 1
"""The largest game number: PySolFC shows game numbers as (at most) 20 digits."""

_MASK33 = (1 << 33) - 1


class _RandInt(Protocol):
    def randint(self, a: int, b: int) -> int: ...


class LCRandom31:
    """Microsoft's C runtime ``rand()``, as PySolFC and ``pysol_cards`` run it.

    The state is ``seedx = (seedx * 214013 + 2531011) mod 2**33``. For seeds below
    2**31 the output is ``(seedx >> 16) & 0x7fff``, the Microsoft FreeCell deals;
    for 2**31 <= seed < 2**32 it is the same with bit 15 set; for seeds from 2**32
    the state starts at ``seed - 2**32`` and the output is
    ``((seedx >> 16) & 0xffff) + 1`` (FreeCell Pro's extended deals). Seeds are
    0 <= seed < 2**33.

    >>> r = LCRandom31(1)
    >>> [r.randint(0, 51) for _ in range(3)]
    [41, 7, 42]
    """

    __slots__ = ("_mode", "_seedx", "seed")

    MAX_SEED = _MASK33
    """The largest seed (2**33 - 1)."""

    def __init__(self, seed: int) -> None:
        """Start the generator from ``seed`` (0 <= seed < 2**33)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK33:
            raise PatienceError(
                f"The seed of LCRandom31 must be an integer from 0 to {_MASK33}; got {seed!r}."
            )
        self.seed = seed
        if seed < 0x80000000:
            self._mode = 0
        elif seed < 0x100000000:
            self._mode = 1
        else:
            self._mode = 2
        self._seedx = seed if seed < 0x100000000 else seed - 0x100000000

    def rand(self) -> int:
        """The next raw output (0..0x7fff, 0x8000..0xffff or 1..0x10000 by seed range).

        >>> LCRandom31(1).rand()  # Microsoft's rand() after srand(1)
        41
        """
        self._seedx = x = (self._seedx * 214013 + 2531011) & _MASK33
        if self._mode == 0:
            return (x >> 16) & 0x7FFF
        if self._mode == 1:
            return ((x >> 16) & 0x7FFF) | 0x8000
        return ((x >> 16) & 0xFFFF) + 1

    def randint(self, a: int, b: int) -> int:
        """A number from ``a`` to ``b``, both included: ``a + rand() % (b + 1 - a)``.

        >>> LCRandom31(3_000_000_000).randint(0, 51)
        29
        """
        if b < a:
            raise PatienceError(f"randint needs a <= b; got a={a!r}, b={b!r}.")
        return a + self.rand() % (b + 1 - a)


class MTRandom:
    """CPython's Mersenne Twister with PySolFC's ``randint``.

    The stream is ``random.Random(seed).random()``; ``randint(a, b)`` is
    ``a + int(random() * (b + 1 - a))`` (PySolFC's ``RandomBase``), which is not
    what :meth:`random.Random.randint` returns.

    >>> r = MTRandom(123456)
    >>> [r.randint(0, 51) for _ in range(3)]
    [41, 41, 1]
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        """Seed the twister with a non-negative integer, as ``random.Random(seed)``."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise PatienceError(
                f"The seed of MTRandom must be a non-negative integer; got {seed!r}."
            )
        self.seed = seed
        self._random = _random.Random(seed)

    def random(self) -> float:
        """The next float in [0, 1), exactly as ``random.Random(seed).random()``.

        >>> MTRandom(5).random() == __import__("random").Random(5).random()
        True
        """
        return self._random.random()

    def randint(self, a: int, b: int) -> int:
        """A number from ``a`` to ``b``, both included: ``a + int(random() * (b + 1 - a))``.

        >>> MTRandom(32000).randint(0, 103)
        38
        """
        if b < a:
            raise PatienceError(f"randint needs a <= b; got a={a!r}, b={b!r}.")
        return a + int(self._random.random() * (b + 1 - a))


def ms_rearrange(ids: list[int]) -> list[int]:
    """Microsoft's card order: for each rank A..K, the suits C, D, H, S.

    Takes 52 cards in creation order (suits C S H D, ranks A..K) and returns a
    new list; PySolFC applies this before shuffling a one-deck game with the
    Microsoft generator.

    >>> ms_rearrange(list(range(52)))[:6]  # AC AD AH AS 2C 2D
    [0, 39, 26, 13, 1, 40]
    """
    if len(ids) != 52:
        raise PatienceError(f"ms_rearrange needs exactly 52 cards; got {len(ids)}.")
    return [ids[rank + suit] for rank in range(13) for suit in (0, 39, 26, 13)]


def _check(number: int, decks: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise PatienceError(f"The game number must be an integer; got {number!r}.")
    if not 0 <= number <= MAX_GAME_NUMBER:
        raise PatienceError(f"The game number must be from 0 to {MAX_GAME_NUMBER}; got {number}.")
    if type(decks) is not int or decks not in (1, 2):
        raise PatienceError(f"The number of decks must be 1 or 2; got {decks!r}.")


def shuffled_ids(number: int, decks: int) -> list[int]:
    """The shuffled card ids of game ``number`` with ``decks`` decks (1 or 2).

    The list is in PySolFC's talon order: its **last** item is dealt first.
    Game numbers are 0 <= number <= :data:`MAX_GAME_NUMBER` (20 digits).

    >>> shuffled_ids(24, 1)[-3:]  # Klondike #24 deals 4C, then 5H, then QC
    [11, 30, 3]
    >>> len(shuffled_ids(10**19, 2))
    104
    >>> shuffled_ids(-1, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    patiencekit.errors.PatienceError: The game number must be from 0 to 9999...; got -1.
    """
    _check(number, decks)
    ids = list(range(52 * decks))
    rng: _RandInt
    if number < MS_NUMBER_LIMIT:
        rng = LCRandom31(number)
        if decks == 1:
            ids = ms_rearrange(ids)
    else:
        rng = MTRandom(number)
    randint = rng.randint
    for n in range(len(ids) - 1, 0, -1):
        j = randint(0, n)
        ids[n], ids[j] = ids[j], ids[n]
    return ids


def dealing_order(number: int, decks: int) -> list[int]:
    """The cards of game ``number`` in the order they are dealt (first dealt first).

    This is :func:`shuffled_ids` reversed.

    >>> dealing_order(123456, 1)[:3]  # Klondike #123456: 3D, 2D, 2C to piles 7, 6, 5
    [41, 40, 1]
    >>> dealing_order(5, 3)
    Traceback (most recent call last):
    ...
    patiencekit.errors.PatienceError: The number of decks must be 1 or 2; got 3.
    """
    ids = shuffled_ids(number, decks)
    ids.reverse()
    return ids


def move_to_top(ids: list[int], chosen: list[int]) -> list[int]:
    """Move ``chosen`` cards so they are dealt first, in the order given.

    ``ids`` is a talon-order list (last item dealt first), as from
    :func:`shuffled_ids`. The result is a new list: the other cards keep their
    relative order and the chosen ones end it, so that ``chosen[0]`` is dealt
    first, then ``chosen[1]``, and so on. This is what a game's shuffle hook
    needs; Patriarchs, for example, deals the ace and king of each suit from
    deck 0 onto its foundations before anything else.

    >>> move_to_top([0, 1, 2, 3, 4], [1, 3])
    [0, 2, 4, 3, 1]
    >>> move_to_top([0, 1, 2], [5])
    Traceback (most recent call last):
    ...
    patiencekit.errors.PatienceError: Cannot move card id 5 to the top: it is not among the cards.
    """
    picked = set(chosen)
    if len(picked) != len(chosen):
        raise PatienceError(f"The cards to move to the top repeat a card id: {chosen!r}.")
    rest = [card for card in ids if card not in picked]
    if len(rest) + len(chosen) != len(ids):
        present = set(ids)
        for card in chosen:
            if card not in present:
                raise PatienceError(
                    f"Cannot move card id {card!r} to the top: it is not among the cards."
                )
        raise PatienceError("Cannot move cards to the top: the card list repeats a card id.")
    rest.extend(reversed(chosen))
    return rest
