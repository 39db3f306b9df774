"""Find a won game for a game id and write it as a golden game record.

    PYTHONPATH=src python tools/find_win.py GAME [--first N] [--count K] [--max-seconds S]

Tries game numbers N, N+1, ... (K of them) and searches each, for at most S
seconds, over the fast :class:`patiencekit.state.State` API (``moves``, ``push``,
``pop``, ``is_won``) with a transposition table of position keys, until a won
line turns up. Most games use a depth-first search; PatienceMax and PatienceMax
(all to piles) a greedy best-first search (``--strategy`` overrides). The search
is *thoughtful*: it knows the hidden cards, which is fine for finding a
winnable deal and a line that wins it (not for judging a player's chances).

The line is replayed through the checked :class:`patiencekit.Game` layer
before it is written to ``tests/data/golden/<game-id>.json`` as a game record
with canonical move texts and the expected result::

    {"game": ID, "number": N, "moves": [...],
     "result": {"won": true, "moves": COUNT, "score": SCORE_WITHOUT_TIME_BONUS_OR_NULL}}

Each game gets a *policy*: a position key for the transposition table (the
score left out; equivalent positions, e.g. with columns or reserve spaces
swapped, share a key) and an ordered, pruned list of moves to try. The
pruning only ever drops moves, so every line found is legal; the replay
checks that again. Most pruning is heuristic (it may drop a winning line), so
"no win found" is not a proof, except with ``--sound`` where it says "cannot be won".

Options: ``--dry-run`` (search, write nothing), ``--out DIR``, ``--strategy
{dfs,beam,best}``, ``--width W`` (beam), ``--sound``, ``--prefilter CARDS``.

Picture Patience (no redeal, no card on the foundations at the start) is rarely
won: its golden game came from a greedy sweep of about 300,000 numbers and a
sound search of the most promising one, which this reproduces (about 20 minutes)::

    tools/find_win.py picture-patience --first 1 --count 250000 --sound \
        --prefilter 78 --max-seconds 150
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from patiencekit import GAMES, new_game  # noqa: E402
from patiencekit.rules import PileKind, Win  # noqa: E402
from patiencekit.solver import KLONDIKE_IDS  # noqa: E402
from patiencekit.state import EngineMove as Move  # noqa: E402
from patiencekit.state import State, Tables  # noqa: E402

GOLDEN_DIR = REPO / "tests" / "data" / "golden"
_KING = 12

#: one move, or a chain of moves the search takes as one step
Step = tuple[Move, ...]


class Policy:
    """How to search one game: a transposition key and the moves to try, best first."""

    #: True when the search drops no move that could matter, so that a search that
    #: runs out of positions proves the deal cannot be won
    complete = False

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.kinds = t.kinds
        self.fset = frozenset(t.foundations)

    def key(self, s: State) -> object:
        """A hashable key of the position without the score (equal keys: equivalent)."""
        return (tuple(map(tuple, s.piles)), tuple(s.down), s.redeals)

    def moves(self, s: State) -> list[Move]:
        """The moves to try, best first (a subset of ``s.moves()``)."""
        return s.moves()

    def steps(self, s: State) -> list[Step]:
        """The steps to try, best first: a step is one move or a short chain of them."""
        return [(m,) for m in self.moves(s)]


# -- Klondike -----------------------------------------------------------------------


def _opposite(suit: int) -> tuple[int, int]:
    return (2, 3) if suit < 2 else (0, 1)


class KlondikePolicy(Policy):
    """Safe foundation moves are forced; moves that uncover face-down cards come first;
    string moves that neither uncover a card, empty a column nor help a waste or
    foundation play are dropped; a foundation card comes back only to take a card."""

    def __init__(self, t: Tables) -> None:
        super().__init__(t)
        self.cols = set(t.columns)

    def key(self, s: State) -> object:
        t = self.t
        p, d = s.piles, s.down
        cols = tuple(sorted((tuple(p[i]), d[i]) for i in t.columns))
        # unlimited redeals: the number used does not matter
        return (cols, tuple(len(p[f]) for f in t.foundations), tuple(p[t.stock]),
                tuple(p[t.waste]))

    def moves(self, s: State) -> list[Move]:
        t = self.t
        p, d = s.piles, s.down
        legal = s.moves()
        flen = [len(p[f]) for f in t.foundations]  # f1..f4 = suits C S H D
        cols = self.cols
        # a card to its foundation is safe when no card of the other colour needs it
        for m in legal:
            src, dst, _n = m
            if dst in self.fset and src not in self.fset:
                c = p[src][-1]
                r = c % 13
                if r <= 1 or all(flen[o] >= r for o in _opposite(c // 13)):
                    return [m]
        waste = p[t.waste]
        wtop = waste[-1] if waste else -1
        want = s.foundation_wants()
        heads = {p[i][d[i]] for i in t.columns if p[i] and d[i] < len(p[i])}
        ranked: list[tuple[int, int, Move]] = []
        for m in legal:
            src, dst, n = m
            if src < 0:
                ranked.append((6, 0, m))
                continue
            sp = p[src]
            if src in cols:
                up = len(sp) - d[src]
                reveals = n == up and d[src] > 0
                if dst in self.fset:
                    ranked.append((0 if reveals else 3, -d[src], m))
                elif reveals:
                    ranked.append((1, -d[src], m))
                elif n == up:  # the whole column moves: it empties
                    if not p[dst]:
                        continue  # a king's column to an empty one: pointless
                    ranked.append((5, 0, m))
                else:
                    below = sp[-n - 1]
                    if below in want or (wtop >= 0 and below in t.parents[wtop]):
                        ranked.append((5, 1, m))
            elif src == t.waste:
                ranked.append((2 if dst in self.fset else 3, 0, m))
            elif src in self.fset:
                c = sp[-1]
                if (wtop >= 0 and c in t.parents[wtop]) or any(
                    c in t.parents[h] for h in heads
                ):
                    ranked.append((7, 0, m))
        ranked.sort(key=lambda x: (x[0], x[1]))
        return [m for _, _, m in ranked]


# -- PatienceMax --------------------------------------------------------------------


class AllToPilesPolicy(Policy):
    """PatienceMax (all to piles), searched greedy best-first.

    Safe foundation moves are forced; alike targets (empty foundations, equal
    foundations, free hand cells) count once; a column is never moved whole to an
    empty one. Positions are valued by cards on the foundations, how deep the cards
    the foundations take next lie, sequence breaks, free hand cells and empty columns.
    """

    strategy = "best"
    w_empty = 60
    w_hand = 25
    w_break = 10
    w_home = 100

    def __init__(self, t: Tables) -> None:
        super().__init__(t)
        self.cols = t.columns
        self.hand = set(t.hand)
        self.parents = t.parents

    def key(self, s: State) -> object:
        t = self.t
        p = s.piles
        return (
            tuple(sorted(tuple(p[i]) for i in t.columns)),
            tuple(sorted(p[h][0] if p[h] else -1 for h in t.hand)),
            tuple(sorted((p[f][0] // 13, len(p[f])) if p[f] else (-1, 0) for f in t.foundations)),
        )

    def value(self, s: State) -> int:
        p = s.piles
        parents = self.parents
        v = self.w_home * sum(len(p[f]) for f in self.t.foundations)
        v += self.w_hand * sum(1 for h in self.t.hand if not p[h])
        # the cards the foundations take next (aces always): what lies above them
        need: set[int] = {c for c in range(52) if c % 13 == 0}
        for f in self.t.foundations:
            pf = p[f]
            if pf and len(pf) < 13:
                need.add(pf[-1] + 1)
        for i in self.cols:
            col = p[i]
            if not col:
                v += self.w_empty
                continue
            n = len(col)
            for j in range(1, n):
                if col[j] not in parents[col[j - 1]]:
                    v -= self.w_break
            for j, c in enumerate(col):
                if c in need:
                    v -= 12 * (n - 1 - j)
                else:
                    v -= (12 - c % 13) * (n - 1 - j) // 6  # low cards buried deep
        return v

    def keep(self, s: State, m: Move) -> bool:
        """False for moves never worth trying."""
        src, dst, n = m
        return not (src in self.cols and n == len(s.piles[src]) and not s.piles[dst])

    def forced(self, s: State, legal: list[Move]) -> Move | None:
        """A foundation move to make at once, if it is safe: both copies of both cards
        of the other colour one rank lower are on the foundations already."""
        t = self.t
        p = s.piles
        by_suit: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
        for f in t.foundations:
            if p[f]:
                by_suit[p[f][0] // 13].append(len(p[f]))
        for m in legal:
            src, dst, _n = m
            if dst in self.fset and self.keep(s, m):
                c = p[src][-1]
                r = c % 13
                if r <= 1 or all(
                    sum(1 for ln in by_suit[o] if ln >= r) == 2 for o in _opposite(c // 13)
                ):
                    return m
        return None

    def moves(self, s: State) -> list[Move]:
        p = s.piles
        legal = s.moves()
        m = self.forced(s, legal)
        if m is not None:
            return [m]
        targets: set[tuple[object, ...]] = set()
        out: list[Move] = []
        for m in legal:
            src, dst, n = m
            if not self.keep(s, m):
                continue
            if dst in self.fset or dst in self.hand:
                pd = p[dst]
                alike = (src, n, dst in self.hand, (pd[-1], len(pd)) if pd else None)
                if alike in targets:
                    continue
                targets.add(alike)
            out.append(m)
        return out


class PatienceMaxPolicy(AllToPilesPolicy):
    """PatienceMax, won with the eight kings at the tops of columns: as all to piles
    (clearing the columns is what frees kings), but a king never goes to a foundation
    (that loses) nor leaves the top of a column, and each king at a top counts much."""

    w_king = 0

    def value(self, s: State) -> int:
        p = s.piles
        kings = sum(1 for i in self.cols if p[i] and p[i][0] % 13 == _KING)
        return super().value(s) + self.w_king * kings

    def keep(self, s: State, m: Move) -> bool:
        p = s.piles
        src, dst, n = m
        sp = p[src]
        if sp[-n] % 13 == _KING:
            if dst in self.fset:
                return False
            if src in self.cols and n == len(sp) and (not p[dst] or dst in self.hand):
                return False  # a king at a column's top stays
        return super().keep(s, m)


# -- Patriarchs and its family, Contradance, Captured Queens ---------------------------


class FoundationGamePolicy(Policy):
    """Games where cards only go to the foundations (the Patriarchs family,
    Contradance, Captured Queens). Reserve spaces, and foundations with the same
    rule, are alike in the key.

    Greedy (the default): while some card can go to a foundation, only those moves
    are tried (each foundation rule that takes it is a branch); otherwise a waste
    card to an empty reserve space, reversals, then the stock. This finds wins fast
    but may miss some: with two decks, holding a card back for the other foundation
    of its suit can matter.

    Sound (``sound=True``, not for Patriarchs' reversal): a play is forced only when
    the card has a single place left on the foundations; otherwise every play, the
    waste to a reserve space and the stock are all tried, so an exhausted search
    proves the deal cannot be won.
    """

    def __init__(self, t: Tables, *, sound: bool = False) -> None:
        super().__init__(t)
        self.sound = sound
        self.complete = sound
        self.f_rules = dict(zip(t.foundations, t.rules.foundations, strict=True))
        self.decks = t.rules.decks
        groups: dict[object, list[int]] = {}
        for f, rule in zip(t.foundations, t.rules.foundations, strict=True):
            groups.setdefault(rule, []).append(f)
        self.f_groups = [tuple(g) for g in groups.values()]
        self.reserve = t.reserve
        # Patriarchs' reversal: a card that fits both foundations of its suit gives
        # positions one reversal apart, so only one of them is tried
        self.reversal = bool(t.fountain_sources)

    def key(self, s: State) -> object:
        p = s.piles
        return (
            tuple(tuple(sorted(tuple(p[f]) for f in g)) for g in self.f_groups),
            tuple(sorted(tuple(p[r]) for r in self.reserve)),
            tuple(tuple(p[c]) for c in self.t.columns),
            tuple(p[self.t.stock]) if self.t.stock >= 0 else (),
            tuple(p[self.t.waste]) if self.t.waste >= 0 else (),
            s.redeals,
        )

    def places_left(self, s: State, card: int) -> int:
        """How many foundation places can still take ``card``."""
        p = s.piles
        n = 0
        for f, rule in self.f_rules.items():
            pile = p[f]
            suit = rule.suit if rule.suit is not None else (pile[0] // 13 if pile else None)
            if suit is not None and suit != card // 13:
                continue
            n += sum(
                1 for i in range(len(pile), rule.size) if rule.rank_at(i) == card % 13
            )
        return n

    def sound_moves(self, s: State) -> list[Move]:
        legal = s.moves()
        fset = self.fset
        p = s.piles
        plays: list[Move] = []
        seen: set[tuple[object, int, object]] = set()
        for m in legal:
            if m[0] >= 0 and m[1] in fset and m[0] not in fset:
                c = p[m[0]][-1]
                if self.places_left(s, c) == 1:
                    return [m]  # its only place: nothing is lost by playing it now
                k = (self.t.kinds[m[0]], c, self.f_rules[m[1]])
                if k not in seen:
                    seen.add(k)
                    plays.append(m)
        to_reserve = [m for m in legal if m[0] >= 0 and m[1] in self.reserve]
        return plays + to_reserve[:1] + [m for m in legal if m[0] < 0]

    def moves(self, s: State) -> list[Move]:
        if self.sound:
            return self.sound_moves(s)
        legal = s.moves()
        fset = self.fset
        plays = [m for m in legal if m[0] >= 0 and m[1] in fset and m[0] not in fset]
        if plays:
            # one branch per (card, foundation rule): equal cards from different
            # places, or equal foundations, give the same positions
            p = self.t
            seen: set[tuple[object, int, object]] = set()
            out: list[Move] = []
            for m in plays:
                k = (
                    p.kinds[m[0]],
                    s.piles[m[0]][-1],
                    None if self.reversal else p.rules.foundations[m[1] - p.foundations[0]],
                )
                if k not in seen:
                    seen.add(k)
                    out.append(m)
            return out
        to_reserve = [m for m in legal if m[0] >= 0 and m[1] in self.reserve]
        stock = [m for m in legal if m[0] < 0]
        return to_reserve[:1] + stock

    def steps(self, s: State) -> list[Step]:
        moves = self.moves(s)
        if self.sound or not self.reversal or (moves and moves[0][1] in self.fset):
            return [(m,) for m in moves]  # plays to the foundations
        # reversal (Patriarchs): shift cards between a suit's two foundations, one
        # at a time, as far as it takes to let a card play
        chains: list[Step] = []
        fset = self.fset
        for m in s.moves():
            if m[0] not in fset:
                continue
            k = 0
            while m in s.moves():
                s.push(m)
                k += 1
                if any(x[0] >= 0 and x[0] not in fset and x[1] in fset for x in s.moves()):
                    chains.append((m,) * k)
            for _ in range(k):
                s.pop()
        to_reserve = [(m,) for m in moves if m[0] >= 0]
        return to_reserve + chains + [(m,) for m in moves if m[0] < 0]


def _enables(s: State, move: Move, fset: frozenset[int], depth: int) -> bool:
    """True if the foundation-to-foundation ``move`` lets a card from outside the
    foundations play, at once or after up to ``depth - 1`` more such moves (never
    straight back)."""
    s.push(move)
    try:
        legal = s.moves()
        if any(m[0] >= 0 and m[0] not in fset and m[1] in fset for m in legal):
            return True
        if depth > 1:
            back = (move[1], move[0], 1)
            return any(
                m[0] in fset and m != back and _enables(s, m, fset, depth - 1) for m in legal
            )
        return False
    finally:
        s.pop()


class SeniorWranglerPolicy(Policy):
    """Senior Wrangler ignores suits: the key keeps only ranks and foundation lengths."""

    def key(self, s: State) -> object:
        p = s.piles
        return (
            tuple(tuple(c % 13 for c in p[i]) for i in self.t.packets),
            tuple(len(p[f]) for f in self.t.foundations),
            s.redeals,
        )

    def moves(self, s: State) -> list[Move]:
        legal = s.moves()
        fset = self.fset
        plays = [m for m in legal if m[0] >= 0 and m[0] not in fset]
        if plays:
            # playing a packet card never hurts (a deal would only bury it): try only
            # plays, one per (rank, foundation)
            seen: set[tuple[int, int]] = set()
            out: list[Move] = []
            for m in plays:
                k = (s.piles[m[0]][-1] % 13, m[1])
                if k not in seen:
                    seen.add(k)
                    out.append(m)
            return out
        shifts = [m for m in legal if m[0] in fset and _enables(s, m, fset, 2)]
        return shifts + [m for m in legal if m[0] < 0]


def policy_for(t: Tables, *, sound: bool = False) -> Policy:
    """The search policy of a game; ``sound`` asks for one that drops no winning line
    (available for the games without reversal that play only to the foundations)."""
    gid = t.rules.id
    if sound:
        if t.stock >= 0 and not t.build_columns and not t.fountain_sources:
            return FoundationGamePolicy(t, sound=True)
        raise SystemExit(f"{gid}: no sound search policy; run without --sound")
    if gid in KLONDIKE_IDS:
        return KlondikePolicy(t)
    if t.hand:
        if t.win is Win.KINGS_AT_COLUMN_TOPS:
            return PatienceMaxPolicy(t)
        return AllToPilesPolicy(t)
    if t.packets:
        return SeniorWranglerPolicy(t)
    if PileKind.STOCK in t.kinds:
        return FoundationGamePolicy(t)
    return Policy(t)


# -- the search -----------------------------------------------------------------------


@dataclass
class Outcome:
    """What a search found: the winning line (or None), nodes visited, whether it ran out."""

    line: list[Move] | None
    nodes: int
    seconds: float
    exhausted: bool
    #: the most cards seen on the foundations at once (depth-first search only)
    most_home: int = 0


def search(
    state: State,
    policy: Policy,
    max_seconds: float,
    clock: Callable[[], float] = time.monotonic,
    *,
    track: bool = False,
) -> Outcome:
    """Depth-first search for a won position; the line of moves from ``state``.
    ``track`` also counts the most cards seen on the foundations at once."""
    start = clock()
    deadline = start + max_seconds
    seen: set[int] = set()
    path: list[Step] = []

    def unwind() -> list[Move]:
        line = [m for step in path for m in step]
        for _ in line:
            state.pop()
        return line

    if state.is_won():
        return Outcome([], 0, 0.0, False)
    seen.add(hash(policy.key(state)))
    stack: list[list[Step]] = [policy.steps(state)[::-1]]
    nodes = 0
    foundations = state.t.foundations
    most_home = 0
    while stack:
        frame = stack[-1]
        if not frame:
            stack.pop()
            if path:
                for _ in path.pop():
                    state.pop()
            continue
        step = frame.pop()
        for m in step:
            state.push(m)
        path.append(step)
        nodes += 1
        if state.is_won():
            return Outcome(unwind(), nodes, clock() - start, False)
        k = hash(policy.key(state))
        if k in seen:
            for _ in path.pop():
                state.pop()
            continue
        seen.add(k)
        stack.append(policy.steps(state)[::-1])
        if track:
            home = sum(len(state.piles[f]) for f in foundations)
            if home > most_home:
                most_home = home
        if not nodes & 1023 and clock() > deadline:
            unwind()
            return Outcome(None, nodes, clock() - start, False, most_home)
    return Outcome(None, nodes, clock() - start, True, most_home)


def beam_search(
    state: State,
    policy: Policy,
    max_seconds: float,
    width: int,
    clock: Callable[[], float] = time.monotonic,
) -> Outcome:
    """Best-first in layers: from each layer keep the ``width`` best new positions
    (by ``policy.value``), never a position seen before."""
    start = clock()
    deadline = start + max_seconds
    value = policy.value  # type: ignore[attr-defined]
    seen: set[int] = {hash(policy.key(state))}
    # a layer: (state, line of steps as a linked list)
    Line = tuple[object, ...] | None
    layer: list[tuple[State, Line]] = [(state.copy(), None)]
    nodes = 0

    def unroll(line: Line, last: Step) -> list[Move]:
        steps = [last]
        while line is not None:
            steps.append(line[1])  # type: ignore[arg-type]
            line = line[0]  # type: ignore[assignment]
        return [m for step in reversed(steps) for m in step]

    while layer:
        children: list[tuple[int, int, Step]] = []
        for idx, (s, line) in enumerate(layer):
            for step in policy.steps(s):
                for m in step:
                    s.push(m)
                nodes += 1
                if s.is_won():
                    return Outcome(unroll(line, step), nodes, clock() - start, False)
                k = hash(policy.key(s))
                if k not in seen:
                    seen.add(k)
                    children.append((-value(s), idx, step))
                for _ in step:
                    s.pop()
            if clock() > deadline:
                return Outcome(None, nodes, clock() - start, False)
        children.sort(key=lambda c: c[0])
        nxt: list[tuple[State, Line]] = []
        for _v, idx, step in children[:width]:
            s, line = layer[idx]
            c = s.copy()
            for m in step:
                c.push(m)
            nxt.append((c, (line, step)))
        layer = nxt
    return Outcome(None, nodes, clock() - start, True)


def best_first_search(
    state: State,
    policy: Policy,
    max_seconds: float,
    clock: Callable[[], float] = time.monotonic,
) -> Outcome:
    """Greedy best-first: always expand the best position found so far (by
    ``policy.value``), wherever it is; positions are kept as snapshots."""
    start = clock()
    deadline = start + max_seconds
    value = policy.value  # type: ignore[attr-defined]
    t = state.t
    seen: set[int] = {hash(policy.key(state))}
    Line = tuple[object, ...] | None

    def snap(s: State) -> tuple[object, ...]:
        return (tuple(map(tuple, s.piles)), tuple(s.down), s.redeals, s.score)

    def unroll(line: Line, last: Step) -> list[Move]:
        steps = [last]
        while line is not None:
            steps.append(line[1])  # type: ignore[arg-type]
            line = line[0]  # type: ignore[assignment]
        return [m for step in reversed(steps) for m in step]

    counter = 0
    frontier: list[tuple[int, int, tuple[object, ...], Line]] = [
        (-value(state), 0, snap(state), None)
    ]
    nodes = 0
    while frontier:
        _v, _c, sn, line = heapq.heappop(frontier)
        piles, down, redeals, score = sn
        s = State(t, [list(p) for p in piles], list(down), redeals, score)  # type: ignore[call-overload]
        for step in policy.steps(s):
            for m in step:
                s.push(m)
            nodes += 1
            if s.is_won():
                return Outcome(unroll(line, step), nodes, clock() - start, False)
            k = hash(policy.key(s))
            if k not in seen:
                seen.add(k)
                counter += 1
                heapq.heappush(frontier, (-value(s), counter, snap(s), (line, step)))
            for _ in step:
                s.pop()
        if clock() > deadline:
            return Outcome(None, nodes, clock() - start, False)
    return Outcome(None, nodes, clock() - start, True)


def record_for(game_id: str, number: int, line: list[Move]) -> dict[str, object]:
    """Replay ``line`` through the checked layer and make the golden record."""
    rules = GAMES[game_id]
    game = new_game(game_id, number, clock=lambda: 0.0)
    t = game.tables
    texts = []
    for m in line:
        text = t.label_of(m)
        played = game.play(text)
        if str(played) != text:
            raise AssertionError(f"{game_id} #{number}: {text!r} played as {played}")
        texts.append(text)
    if not game.is_won():
        raise AssertionError(f"{game_id} #{number}: the line does not win")
    score = game.state.score if rules.scored else None
    return {
        "game": game_id,
        "number": number,
        "moves": texts,
        "result": {"won": True, "moves": len(texts), "score": score},
    }


def write_record(record: dict[str, object], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{record['game']}.json"
    moves = ",\n    ".join(json.dumps(m) for m in record["moves"])  # type: ignore[attr-defined]
    text = (
        "{\n"
        f'  "game": {json.dumps(record["game"])},\n'
        f'  "number": {record["number"]},\n'
        f'  "moves": [\n    {moves}\n  ],\n'
        f'  "result": {json.dumps(record["result"])}\n'
        "}\n"
    )
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--first", type=int, default=1, help="first game number to try")
    ap.add_argument("--count", type=int, default=100, help="how many numbers to try")
    ap.add_argument("--max-seconds", type=float, default=20.0, help="search time per number")
    ap.add_argument(
        "--sound", action="store_true",
        help="drop no winning line (slower; Patriarchs family without reversal, Contradance,"
        " Captured Queens)",
    )
    ap.add_argument(
        "--prefilter", type=int, metavar="CARDS",
        help="search a number only if a quick greedy search puts CARDS on the foundations"
        " (with --sound: Picture Patience)",
    )
    ap.add_argument("--verbose", action="store_true", help="also list skipped numbers")
    ap.add_argument("--strategy", choices=["dfs", "beam", "best"], help="search strategy")
    ap.add_argument("--width", type=int, default=2000, help="beam width (PatienceMax)")
    ap.add_argument("--out", type=Path, default=GOLDEN_DIR, help="directory for the record")
    ap.add_argument("--dry-run", action="store_true", help="search only, write nothing")
    args = ap.parse_args(argv)

    rules = GAMES[args.game]
    total = time.monotonic()
    for number in range(args.first, args.first + args.count):
        state = State.deal(rules, number)
        if args.prefilter:
            # a quick greedy search first: only promising deals get the slow one
            quick = search(state, policy_for(state.t), 5.0, track=True)
            if quick.line is None and quick.most_home < args.prefilter:
                if args.verbose:
                    print(f"{args.game} #{number}: skipped, {quick.most_home} cards home")
                continue
        policy = policy_for(state.t, sound=args.sound)
        strategy = args.strategy or getattr(policy, "strategy", "dfs")
        if strategy == "beam":
            out = beam_search(state, policy, args.max_seconds, args.width)
        elif strategy == "best":
            out = best_first_search(state, policy, args.max_seconds)
        else:
            out = search(state, policy, args.max_seconds)
        if out.line is not None:
            status = "won"
        elif not out.exhausted:
            status = "timeout"
        else:
            status = "cannot be won" if policy.complete else "no win found (pruned search)"
        print(
            f"{args.game} #{number}: {status}, {out.nodes} nodes, {out.seconds:.2f}s"
            + (f", {len(out.line)} moves" if out.line is not None else ""),
            flush=True,
        )
        if out.line is None:
            continue
        record = record_for(args.game, number, out.line)
        if not args.dry_run:
            path = write_record(record, args.out)
            print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
        print(f"total {time.monotonic() - total:.1f}s")
        return 0
    print(f"{args.game}: no win found in #{args.first}..#{args.first + args.count - 1}")
    return 1


if __name__ == "__main__":
    sys.exit(main())

