"""RULES.md section 4, "Senior Wrangler" (seed 004), played rule by rule.

Every rule sentence is played here, legal and illegal; each test is named after the rule
it plays and quotes it. Illegal moves are checked with ``family_positions.refused``: the
message names the move and gives the reason, and the position is unchanged.

Foundation f1..f8 lies below index card i1..i8 (ranks 2..9): foundation n-1 is the one
under index card n. Playable bases on empty foundations are the ranks 4 6 8 10 Q A 3 5;
packets topped only by 2s, 7s, 9s, jacks and kings therefore make a stoppage.
"""

from __future__ import annotations

from collections import Counter

import pytest

from family_positions import (
    cards,
    count,
    labels,
    legal_texts,
    plays,
    position,
    refused,
    undo_restores,
)
from patiencekit import Game, IllegalMoveError, InvalidMoveError, new_game
from patiencekit.cards import card_text
from patiencekit.deals import dealing_order
from patiencekit.rules import PileKind

#: RULES.md: "Below index card n a foundation starts with the card of rank 2n (mod 13:
#: 7 -> A, 8 -> 3, 9 -> 5) and builds up by n, wrapping at 13, ... 12 cards ending on a
#: king." Worked out by hand (index 2 and 3 are quoted in RULES.md).
SEQUENCES = {
    2: "4 6 8 T Q A 3 5 7 9 J K",
    3: "6 9 Q 2 5 8 J A 4 7 T K",
    4: "8 Q 3 7 J 2 6 T A 5 9 K",
    5: "T 2 7 Q 4 9 A 6 J 3 8 K",
    6: "Q 5 J 4 T 3 9 2 8 A 7 K",
    7: "A 8 2 9 3 T 4 J 5 Q 6 K",
    8: "3 J 6 A 9 4 Q 7 2 T 5 K",
    9: "5 A T 6 2 J 7 3 Q 8 4 K",
}
SUITS = "CDHS"
NUMBERS = [1, 5, 648, 31999, 32000, 1234567890]
PACKETS = [f"p{i}" for i in range(1, 9)]


def seq(n: int, length: int = 12, suits: str = SUITS) -> str:
    """The first ``length`` cards of index n's foundation, suits cycling (suit is ignored)."""
    ranks = SEQUENCES[n].split()[:length]
    return " ".join(r + suits[i % len(suits)] for i, r in enumerate(ranks))


def packets_of(game: Game) -> list[str]:
    return [cards(game, p) for p in PACKETS]


def stoppage(packets: list[str], **piles: str) -> Game:
    """A Senior Wrangler position with the given packets (and other piles by label)."""
    return position("senior-wrangler", {**dict(zip(PACKETS, packets, strict=True)), **piles})


# --- the layout ---------------------------------------------------------------------------


@pytest.mark.parametrize("number", NUMBERS)
def test_two_decks(number: int) -> None:
    """"Two decks." Every card is dealt exactly twice, 104 cards."""
    game = new_game("senior-wrangler", number)
    counted = Counter(card_text(c) for pile in game.state.piles for c in pile)
    assert sum(counted.values()) == 104 and set(counted.values()) == {2}
    assert len(counted) == 52


@pytest.mark.parametrize("number", NUMBERS)
def test_eight_index_cards_one_each_of_ranks_2_to_9(number: int) -> None:
    """"Eight index cards, one each of ranks 2, 3, 4, 5, 6, 7, 8, 9 (any suit), are laid
    out": i1..i8, in rank order."""
    game = new_game("senior-wrangler", number)
    assert labels(game, PileKind.INDEX) == [f"i{n}" for n in range(1, 9)]
    index = [cards(game, f"i{n}") for n in range(1, 9)]
    assert [c[:-1] for c in index] == list("23456789")
    assert labels(game, PileKind.FOUNDATION) == [f"f{n}" for n in range(1, 9)]
    assert count(game, PileKind.FOUNDATION) == 0


@pytest.mark.parametrize("number", NUMBERS)
def test_other_96_cards_form_eight_face_up_packets_of_12(number: int) -> None:
    """"The other 96 cards form 8 face-up board packets of 12". Dealt in rows across
    the packets (as PySolFC deals them) once the first card found of each rank 2..9 is
    taken out as an index card."""
    game = new_game("senior-wrangler", number)
    order = [card_text(c % 52) for c in dealing_order(number, 2)]
    index = [cards(game, f"i{n}") for n in range(1, 9)]
    rest = list(order)
    for card in index:
        rest.remove(card)  # the first one found
        assert card == next(c for c in order if c[:-1] == card[:-1])
    assert packets_of(game) == [" ".join(rest[i::8]) for i in range(8)]
    shown = {p["index"]: p for p in game.deal_json()["piles"] if p["kind"] == "packet"}
    for i in range(1, 9):
        assert len(shown[i]["cards"]) == 12
        assert shown[i]["face_down"] == 0
    assert not labels(game, PileKind.STOCK) and not labels(game, PileKind.WASTE)


def test_index_cards_never_move() -> None:
    """"Eight index cards ... are laid out and never move": a move from one (``i1``, as the
    board text names them) is refused with that reason; nothing can be put on one,
    even when a foundation would take the card; packet deals leave them alone."""
    game = stoppage(["9C"] * 8, f6="AC 8D")  # f6 (index 7: A 8 2 ...) wants a 2 next
    assert cards(game, "i1")[0] == "2"
    before = game.board_text()
    for text in ("i1 f6", "i1 f"):
        with pytest.raises(IllegalMoveError, match="index cards never move"):
            game.play(text)
        assert text not in game.legal_moves
    for text in ("p1 i1", "f6 i2"):
        with pytest.raises(InvalidMoveError, match="is not a pile"):
            game.play(text)
        assert text not in game.legal_moves
    assert game.board_text() == before
    assert not any(str(m).startswith("i") or " i" in str(m) for m in game.legal_moves)
    index = [cards(game, f"i{n}") for n in range(1, 9)]
    plays(game, "t")
    assert [cards(game, f"i{n}") for n in range(1, 9)] == index


def test_only_each_packets_top_card_is_playable() -> None:
    """"only each packet's top card is playable": a card below the top is not, even
    when a foundation wants it."""
    game = stoppage(["4C 9D", "", "", "", "", "", "", ""])
    refused(game, "p1 f1", "9D cannot start f1: it takes a 4 of any suit")
    refused(game, "p1 f", "no foundation takes 9D now")
    assert not any(str(m).startswith("p1") for m in game.legal_moves)
    game = stoppage(["9D 4C", "", "", "", "", "", "", ""])
    undo_restores(game, "p1 f1")
    assert cards(game, "p1") == "9D"


def test_packet_cards_play_only_to_a_foundation() -> None:
    """"only each packet's top card is playable, and only to a foundation"."""
    game = stoppage(["9D", "TC", "", "", "", "", "", ""])
    refused(game, "p1 p2", "packet cards play only to the foundations")
    refused(game, "p1 p3", "packet cards play only to the foundations")
    refused(game, "p2 p1", "packet cards play only to the foundations")


def test_no_stock_and_no_other_piles() -> None:
    """Section 4 has index cards, packets and foundations only: ``s`` and moves naming
    other piles are refused with the reason."""
    game = new_game("senior-wrangler", 5)
    refused(game, "s", "this game has no stock: t deals out the next packet")
    refused(game, "w f", "this game has no pile w")
    refused(game, "p1 c1", "this game has no pile c1")
    refused(game, "p9 f", "this game has no pile p9")


# --- the foundations --------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 10))
def test_foundation_below_index_n_starts_with_rank_2n_and_builds_up_by_n_to_king(
    n: int,
) -> None:
    """"Below index card n a foundation starts with the card of rank 2n (mod 13: 7 -> A,
    8 -> 3, 9 -> 5) and builds up by n, wrapping at 13, ignoring suit, 12 cards ending on
    a king." Played card by card from a packet, suits mixed."""
    f = f"f{n - 1}"
    game = stoppage([" ".join(reversed(seq(n).split())), "", "", "", "", "", "", ""])
    for card in seq(n).split():
        plays(game, f"p1 {f}")
        assert cards(game, f).split()[-1] == card
    assert cards(game, f) == seq(n)
    assert len(game.state.piles[game.tables.by_label[f]]) == 12
    assert cards(game, f).endswith("K" + SUITS[11 % 4])
    game = stoppage(["K" + "CDHS"[n % 4], "", "", "", "", "", "", ""], **{f: seq(n)})
    refused(game, f"p1 {f}", f"{f} is complete")


@pytest.mark.parametrize("n", range(2, 10))
def test_empty_foundation_takes_only_rank_2n(n: int) -> None:
    """"a foundation starts with the card of rank 2n (mod 13)", of any suit: no other
    rank starts it."""
    f = f"f{n - 1}"
    base = SEQUENCES[n].split()[0]
    for suit in "CSHD":
        game = stoppage([base + suit, "", "", "", "", "", "", ""])
        plays(game, f"p1 {f}")
    wrong = next(r for r in "A23456789TJQK" if r != base)
    game = stoppage([wrong + "H", "", "", "", "", "", "", ""])
    rank_said = {
        "A": "an ace", "3": "a 3", "4": "a 4", "5": "a 5", "6": "a 6", "8": "an 8",
        "T": "a 10", "Q": "a queen",
    }[base]
    refused(game, f"p1 {f}", f"{wrong}H cannot start {f}: it takes {rank_said} of any suit")


@pytest.mark.parametrize("n", range(2, 10))
def test_foundation_refuses_a_card_that_does_not_continue_by_n(n: int) -> None:
    """"builds up by n": a card one rank off, of any suit, is refused."""
    f = f"f{n - 1}"
    built = seq(n, 3)
    nxt = SEQUENCES[n].split()[3]
    ranks = "A23456789TJQK"
    off = ranks[(ranks.index(nxt) + 1) % 13]
    game = stoppage([off + "S", "", "", "", "", "", "", ""], **{f: built})
    refused(game, f"p1 {f}", f"{off}S cannot go on {f} (top {built.split()[-1]})")
    game = stoppage([nxt + "S", "", "", "", "", "", "", ""], **{f: built})
    plays(game, f"p1 {f}")


def test_foundation_top_moves_to_another_foundation_where_it_continues_the_sequence() -> None:
    """"A foundation's top card, except a king, may move to another foundation where it
    continues that foundation's sequence." Index 5 (T 2 7 Q) gives its queen to index 3
    (6 9 -> Q), and index 3 may give it back (7 -> Q on index 5)."""
    game = stoppage(["9C"] * 8, f2="6C 9C", f4="TD 2D 7D QD")
    undo_restores(game, "f4 f2")
    assert (cards(game, "f2"), cards(game, "f4")) == ("6C 9C QD", "TD 2D 7D")
    plays(game, "f2 f4")
    assert (cards(game, "f2"), cards(game, "f4")) == ("6C 9C", "TD 2D 7D QD")


def test_foundation_top_may_start_an_empty_foundation() -> None:
    """"A foundation's top card ... may move to another foundation where it continues that
    foundation's sequence": a 6 on index 2's foundation (4 6) may start index 3's
    (6 9 Q ...)."""
    game = stoppage(["9C"] * 8, f1="4C 6D")
    undo_restores(game, "f1 f2")
    assert (cards(game, "f1"), cards(game, "f2")) == ("4C", "6D")


def test_foundation_top_refused_where_it_does_not_continue() -> None:
    """"... where it continues that foundation's sequence": not elsewhere. Index 2's 6
    does not follow index 4's 8 (8 Q ...), but index 4's 8 follows index 2's 6 (4 6 8)."""
    game = stoppage(["9C"] * 8, f1="4C 6D", f3="8S")
    refused(game, "f1 f3", "6D cannot go on f3 (top 8S): it needs a queen of any suit")
    refused(game, "f1 f4", "6D cannot start f4: it takes a 10 of any suit")
    refused(game, "f1 p1", "nothing can be put on the packet")
    plays(game, "f3 f1")
    assert (cards(game, "f1"), cards(game, "f3")) == ("4C 6D 8S", "")
    game = stoppage(["9C"] * 8, f1="4C", f3="8D QC 3S 7H JD 2S 6C TC")
    refused(game, "f1 f3", "4C cannot go on f3 (top TC): it needs an ace of any suit")


def test_foundation_king_never_moves() -> None:
    """"A foundation's top card, except a king, may move": a king stays even where it
    would continue another foundation (index 3's foundation of 11 cards wants a king)."""
    game = stoppage(["9C"] * 8, f1=seq(2), f2=seq(3, 11))
    assert cards(game, "f1").split()[-1][0] == "K"
    refused(game, "f1 f2", "a king never leaves its foundation")
    game = stoppage(["KH", "9C", "9C", "9C", "9C", "9C", "9C", "9C"], f1=seq(2), f2=seq(3, 11))
    plays(game, "p1 f2")  # a king from a packet does end it


def test_foundation_king_refused_to_bare_f_gives_the_reason() -> None:
    """"A foundation's top card, except a king, may move": ``f1 f`` with a king on top is
    refused, and the message says why (though f2 does want a king). A regression test:
    the bare ``f`` used to answer 'no foundation takes KC now'."""
    game = stoppage(["9C"] * 8, f1=seq(2), f2=seq(3, 11))
    refused(game, "f1 f", "a king never leaves its foundation")


# --- stoppages and packet deals ---------------------------------------------------------


def test_packet_deal_refused_while_a_packet_card_can_be_played() -> None:
    """"When no packet card can be played (a stoppage), the next board packet ... is
    dealt out": not before; the message names a playable packet card."""
    game = stoppage(["9C", "2D", "JH", "KS", "7C", "9D", "2S", "4H"])
    refused(game, "t", "the next packet is dealt out only when no packet card can be played",
            "(p8 f1 is possible)")
    game = new_game("senior-wrangler", 5)
    refused(game, "t", "only when no packet card can be played", "(p2 f7 is possible)")


def test_packet_deal_allowed_at_a_stoppage_even_with_foundation_moves_left() -> None:
    """"When no packet card can be played (a stoppage)": a foundation-to-foundation move
    does not prevent the deal."""
    game = stoppage(["9C", "2D", "JH", "KS", "7C", "9D", "2S", "KH"], f1="4C 6D")
    assert {"t", "f1 f2"} <= legal_texts(game)
    plays(game, "t")


HAND_MADE = [
    "2C 7C 9C JC KC 2D 7D 9D JD KD 2H 7H",  # 12 cards, top 7H
    "2S", "7S", "", "9S", "JS", "KS", "KH",
]


def test_packet_deal_turns_the_packet_over_into_its_own_space_then_to_the_right() -> None:
    """"the next board packet, in order 1 to 8, is dealt out: turned over and dealt one
    card at a time, the first card into the packet's own (now empty) space, then the
    spaces to its right, wrapping to packet 1, until it is used up." Packet 1's bottom
    card 2C goes back into p1, 7C to p2 ... 9D to p8, then JD KD 2H 7H wrap to p1..p4."""
    game = stoppage(HAND_MADE)
    plays(game, "t")
    assert packets_of(game) == [
        "2C JD", "2S 7C KD", "7S 9C 2H", "JC 7H", "9S KC", "JS 2D", "KS 7D", "KH 9D",
    ]
    assert game.state.redeals == 1
    # still a stoppage: packet 2 is next, its 3 cards go to p2, p3, p4
    plays(game, "t")
    assert packets_of(game) == [
        "2C JD", "2S", "7S 9C 2H 7C", "JC 7H KD", "9S KC", "JS 2D", "KS 7D", "KH 9D",
    ]
    assert game.state.redeals == 2


def test_packet_deal_of_packet_8_wraps_at_once_to_packet_1() -> None:
    """"... then the spaces to its right, wrapping to packet 1": packet 8's first card
    stays in p8, the next go to p1, p2, ... p7, then p8 and p1 again."""
    game = stoppage(["9C", "2D", "JH", "KS", "7C", "9D", "2S", "2C 7C 9C JC KC 2D 7D 9D JD 7S"])
    game.state.redeals = 7  # packets 1 to 7 have been dealt out
    plays(game, "t")
    assert packets_of(game) == [
        "9C 7C 7S", "2D 9C", "JH JC", "KS KC", "7C 2D", "9D 7D", "2S 9D", "2C JD",
    ]
    assert game.state.redeals == 8


def test_packet_deal_on_a_real_deal() -> None:
    """Senior Wrangler #648 starts at a stoppage (no packet top is 4 6 8 10 Q A 3 5):
    ``t`` deals packet 1 (TS 2S TD 8S 6H 5C QD 5H 7C 6C QH KC, top KC) out from its
    bottom card: TS into p1, 2S TD 8S 6H 5C QD 5H onto p2..p8, then 7C 6C QH KC onto
    p1..p4. Then p2's new top 6C starts index 3's foundation, so ``t`` is refused."""
    game = new_game("senior-wrangler", 648)
    assert legal_texts(game) == {"t"}
    assert packets_of(game) == [
        "TS 2S TD 8S 6H 5C QD 5H 7C 6C QH KC",
        "TC KH AC 7D 7S 5D KS KS 6C 3C 9S KC",
        "JD AD QH 8S 4S 9D 6D 9H 8D 8C QS 2S",
        "JS QS TC AS QC 2D TS AD 6S TH TD KH",
        "6H 4H 2C 3H 8C 8H JH 6D 3S AH 4S JH",
        "3C 5D 4C 4H KD 5S 7S JC 9C 4D 2C 2D",
        "3S 4C 5C 8D 2H JD 3D AS AH QD 9H 9S",
        "JC 3H 5H AC 7H 7C QC JS 9D KD TH 7H",
    ]
    undo_restores(game, "t")
    assert packets_of(game) == [
        "TS 7C",
        "TC KH AC 7D 7S 5D KS KS 6C 3C 9S KC 2S 6C",
        "JD AD QH 8S 4S 9D 6D 9H 8D 8C QS 2S TD QH",
        "JS QS TC AS QC 2D TS AD 6S TH TD KH 8S KC",
        "6H 4H 2C 3H 8C 8H JH 6D 3S AH 4S JH 6H",
        "3C 5D 4C 4H KD 5S 7S JC 9C 4D 2C 2D 5C",
        "3S 4C 5C 8D 2H JD 3D AS AH QD 9H 9S QD",
        "JC 3H 5H AC 7H 7C QC JS 9D KD TH 7H 5H",
    ]
    assert game.state.redeals == 1
    refused(game, "t", "only when no packet card can be played", "(p2 f2 is possible)")


def test_packet_deal_undo_restores_the_packets_exactly() -> None:
    """Undo of a packet deal puts every card back where it was; redo deals again."""
    game = stoppage(HAND_MADE)
    start = game.board_text()
    plays(game, "t")
    once = game.board_text()
    plays(game, "t")
    twice = game.board_text()
    game.undo()
    assert game.board_text() == once
    game.undo()
    assert game.board_text() == start
    assert packets_of(game) == HAND_MADE
    game.redo()
    game.redo()
    assert game.board_text() == twice


def test_at_most_8_packet_deals() -> None:
    """"At most 8 such deals." Each deal takes the next packet, 1 to 8 in order; the 9th
    ``t`` is refused with the reason. Undo takes all eight back."""
    start = [
        "2C 7C 9C", "2D 7D", "9D JD KD 2H", "7H", "9H JH KH 2S 7S", "9S JS", "KS 2C", "7C 9C JC",
    ]
    game = stoppage(start)
    first = game.board_text()
    for k in range(8):
        before = packets_of(game)
        plays(game, "t")
        after = packets_of(game)
        dealt = before[k].split()
        expected = [p.split() for p in before]
        expected[k] = []
        for j, card in enumerate(dealt):
            expected[(k + j) % 8].append(card)
        assert after == [" ".join(p) for p in expected], f"deal {k + 1}"
        assert game.state.redeals == k + 1
        assert game.view().redeals_left == 7 - k
    refused(game, "t", "all 8 packets have been dealt out")
    assert "t" not in legal_texts(game)
    assert game.is_over() and not game.is_won()
    game.restart()
    assert game.board_text() == first


# --- the win ---------------------------------------------------------------------------


def test_win_with_all_96_cards_on_the_foundations_each_topped_by_a_king() -> None:
    """"Win: all 96 cards on the foundations, each topped by a king."."""
    piles = {f"f{n - 1}": seq(n) for n in range(2, 10)}
    piles["f8"] = seq(9, 11)
    game = stoppage(["", "", "", "", "", "", "KD", ""], **piles)
    assert count(game, PileKind.FOUNDATION) == 95
    assert not game.is_won()
    plays(game, "p7 f8")
    assert count(game, PileKind.FOUNDATION) == 96
    assert all(cards(game, f"f{i}").split()[-1][0] == "K" for i in range(1, 9))
    assert game.is_won() and game.is_over()
    game.undo()
    assert not game.is_won()


def test_no_packet_deal_after_the_win() -> None:
    """"When no packet card can be played (a stoppage), the next board packet ... is dealt
    out" - once all 96 cards are on the foundations the game is over: ``t`` is refused
    and not offered as a legal move."""
    piles = {f"f{n - 1}": seq(n) for n in range(2, 10)}
    game = stoppage([""] * 8, **piles)
    assert game.is_won() and game.state.redeals == 0
    with pytest.raises(IllegalMoveError, match=r"^t: the game is won"):
        game.play("t")
    assert not game.can_play("t")
    assert "t" not in game.legal_moves
    assert len(game.legal_moves) == 0

