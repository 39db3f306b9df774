"""Dead ends and forced plays of Patriarchs' family, for the generic search.

In these games (Patriarchs, Picture Patience, Odd and Even, Royal Cotillion,
Contradance, Captured Queens) a card only ever goes to a foundation, or from the
waste into a reserve space. Each foundation's suit is fixed and it is built in one
fixed sequence, so every card of a two-deck game has exactly two *places* (one on
each foundation whose sequence holds it) and its two copies fill them. The search
uses two facts about such positions, both sound (they never lose a win):

* :meth:`DeadEnds.lost`: a position where some cards are *buried for ever*. A pile
  that can only be emptied from its top (Royal Cotillion's left piles; the waste on
  the last pass) is dug down card by card. Take a card ``w`` in it: the cards that
  cannot go to a foundation before ``w`` is uncovered (their places all wait for a
  card whose every copy lies at or under ``w``, or for such a card in turn) can only
  leave the pile above ``w`` into a reserve space; so when ``w`` is uncovered all of
  them are in the reserve, with those already there. More of them than the reserve
  has spaces (none for a left pile, or a waste without reserve) and ``w`` is never
  uncovered: the deal is lost from here.
* :meth:`DeadEnds.endgame_plays`: when the stock is used up on the last pass
  (nothing comes onto the waste any more), a card whose every copy not yet placed is
  in reach (in the reserve, on the waste or on a left pile's top) and that fits a
  foundation is played there at once, and the waste's top card fills an empty
  reserve space at once. Any winning line is copied after such a move: the line
  fills that foundation with one of the copies at some time, and nothing else can
  go there before, so that play is moved to now; every other card is as much in
  reach in the copy (a card taken earlier off the waste, or into the reserve, only
  uncovers the waste's cards sooner: the copy's waste is the line's waste less
  some of its top cards, and those are in the copy's reserve).

* :meth:`DeadEnds.left_piles_lost`: Royal Cotillion's left piles dug with every other
  card in reach. In a relaxed game every card off the left piles is in reach at once
  (reserve, waste, stock: wherever it lies), a left pile's top is in reach, a foundation
  takes its next card when a copy of it is in reach (the same copy may serve both
  foundations of the suit), and a left pile's top card leaves once a foundation is past
  one of its places. Every real play is a relaxed one (the real cards in reach are in
  reach there, and a real left pile is never dug deeper than the relaxed one: its top
  leaves only to a foundation, which is then past that place), and in the relaxed game
  nothing is ever lost by playing (what is in reach and the foundations only grow), so
  one run to its end decides it: if a foundation is left short, no line wins. It sees
  what the per-pile test of :meth:`DeadEnds.lost` cannot: both aces of a suit at the
  bottom of two left piles, each under a card that needs an ace of that suit first
  (Royal Cotillion #622: the clubs' aces under KC and JC). A position's answer is never
  "lost" where its deal's is not (it only has more on the foundations and less on the
  piles), so the searches ask it once, at their root. It also asks
  :meth:`DeadEnds.left_piles_crossed`, which counts the copies: each of a suit's two
  foundations takes one copy of each of its cards, so in a winning line every card on a
  left pile goes to a place of its own (a foundation and a height), the card above it in
  its pile is played before it, and on one foundation the lower place is filled first.
  If no way of giving the left piles' cards places (at most 2 ** 12 in Royal Cotillion,
  searched with the orders built up as places are given) leaves those "before"s free of
  a cycle, no line wins. It sees what the relaxed game cannot, where one copy would have
  to serve both foundations: Royal Cotillion #91's clubs QC on 10C on 6C (the pile's top
  first) need 6C and 10C on the foundation QC goes to first, so the other foundation
  waits for the 6C under that pile's 10C (2026-12-07: 18 of the 55 deals of 1-1,000 no
  search had decided, none of the shipped winnable ones).
* :meth:`DeadEnds.relaxed_lost`: in a game where only the waste's top card plays
  (Contradance, Captured Queens: no reserve, no left piles), a relaxation of the game that
  a greedy player decides. Read a foundation rule's sequence as a *group* (the foundations
  with that sequence): in the relaxed game a card fits when a copy of the card before it
  in one of its groups is on a foundation (or it is a group's first card), and a card
  played counts in every group that holds it. Every real play is a relaxed one (a
  foundation that takes the card shows the card before it), so a deal the relaxed game
  loses is lost. And the relaxed game is decided at once: a card that fits there fits for
  ever (cards never leave the foundations), so playing the waste's top card whenever it
  fits is never worse. A line that waits is copied after the play: its waste and stock are
  the copy's with that card added, so each card it plays is on top in the copy too, and
  fits there (the copy has the same cards placed and one more), and its play of that
  card is left out. So one greedy run (draw, play what fits, turn the waste while
  redeals are left; with unlimited redeals until a pass places nothing) decides it: if
  cards are left, the deal is lost. It is what the two alike foundations of Contradance
  make hard that the relaxation forgets: which of the two a card goes to.

Patriarchs' reversal is allowed for: while a suit's two foundations are not in
sequence, the ranks between their tops (the *gap*) are needed on them in order; the
other cards of the suit (the second copies) fit once the gap is closed, by moving
cards across, and need nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from patiencekit.rules import PileKind
from patiencekit.state import EngineMove, State, Tables

__all__ = ["MAX_CROSSED", "NEVER", "Chains", "DeadEnds", "piles_crossed", "shared_out"]

#: a threshold no pile position reaches (a pile holds at most 104 cards; kept below 257,
#: so that the compiled module stores it in a list without making a new int object)
NEVER = 255

#: what the foundations still wait for (see :meth:`DeadEnds._chains`)
Chains = tuple[list[list[int]], list[tuple[int, int, int]], list[int]]


def spread(items: Sequence[int]) -> list[int]:
    """``items`` in an order that visits their range evenly early: the first, the last,
    the middle, then the middles of the halves...

    >>> spread([0, 1, 2, 3, 4, 5, 6])
    [0, 6, 3, 1, 4, 2, 5]
    """
    n = len(items)
    if n <= 2:
        return list(items)
    order = [0, n - 1]
    ranges = [(1, n - 2)]
    while ranges:
        later: list[tuple[int, int]] = []
        for lo, hi in ranges:
            if lo > hi:
                continue
            mid = (lo + hi) // 2
            order.append(mid)
            later += [(lo, mid - 1), (mid + 1, hi)]
        ranges = later
    return [items[i] for i in order]


#: :meth:`DeadEnds.left_piles_crossed` answers only with at most this many cards on the
#: left piles (Royal Cotillion has 12: at most 4,096 ways to share them out)
MAX_CROSSED = 16


class DeadEnds:
    """The analysis of one game's positions (see the module's text).

    Only for games where cards go to the foundations alone, each foundation with a
    fixed suit built in a fixed sequence (:meth:`applies`). ``pairs`` are the
    search's (ace foundation, king foundation) pairs of a suit between which cards
    may move (Patriarchs' reversal).
    """

    def __init__(self, t: Tables, pairs: Sequence[tuple[int, int]] = ()) -> None:
        self.t = t
        self.pairs = list(pairs)
        #: per foundation: its whole sequence of cards, base first
        self.sequence: dict[int, list[int]] = {}
        for fi in t.foundations:
            seq: list[int] = []
            acc = t.f_base[fi]
            while len(seq) < t.f_size[fi] and len(acc) == 1:
                seq.append(acc[0])
                acc = t.f_next[fi][acc[0]]
            self.sequence[fi] = seq
        in_pairs = {f for pair in self.pairs for f in pair}
        #: the foundations outside the pairs
        self.plain = [fi for fi in t.foundations if fi not in in_pairs]
        #: per card: its places on those, as (index in ``plain``, index in the sequence)
        self.plain_places: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for f, fi in enumerate(self.plain):
            for k, c in enumerate(self.sequence[fi]):
                self.plain_places[c].append((f, k))
        #: the piles the search digs from the top only: (pile, reserve spaces that can
        #: take its cards); the waste only on the last pass
        self.left_piles = list(t.columns)
        self.reserve_spaces = len(t.reserve)
        #: piles whose top card is in reach
        self.reach = [
            i for i in range(t.pile_count) if t.kinds[i] in (PileKind.WASTE, PileKind.RESERVE)
        ] + list(t.columns)
        self.foundation_set = frozenset(t.foundations)
        #: the piles other than the left piles (every card on them is in reach in
        #: :meth:`left_piles_lost`)
        self.off_columns = [i for i in range(t.pile_count) if i not in self.left_piles]
        self.off_foundations = [i for i in range(t.pile_count) if i not in self.foundation_set]
        #: the relaxation (:meth:`relaxed_lost`): only where the waste's top card alone
        #: plays; per foundation its group (foundations with one sequence); per group its
        #: length; per card its (group, place in the sequence) pairs
        self.relaxed = (
            not self.pairs
            and t.waste >= 0
            and t.stock >= 0
            and not t.reserve
            and not t.columns
        )
        groups: dict[tuple[int, ...], int] = {}
        self.group_of: dict[int, int] = {}
        self.group_len: list[int] = []
        self.places: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for fi in t.foundations:
            whole = tuple(self.sequence[fi])
            if whole not in groups:
                groups[whole] = len(self.group_len)
                self.group_len.append(len(whole))
                for k, c in enumerate(whole):
                    self.places[c].append((groups[whole], k))
            self.group_of[fi] = groups[whole]

    @staticmethod
    def applies(t: Tables) -> bool:
        """True for the games this analysis is for: a stock dealt one card at a time (or
        none), no hand, no packets, no building on the columns, every foundation of
        one suit built in one sequence."""
        rules = t.rules
        return (
            not t.build_columns
            and not t.hand
            and not t.packets
            and t.draw <= 1
            and all(f.suit is not None and f.follow_suit for f in rules.foundations)
            and not any(f.to_columns for f in rules.foundations)
        )

    # -- buried for ever ---------------------------------------------------------------

    def _chains(self, s: State) -> Chains:
        """What the foundations still wait for (:meth:`_waits` reads it): the cards
        each still takes, in order; per suit whose two foundations cards move between,
        while not in sequence, the ranks between their tops; the suits whose two are in
        sequence (every card of the suit fits)."""
        piles = s.piles
        chains = [self.sequence[fi][len(piles[fi]) :] for fi in self.plain]
        gaps: list[tuple[int, int, int]] = []
        free: list[int] = []
        for a, k in self.pairs:
            pa, pk = piles[a], piles[k]
            suit = pa[0] // 13 * 13
            u, d = pa[-1] % 13, pk[-1] % 13
            if d == u + 1:
                free.append(suit)
            elif d < u + 1:
                # never in sequence again: two plain chains, up from u and down from d
                chains.append([suit + r for r in range(u + 1, 13)])
                chains.append([suit + r for r in range(d - 1, -1, -1)])
            else:
                gaps.append((suit, u, d))
        return chains, gaps, free

    @staticmethod
    def _waits(chains: Chains, buried: list[int]) -> list[int]:
        """Per card: the least ``buried`` threshold from which the card can no longer go
        to a foundation before a buried card does (:data:`NEVER`: it can; cards placed
        already get -1).

        ``buried[c]`` is the threshold from which card ``c`` counts as buried. A place
        of a card waits for every card before it in its foundation's sequence, so it
        waits from the least threshold among those; the card waits from the greatest
        threshold among its places (all its places wait). A waiting card adds nothing:
        it is later in each of its foundations than what it waits for. Patriarchs'
        pairs: a rank of the gap waits along either foundation; the second copies of
        the other ranks wait for the whole gap (once it is closed they fit).
        """
        plain, gaps, free = chains
        waits = [-1] * 52
        for cards in plain:
            least = NEVER
            for c in cards:
                if least > waits[c]:
                    waits[c] = least
                b = buried[c]
                if b < least:
                    least = b
        for suit, u, d in gaps:
            up = [NEVER] * 13
            least = NEVER
            for r in range(u + 1, d):
                up[r] = least
                least = min(least, buried[suit + r])
            gap = least
            least = NEVER
            for r in range(d - 1, u, -1):
                waits[suit + r] = max(up[r], least)
                least = min(least, buried[suit + r])
            for r in range(13):
                if not u < r < d:
                    waits[suit + r] = gap
        for suit in free:
            waits[suit : suit + 13] = [NEVER] * 13
        return waits

    def lost(self, s: State, thorough: bool = True) -> bool:
        """True when some card is buried for ever (the module's text): then the deal
        cannot be won from here. Not ``thorough``: quicker, and weaker where the stock
        has many cards left (see :meth:`_waste_lost`)."""
        if self.relaxed and self.relaxed_lost(s):
            return True
        t = self.t
        piles = s.piles
        left_piles = [c for c in self.left_piles if len(piles[c]) > 1]
        waste = t.waste >= 0 and len(piles[t.waste]) > self.reserve_spaces
        if waste:
            left = s.redeals_left()
            waste = left is not None and left <= 0
        if not left_piles and not waste:
            return False
        copies = self._copies(s)
        chains = self._chains(s)
        heights = [len(piles[fi]) for fi in self.plain] if left_piles else []
        return any(
            self._left_pile_lost(chains, piles[c], copies, heights) for c in left_piles
        ) or (
            waste and self._waste_lost(s, chains, copies, thorough)
        )

    def left_piles_lost(self, s: State) -> bool:
        """True when the relaxed game of the left piles (the module's text) is lost from
        ``s``: then no line wins. False where there are no left piles, or where cards move
        between foundations (Patriarchs' reversal).

        >>> from patiencekit import new_game
        >>> [n for n in (1, 7, 622, 844) if DeadEnds(new_game("royal-cotillion", n).state.t)
        ...  .left_piles_lost(new_game("royal-cotillion", n).state)]
        [7, 622, 844]
        """
        columns = self.left_piles
        if not columns or self.pairs:
            return False
        piles = s.piles
        reach = [False] * 52
        for i in self.off_columns:
            for c in piles[i]:
                reach[c] = True
        depth = [len(piles[i]) for i in columns]
        for p in range(len(columns)):
            if depth[p]:
                reach[piles[columns[p]][depth[p] - 1]] = True
        sequences = [self.sequence[fi] for fi in self.plain]
        heights = [len(piles[fi]) for fi in self.plain]
        places = self.plain_places
        changed = True
        while changed:
            changed = False
            for f in range(len(sequences)):
                seq = sequences[f]
                h = heights[f]
                while h < len(seq) and reach[seq[h]]:
                    h += 1
                if h != heights[f]:
                    heights[f] = h
                    changed = True
            for p in range(len(columns)):
                pile = piles[columns[p]]
                d = depth[p]
                while d:
                    past = False
                    for f, k in places[pile[d - 1]]:
                        if heights[f] > k:
                            past = True
                            break
                    if not past:
                        break
                    d -= 1
                    if d:
                        reach[pile[d - 1]] = True
                if d != depth[p]:
                    depth[p] = d
                    changed = True
        if any(heights[f] < len(sequences[f]) for f in range(len(sequences))):
            return True
        return self.left_piles_crossed(s)

    def left_piles_crossed(self, s: State) -> bool:
        """True when the left piles' cards cannot be shared out among the foundations'
        places in any order the piles allow (the module's text): then no line wins.

        >>> from patiencekit import new_game
        >>> [n for n in (1, 91, 622, 831) if DeadEnds(new_game("royal-cotillion", n).state.t)
        ...  .left_piles_crossed(new_game("royal-cotillion", n).state)]
        [91, 622]
        """
        if not self.left_piles or self.pairs:
            return False
        piles = s.piles
        heights = [len(piles[fi]) for fi in self.plain]
        return piles_crossed([piles[i] for i in self.left_piles], heights, self.plain_places)

    def relaxed_lost(self, s: State) -> bool:
        """True when the relaxed game (the module's text) is lost from ``s``: played
        greedily, it leaves cards off the foundations. Only for the games it is made for
        (``relaxed``: the waste's top card alone plays)."""
        t = self.t
        piles = s.piles
        count = [[0] * n for n in self.group_len]
        for fi in t.foundations:
            row = count[self.group_of[fi]]
            for k in range(len(piles[fi])):
                row[k] += 1
        places = self.places
        waste = list(piles[t.waste])
        stream = piles[t.stock][::-1]  # (drawn from the end of the pile)
        left = s.redeals_left()
        while True:
            placed = False
            i = 0
            n = len(stream)
            while True:
                while waste:
                    c = waste[-1]
                    fits = False
                    for g, k in places[c]:
                        if k == 0 or count[g][k - 1] > 0:
                            fits = True
                            break
                    if not fits:
                        break
                    waste.pop()
                    for g, k in places[c]:
                        count[g][k] += 1
                    placed = True
                if i == n:
                    break
                waste.append(stream[i])
                i += 1
            if not waste:
                return False
            if left is None:
                if not placed:
                    return True  # the next pass is this one again
            elif left <= 0:
                return True
            else:
                left -= 1
            # the waste turned over: its first card drawn first again
            stream = waste
            waste = []

    def _copies(self, s: State) -> list[int]:
        """How many copies of each card are not yet on a foundation."""
        copies = [0] * 52
        piles = s.piles
        for i in self.off_foundations:
            for c in piles[i]:
                copies[c] += 1
        return copies

    def _left_pile_lost(
        self, chains: Chains, pile: list[int], copies: list[int], heights: list[int]
    ) -> bool:
        """A left pile (Royal Cotillion's), whose cards only go to the foundations: lost
        when a card waits above a card it is buried by (nothing takes it off the pile).
        A card is buried from position ``j`` on when all its copies lie in the pile, the
        highest at ``j``.

        :meth:`_left_pile_lost_by_waits` says it through :meth:`_waits`; this is the same
        verdict worked out from the pile's buried cards alone (a test compares the two).
        Only buried cards make a card wait, and only those of the same foundations before
        it: a card at ``j`` waits from below ``j`` when each of its open places (at
        ``k`` of foundation ``f``'s sequence, ``heights[f] <= k``) has a buried card
        before it (at ``heights[f] <= kb < k``) buried from below ``j``. With no buried
        card in the pile, nothing waits. ``heights``: the plain foundations' sizes."""
        if self.pairs:
            return self._left_pile_lost_by_waits(chains, pile, copies)
        n = len(pile)
        here, top = self._in_pile(pile)
        # per plain foundation, its open places taken by buried cards: (place, from)
        marks: dict[int, list[tuple[int, int]]] = {}
        least = NEVER
        places = self.plain_places
        for j in range(n):
            c = pile[j]
            if top[c] != j or here[c] < copies[c]:
                continue  # (each buried card once: at its highest copy)
            if j < least:
                least = j
            for f, k in places[c]:
                if k >= heights[f]:
                    mark = marks.get(f)
                    if mark is None:
                        marks[f] = [(k, j)]
                    else:
                        mark.append((k, j))
        if least == NEVER:
            return False
        for j in range(least + 1, n):
            waits = True
            for f, k in places[pile[j]]:
                if k < heights[f]:
                    continue  # (a place filled: not one the card waits on)
                before = NEVER
                mark = marks.get(f)
                if mark is not None:
                    for kb, b in mark:
                        if kb < k and b < before:
                            before = b
                if before >= j:
                    waits = False
                    break
            if waits:
                return True
        return False

    @staticmethod
    def _in_pile(pile: list[int]) -> tuple[list[int], list[int]]:
        """Per card: how many of its copies lie in ``pile``, and the highest one's position
        (:data:`NEVER`: none)."""
        here = [0] * 52
        top = [NEVER] * 52
        for j in range(len(pile)):
            c = pile[j]
            here[c] += 1
            top[c] = j
        return here, top

    def _left_pile_lost_by_waits(
        self, chains: Chains, pile: list[int], copies: list[int]
    ) -> bool:
        """:meth:`_left_pile_lost` through :meth:`_waits` (every card's threshold)."""
        here, top = self._in_pile(pile)
        buried = [top[c] if here[c] >= copies[c] else NEVER for c in range(52)]
        waits = self._waits(chains, buried)
        return any(waits[c] < j for j, c in enumerate(pile))

    def _waste_lost(
        self, s: State, chains: Chains, copies: list[int], thorough: bool = True
    ) -> bool:
        """The waste on the last pass: lost when some waste card ``w`` can never be
        uncovered and played.

        Say ``w`` is first uncovered after ``k`` more cards are drawn. The cards not yet
        placed whose copies all lie under ``w`` (or are ``w``) or in the stock after
        those ``k`` cannot have gone to a foundation by then, nor the cards that wait
        for them (:meth:`_waits`); those of them that lie above ``w`` now or are among
        the ``k`` drawn are in the reserve then, with those in it now. More of them than
        the reserve has spaces, and ``w`` is not uncovered after ``k`` cards.

        Exactly as many: then the reserve is full of waiting cards. If they and ``w``
        all wait for cards under ``w`` alone (whatever the stock brings), no reserve
        card ever plays again, so nothing takes ``w`` off the waste: lost too.

        If one of the two holds for every ``k``, the deal is lost. (The waiting cards
        only change when ``k`` passes a card's first copy in the stock, and between
        those ``k`` the counts only grow: only those ``k`` are tried.) Not ``thorough``:
        once, with fewer cards than at any ``k`` (those waiting for cards with no copy in
        the stock, among the cards above ``w`` and in the reserve).
        """
        t = self.t
        piles = s.piles
        waste = piles[t.waste]
        stock = piles[t.stock] if t.stock >= 0 else []
        spaces = self.reserve_spaces
        n, m = len(waste), len(stock)
        in_waste = [0] * 52
        highest = [0] * 52  # (a card not in the waste counts as under every waste card)
        for j, c in enumerate(waste):
            in_waste[c] += 1
            highest[c] = j
        in_stock = [0] * 52
        first = [NEVER] * 52  # the draw (0 = next) of a card's first copy in the stock
        drawn = stock[::-1]
        for j, c in enumerate(drawn):
            in_stock[c] += 1
            if first[c] == NEVER:
                first[c] = j
        deep = [c for c in range(52) if copies[c] and in_waste[c] + in_stock[c] >= copies[c]]
        if not any(in_waste[c] for c in deep):
            return False
        reserve = [c for r in t.reserve for c in piles[r]]

        # waiting for cards under a waste card alone
        under = [NEVER] * 52
        for c in deep:
            if not in_stock[c]:
                under[c] = highest[c]
        still: list[int] = []  # (made when first needed)
        alive = list(range(n))  # waste positions not yet shown to be uncovered some time
        draws = (
            spread(sorted({0} | {first[c] + 1 for c in deep if in_stock[c]}))
            if thorough
            else [m + 1]
        )
        for k in draws:
            buried = [NEVER] * 52
            for c in deep:
                if first[c] >= k:
                    buried[c] = highest[c]
            if not thorough:
                k = 0  # (the cards waiting after all are drawn, none of those drawn)
            count = self._above(waste, reserve, drawn, self._waits(chains, buried), k)
            frozen: list[int] = []
            kept: list[int] = []
            for j in alive:
                if count[j] > spaces:
                    kept.append(j)
                elif count[j] == spaces:
                    if not still:
                        still = self._waits(chains, under)
                    if not frozen:
                        frozen = self._above(waste, reserve, drawn, still, k)
                    if frozen[j] >= spaces and still[waste[j]] <= j:
                        kept.append(j)
            if not kept:
                return False
            alive = kept
        return True

    @staticmethod
    def _above(
        waste: list[int], reserve: list[int], drawn: list[int], waits: list[int], k: int
    ) -> list[int]:
        """Per waste position: the waiting cards (by ``waits``) above it, in the reserve or
        among the next ``k`` drawn (``drawn``: the stock in the order it is drawn)."""
        n = len(waste)
        count = [0] * (n + 1)
        for j in range(n):
            w = waits[waste[j]]
            if w < j:
                count[w] += 1
                count[j] -= 1
        for c in reserve:
            w = waits[c]
            if w < n:
                count[w] += 1
        for j in range(k):
            w = waits[drawn[j]]
            if w < n:
                count[w] += 1
        run = 0
        for j in range(n):
            run += count[j]
            count[j] = run
        return count

    # -- the end of the last pass --------------------------------------------------------

    def endgame_plays(self, s: State, moves: Sequence[EngineMove]) -> list[EngineMove] | None:
        """When the stock is used up on the last pass: the moves of which one is never
        worse than any other line (the module's text), or None.

        The waste's top card into an empty reserve space; or, for the first card that
        fits a foundation with all its unplaced copies in reach, a play of each copy
        that would leave a different position (the reserve's copies are alike, and a
        reserve copy played with the waste's copy on top of the waste leaves the same
        position as the waste's copy played). Not where cards move between foundations.
        """
        t = self.t
        piles = s.piles
        if self.pairs or (t.stock >= 0 and piles[t.stock]):
            return None
        left = s.redeals_left()
        if left is None or left > 0:
            return None
        if t.waste >= 0 and piles[t.waste]:
            for r in t.waste_to_reserve:
                if not piles[r]:
                    return [(t.waste, r, 1)]
        found = self.foundation_set
        # the piles in reach where each card lies on top
        tops: dict[int, list[int]] = {}
        for i in self.reach:
            p = piles[i]
            if p:
                tops.setdefault(p[-1], []).append(i)
        copies: dict[int, int] = {}
        for m in moves:
            src, dst, _ = m
            if dst not in found or src < 0:
                continue
            c = piles[src][-1]
            if c not in copies:
                copies[c] = sum(
                    p.count(c) for i, p in enumerate(piles) if t.kinds[i] is not PileKind.FOUNDATION
                )
            if len(tops[c]) < copies[c]:
                continue
            out: list[EngineMove] = []
            free = False  # a reserve or waste copy is played already
            for i in tops[c]:
                if t.kinds[i] is not PileKind.COLUMN:
                    if free:
                        continue
                    free = True
                out.append((i, dst, 1))
            return out
        return None


def piles_crossed(
    piles: Sequence[Sequence[int]],
    heights: Sequence[int],
    places: Sequence[Sequence[tuple[int, int]]],
) -> bool:
    """:meth:`DeadEnds.left_piles_crossed` on ``piles`` (each bottom first), the
    foundations' ``heights`` and each card's ``places`` (``(foundation, height)``):
    True when a card has no place left, or the cards cannot be shared out
    (:func:`shared_out`); False also when there are more than :data:`MAX_CROSSED` cards
    (no answer).

    >>> piles_crossed([[3, 1]], [0], [[], [(0, 5)], [], [(0, 3)]])  # (3 under 1)
    True
    """
    # the cards, each pile's top first: the places left to each, and the card right
    # above it (-1: none)
    options: list[list[tuple[int, int]]] = []
    above: list[int] = []
    for pile in piles:
        for d in range(len(pile) - 1, -1, -1):
            left = [(f, k) for f, k in places[pile[d]] if k >= heights[f]]
            if not left:
                return True  # (no place left to it: it never leaves its pile)
            above.append(len(options) - 1 if d < len(pile) - 1 else -1)
            options.append(left)
    if len(options) > MAX_CROSSED:
        return False  # (no answer: too many cards to share out here)
    return not shared_out(options, above)


def shared_out(options: list[list[tuple[int, int]]], above: list[int]) -> bool:
    """Whether cards (of left piles) can each take a place of its own among
    ``options[i]`` (``(foundation, height)`` pairs) with no cycle in "must be played
    before": the card right above it (``above[i]``, an earlier card, or -1) before it, and
    on one foundation the lower place first (:meth:`DeadEnds.left_piles_crossed`).

    >>> shared_out([[(0, 5)], [(0, 3), (1, 9)]], [-1, 0])  # (the second under the first)
    True
    >>> shared_out([[(0, 5)], [(0, 3)]], [-1, 0])
    False
    """
    n = len(options)
    return _shared_out(0, options, above, [(-1, -1)] * n, [0] * n)


def _shared_out(
    i: int,
    options: list[list[tuple[int, int]]],
    above: list[int],
    chosen: list[tuple[int, int]],
    reach: list[int],
) -> bool:
    """:func:`shared_out` for cards ``i`` and after: ``chosen`` holds the places of cards
    ``0..i-1`` and ``reach[j]`` (a bit per card) the cards that must come after card
    ``j``."""
    if i == len(options):
        return True
    for f, k in options[i]:
        if (f, k) in chosen[:i]:
            continue  # (a place takes one card)
        before = 1 << above[i] if above[i] >= 0 else 0
        after = 0
        for j in range(i):
            g, m = chosen[j]
            if g == f:
                if m < k:
                    before |= 1 << j
                else:
                    after |= 1 << j
        later = after
        for j in range(i):
            if after >> j & 1:
                later |= reach[j]
        if later & before:
            continue  # (a cycle: some card would come both before and after it)
        grown = reach[:]
        grown[i] = later
        for j in range(i):
            if before >> j & 1 or reach[j] & before:
                grown[j] |= 1 << i | later
        chosen[i] = (f, k)
        if _shared_out(i + 1, options, above, chosen, grown):
            return True
    chosen[i] = (-1, -1)
    return False
