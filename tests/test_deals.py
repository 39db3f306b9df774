"""Tests of patiencekit.deals: fixed vectors, the pysol-cards oracle, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random import LCRandom31 as PysolLCRandom31
from pysol_cards.random import MTRandom as PysolMTRandom
from pysol_cards.random import shuffle as pysol_shuffle
from pysol_cards.random_base import RandomBase

from patiencekit.deals import (
    MAX_GAME_NUMBER,
    MS_NUMBER_LIMIT,
    LCRandom31,
    MTRandom,
    dealing_order,
    move_to_top,
    ms_rearrange,
    shuffled_ids,
)

# --- helpers -------------------------------------------------------------------------------------


def text(card_id: int) -> str:
    """Card text as PySolFC / pysol_cards print it: rank letter (T for ten), suit letter."""
    return "A23456789TJQK"[card_id % 13] + "CSHD"[card_id % 52 // 13]


Pile = list[tuple[int, bool]]  # (card id, face up), first dealt first


def deal_klondike(order: list[int]) -> tuple[list[Pile], list[int]]:
    """Deal Klondike the PySolFC way from a dealing order (first dealt first).

    Six face-down rounds: the first to piles 7..2, the next to 7..3, ... the last to
    pile 7; then one face-up round to piles 7..1. The remaining cards are the stock,
    listed next-to-draw first (our waste starts empty, so PySolFC's waste card is
    simply the first stock card). Piles are numbered 1..7 left to right and returned
    as a list indexed 0..6, each listed from its deepest card to its free end.
    """
    cards = iter(order)
    piles: list[Pile] = [[] for _ in range(7)]
    for lowest in range(2, 8):  # rounds end at pile 2, 3, ..., 7
        for pile in range(7, lowest - 1, -1):
            piles[pile - 1].append((next(cards), False))
    for pile in range(7, 0, -1):
        piles[pile - 1].append((next(cards), True))
    return piles, list(cards)


def render_pile(pile: Pile) -> str:
    return " ".join(text(c) if up else f"<{text(c)}>" for c, up in pile)


def render_klondike(number: int) -> list[str]:
    """Our Klondike deal as pysol_cards prints it: ``Talon: ...`` then piles 1..7."""
    piles, stock = deal_klondike(dealing_order(number, 1))
    return ["Talon: " + " ".join(text(c) for c in stock)] + [render_pile(p) for p in piles]


def pysol_layout(game: str, number: int) -> list[str]:
    layout: str = PysolGame(game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    return layout.splitlines()


# --- fixed vectors (research notes 3.3) ----------------------------------------------------------

KLONDIKE_24 = {
    "piles": [
        "5C",
        "<7H> 9H",
        "<2D> <9S> AC",
        "<5D> <QH> <5S> 8C",
        "<QC> <2C> <JS> <3C> 7D",
        "<5H> <7S> <KD> <9C> <JC> 6S",
        "<4C> <AH> <2S> <6C> <6H> <TH> KH",
    ],
    "stock": "TC TS AD 4D QS 3H 3S JH TD KC 8H 8S 4S 4H KS 6D 8D 7C JD 9D 2H QD 3D AS",
}

KLONDIKE_123456 = {
    "piles": [
        "3C",
        "<6H> KD",
        "<AC> <8S> JD",
        "<9C> <TC> <2S> TS",
        "<2C> <6C> <TH> <4H> 9H",
        "<2D> <KC> <9D> <AS> <QH> 3S",
        "<3D> <4C> <8C> <JS> <AH> <7H> 8H",
    ],
    "stock": "6D QS 6S 4S QC TD KH 5D KS 7D 5H 7S 8D 2H 5S 9S JH JC 3H AD 4D 5C 7C QD",
}


@pytest.mark.parametrize(
    ("number", "expected"), [(24, KLONDIKE_24), (123456, KLONDIKE_123456)], ids=["24", "123456"]
)
def test_klondike_fixed_vectors(number: int, expected: dict[str, object]) -> None:
    piles, stock = deal_klondike(dealing_order(number, 1))
    assert [render_pile(p) for p in piles] == expected["piles"]
    # Only the last card of each pile is face up, and pile i holds i cards.
    for i, pile in enumerate(piles, start=1):
        assert len(pile) == i
        assert [up for _, up in pile] == [False] * (i - 1) + [True]
    assert len(stock) == 24
    assert " ".join(text(c) for c in stock) == expected["stock"]


def test_klondike_draw_three_first_turn_of_123456() -> None:
    # PySolFC Draw 3 turns 6D QS 6S (6S on top) and leaves 4S next; here the stock is the
    # same list, so the first three stock cards are those.
    _, stock = deal_klondike(dealing_order(123456, 1))
    assert [text(c) for c in stock[:4]] == ["6D", "QS", "6S", "4S"]


# Microsoft FreeCell deals #1 and #617 (the well-known published vectors): dealt row by row
# into 8 columns, so the dealing order read 8 at a time gives the rows.
FREECELL_ROWS = {
    1: [
        "JD 2D 9H JC 5D 7H 7C 5H",
        "KD KC 9S 5S AD QC KH 3H",
        "2S KS 9D QD JS AS AH 3C",
        "4C 5C TS QH 4H AC 4D 7S",
        "3S TD 4S TH 8H 2C JH 7D",
        "6D 8S 8D QS 6C 3D 8C TC",
        "6S 9C 2H 6H",
    ],
    617: [
        "7D AD 5C 3S 5S 8C 2D AH",
        "TD 7S QD AC 6D 8H AS KH",
        "TH QC 3H 9D 6S 8D 3D TC",
        "KD 5H 9S 3C 8S 7H 4D JS",
        "4C QS 9C 9H 7C 6H 2C 2S",
        "4S TS 2H 5D JC 6C JH QH",
        "JD KS KC 4H",
    ],
}


@pytest.mark.parametrize("number", sorted(FREECELL_ROWS))
def test_microsoft_freecell_deals(number: int) -> None:
    order = [text(c) for c in dealing_order(number, 1)]
    rows = [" ".join(order[i : i + 8]) for i in range(0, 52, 8)]
    assert rows == FREECELL_ROWS[number]


# --- the pysol_cards oracle ----------------------------------------------------------------------

# At least 200 numbers on each side of the switch; 0 and 32000 are tested on their own below.
MS_NUMBERS = sorted({1, 2, 3, 24, 617, 11982, 31998, 31999, *range(5, 32000, 151)})
_spread = random.Random(20240601)
MT_NUMBERS = sorted(
    {
        32001,
        32002,
        123456,
        2**31,
        2**32,
        2**33,
        2**64,
        10**16,
        10**19,
        MAX_GAME_NUMBER,
        *range(32003, 32103),
        *(_spread.randrange(32001, 10**20) for _ in range(100)),
    }
)


def test_oracle_sample_sizes() -> None:
    assert len(MS_NUMBERS) >= 200
    assert all(0 < n < MS_NUMBER_LIMIT for n in MS_NUMBERS)
    assert len(MT_NUMBERS) >= 200
    assert all(MS_NUMBER_LIMIT < n <= MAX_GAME_NUMBER for n in MT_NUMBERS)


@pytest.mark.parametrize("game", ["klondike", "klondike_by_threes"])
@pytest.mark.parametrize("numbers", [MS_NUMBERS, MT_NUMBERS], ids=["ms", "mt"])
def test_klondike_matches_pysol_cards(game: str, numbers: list[int]) -> None:
    # pysol_cards prints "Talon: <all undealt cards, next first>" and the 7 piles,
    # face-down cards as <XX>: same piles, face-down marks and stock order.
    mismatches = [n for n in numbers if render_klondike(n) != pysol_layout(game, n)]
    assert mismatches == []


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("numbers", [MS_NUMBERS, MT_NUMBERS], ids=["ms", "mt"])
def test_shuffle_matches_pysol_cards(decks: int, numbers: list[int]) -> None:
    def theirs(n: int) -> list[int]:
        return [c.id for c in pysol_shuffle(createCards(decks), n, RandomBase.DEALS_PYSOLFC)]

    mismatches = [n for n in numbers[::4] if shuffled_ids(n, decks) != theirs(n)]
    assert mismatches == []


@pytest.mark.parametrize(
    "seed",
    [1, 24, 31999, 2**31 - 1, 2**31, 2**31 + 12345, 2**32 - 1, 2**32, 2**32 + 5, 2**33 - 1],
)
def test_lcrandom31_matches_pysol_cards_in_every_seed_range(seed: int) -> None:
    ours, theirs = LCRandom31(seed), PysolLCRandom31(seed)
    bounds = [b for b in range(1, 200)] + [0x7FFF, 0xFFFF, 0x10000, 10**6]
    assert [ours.randint(0, b) for b in bounds] == [theirs.randint(0, b) for b in bounds]
    assert [ours.randint(-5, 5) for _ in range(50)] == [theirs.randint(-5, 5) for _ in range(50)]


@pytest.mark.parametrize("seed", [0, 1, 32000, 123456, 2**32, 10**19, MAX_GAME_NUMBER])
def test_mtrandom_matches_pysol_cards(seed: int) -> None:
    ours, theirs = MTRandom(seed), PysolMTRandom(seed)
    bounds = list(range(1, 200))
    assert [ours.randint(0, b) for b in bounds] == [theirs.randint(0, b) for b in bounds]
    assert ours.random() == theirs.random()


def test_mtrandom_randint_is_not_pythons() -> None:
    # PySolFC's randint(a, b) = a + int(random() * (b + 1 - a)), not random.Random.randint.
    ours, stdlib = MTRandom(123456), random.Random(123456)
    assert [ours.randint(0, 51) for _ in range(20)] != [stdlib.randint(0, 51) for _ in range(20)]


# --- the documented disagreements with pysol_cards -----------------------------------------------


def _fisher_yates(ids: list[int], rng: LCRandom31 | MTRandom) -> list[int]:
    for n in range(len(ids) - 1, 0, -1):
        j = rng.randint(0, n)
        ids[n], ids[j] = ids[j], ids[n]
    return ids


def test_32000_is_mersenne_twister_as_in_pysolfc_but_not_pysol_cards() -> None:
    # PySolFC's construct_random uses LCRandom31 for 0 <= n < 32000 and MTRandom from 32000;
    # pysol_cards.random.shuffle uses the Microsoft generator for n <= 32000.
    assert MS_NUMBER_LIMIT == 32000
    assert shuffled_ids(32000, 1) == _fisher_yates(list(range(52)), MTRandom(32000))
    assert shuffled_ids(32000, 2) == _fisher_yates(list(range(104)), MTRandom(32000))
    theirs = [c.id for c in pysol_shuffle(createCards(1), 32000, RandomBase.DEALS_PYSOLFC)]
    assert theirs == _fisher_yates(ms_rearrange(list(range(52))), LCRandom31(32000))
    assert theirs != shuffled_ids(32000, 1)
    assert render_klondike(32000) != pysol_layout("klondike", 32000)
    # 31999 and 32001 agree: the two only differ at exactly 32000.
    assert render_klondike(31999) == pysol_layout("klondike", 31999)
    assert render_klondike(32001) == pysol_layout("klondike", 32001)


def test_game_zero_uses_the_lcg_seeded_with_zero() -> None:
    # pysol_cards' LCRandom31 refuses seed 0 (so current PySolFC cannot open #0); older
    # PySolFC dealt it from the generator seeded with 0, and so do we.
    with pytest.raises(ValueError):
        PysolLCRandom31(0)
    assert shuffled_ids(0, 1) == _fisher_yates(ms_rearrange(list(range(52))), LCRandom31(0))
    assert shuffled_ids(0, 2) == _fisher_yates(list(range(104)), LCRandom31(0))


# --- shuffle details -----------------------------------------------------------------------------


def test_ms_rearrange_order() -> None:
    order = [text(c) for c in ms_rearrange(list(range(52)))]
    assert order[:8] == ["AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S"]
    assert order[-4:] == ["KC", "KD", "KH", "KS"]
    with pytest.raises(ValueError, match="exactly 52 cards"):
        ms_rearrange(list(range(104)))


def test_two_decks_below_32000_are_not_rearranged() -> None:
    assert shuffled_ids(24, 2) == _fisher_yates(list(range(104)), LCRandom31(24))


def test_dealing_order_is_the_reversed_list() -> None:
    for n in (0, 24, 32000, 10**19):
        for decks in (1, 2):
            assert dealing_order(n, decks) == shuffled_ids(n, decks)[::-1]


def test_each_call_returns_a_fresh_list() -> None:
    a = shuffled_ids(24, 1)
    a.clear()
    assert len(shuffled_ids(24, 1)) == 52


def test_randint_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        LCRandom31(1).randint(3, 2)
    with pytest.raises(ValueError):
        MTRandom(1).randint(3, 2)


@pytest.mark.parametrize("seed", [-1, 2**33, 1.0, "1", True, None])
def test_lcrandom31_rejects_bad_seeds(seed: object) -> None:
    with pytest.raises(ValueError, match="seed of LCRandom31"):
        LCRandom31(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 1.0, "1", False])
def test_mtrandom_rejects_bad_seeds(seed: object) -> None:
    with pytest.raises(ValueError, match="seed of MTRandom"):
        MTRandom(seed)  # type: ignore[arg-type]


# --- move_to_top ---------------------------------------------------------------------------------

PATRIARCHS_FIRST = [0, 13, 26, 39, 12, 25, 38, 51]  # AC AS AH AD KC KS KH KD of deck 0


@pytest.mark.parametrize("number", [1, 24, 31999, 32000, 123456, 10**19])
def test_move_to_top_matches_pysol_cards_hook(number: int) -> None:
    # PySolFC's Patriarchs hook: _shuffleHookMoveToTop with the A and K of each suit from
    # deck 0, sorted by (rank, suit), so AC AS AH AD KC KS KH KD are dealt first.
    ids = shuffled_ids(number, 2)
    by_id = {c.id: c for c in createCards(2)}
    hook = PysolGame("gypsy", 1, RandomBase.DEALS_PYSOLFC)._shuffleHookMoveToTop
    theirs = hook(
        [by_id[i] for i in ids],
        lambda c: (c.id in PATRIARCHS_FIRST, (c.rank, c.suit)),
        8,
    )
    ours = move_to_top(ids, PATRIARCHS_FIRST)
    assert ours == [c.id for c in theirs]
    assert [text(c) for c in ours[::-1][:8]] == ["AC", "AS", "AH", "AD", "KC", "KS", "KH", "KD"]


def test_move_to_top_does_not_change_its_input() -> None:
    ids = [4, 3, 2, 1, 0]
    assert move_to_top(ids, [0, 4]) == [3, 2, 1, 4, 0]
    assert ids == [4, 3, 2, 1, 0]
    assert move_to_top(ids, []) == ids


def test_move_to_top_rejects_bad_choices() -> None:
    with pytest.raises(ValueError, match="not among the cards"):
        move_to_top([0, 1, 2], [1, 7])
    with pytest.raises(ValueError, match="repeat a card id"):
        move_to_top([0, 1, 2], [1, 1])
    with pytest.raises(ValueError, match="repeats a card id"):
        move_to_top([0, 1, 1, 2], [1])


@given(
    number=st.integers(0, MAX_GAME_NUMBER),
    decks=st.sampled_from([1, 2]),
    data=st.data(),
)
def test_move_to_top_properties(number: int, decks: int, data: st.DataObject) -> None:
    ids = shuffled_ids(number, decks)
    chosen = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=12))
    moved = move_to_top(ids, chosen)
    assert sorted(moved) == sorted(ids)
    assert moved[::-1][: len(chosen)] == chosen
    assert moved[: len(ids) - len(chosen)] == [c for c in ids if c not in chosen]


# --- properties ----------------------------------------------------------------------------------


@given(number=st.integers(0, MAX_GAME_NUMBER), decks=st.sampled_from([1, 2]))
def test_shuffled_ids_is_a_permutation(number: int, decks: int) -> None:
    ids = shuffled_ids(number, decks)
    assert sorted(ids) == list(range(52 * decks))


@given(number=st.integers(0, MS_NUMBER_LIMIT + 100), decks=st.sampled_from([1, 2]))
def test_shuffled_ids_is_a_permutation_near_the_switch(number: int, decks: int) -> None:
    assert sorted(shuffled_ids(number, decks)) == list(range(52 * decks))


@given(
    number=st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=MAX_GAME_NUMBER + 1),
        st.floats(),
        st.text(max_size=5),
        st.booleans(),
        st.none(),
    )
)
def test_bad_game_numbers_raise_value_error(number: object) -> None:
    with pytest.raises(ValueError, match="game number"):
        shuffled_ids(number, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="game number"):
        dealing_order(number, 2)  # type: ignore[arg-type]


@given(
    number=st.integers(0, MAX_GAME_NUMBER),
    decks=st.one_of(
        st.integers().filter(lambda d: d not in (1, 2)),
        st.floats(),
        st.booleans(),
        st.text(max_size=3),
        st.none(),
    ),
)
def test_bad_deck_counts_raise_value_error(number: int, decks: object) -> None:
    with pytest.raises(ValueError, match="number of decks"):
        shuffled_ids(number, decks)  # type: ignore[arg-type]


def test_error_messages_are_sentences_naming_the_input() -> None:
    with pytest.raises(ValueError) as err:
        shuffled_ids(-7, 1)
    assert str(err.value).startswith("The game number") and "-7" in str(err.value)
    with pytest.raises(ValueError) as err:
        shuffled_ids(5, 3)
    assert str(err.value) == "The number of decks must be 1 or 2; got 3."
    with pytest.raises(ValueError) as err:
        shuffled_ids("12", 1)  # type: ignore[arg-type]
    assert str(err.value) == "The game number must be an integer; got '12'."
