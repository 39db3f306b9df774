"""An experiment, not part of the package: a beam search for Picture Patience wins.

Picture Patience (RULES.md, the Patriarchs family): two decks, no card on the foundations
at first (per suit one pile up from an ace, one down from a king), nine reserve cards
refilled from the waste (or the stock), one pass of the stock, no redeal. This file plays
that model by hand (card = suit * 13 + rank, both decks alike) over the game numbers'
deals (`patiencekit.deals.dealing_order`), to see how often a strong search wins.

The beam works level by level (cards dealt from the stock); at each level it keeps the
`width` best positions after every sequence of foundation plays, best = 4 per card on the
foundations less one per waste card above a card that is nearer to its foundation.

Run of 2026-12-02 (PYTHONPATH=src python docs/experiments/picture_patience_beam.py A B W, or
`... best A B W` for the most cards placed):
- #244196 (the one shipped winnable deal): won at width 200 (0.6 s) and 2,000, not at 100.
- deals 1-273 at width 100: none won (0.4-0.8 s a deal).
- deals 1-20 at width 200: the best line puts 25-58 of the 104 cards on the foundations;
  deals 1-10 at width 3,000: 25-57.
- the exact depth-first search with a transposition table (`solve_exact`) decides none of
  deals 1-10 in 200,000 positions, nor #244196 in 2,000,000.
Width 100 misses #244196 itself, so the 273 deals say little alone; what says more is how far
the best lines at width 3,000 stay from a win (at most 57 of 104 cards placed on deals 1-10).
Wins are rare: 200 winnable numbers would take a far wider search over many thousands of deals.
"""
import sys
import time

from patiencekit.deals import dealing_order

sys.setrecursionlimit(100000)


def deal(n):
    order = [c % 52 for c in dealing_order(n, 2)]
    return order[:9], order[9:]   # reserve, stock (first item dealt first)
def solve_exact(n, limit):
    reserve, stock = deal(n)
    S = len(stock)
    seen = set()
    nodes = 0
    # foundations: up[s], down[s]
    def fits(c, up, down):
        s, r = divmod(c, 13)  # r 0..12
        res = []
        if up[s] == r: res.append(0)
        if down[s] == 12 - r: res.append(1)
        return res
    def rec(i, waste, res, up, down, placed):
        nonlocal nodes
        if placed == 104: return True
        key = (i, tuple(waste), tuple(sorted(res)), tuple(up), tuple(down))
        if key in seen: return False
        seen.add(key)
        nodes += 1
        if nodes > limit: raise TimeoutError
        # reserve moves
        tried = set()
        for k, c in enumerate(res):
            if c is None or c in tried: continue
            tried.add(c)
            for side in fits(c, up, down):
                s = c // 13
                nup, ndown = list(up), list(down)
                if side == 0: nup[s] += 1
                else: ndown[s] += 1
                nres = list(res); nw = waste; ni = i
                if waste:
                    nres[k] = waste[-1]; nw = waste[:-1]
                elif i < S:
                    nres[k] = stock[i]; ni = i + 1
                else:
                    nres[k] = None
                if rec(ni, nw, nres, nup, ndown, placed + 1): return True
        if waste:
            c = waste[-1]
            for side in fits(c, up, down):
                s = c // 13
                nup, ndown = list(up), list(down)
                if side == 0: nup[s] += 1
                else: ndown[s] += 1
                if rec(i, waste[:-1], res, nup, ndown, placed + 1): return True
        if i < S:
            if rec(i + 1, waste + (stock[i],), res, up, down, placed): return True
        return False
    try:
        r = rec(0, (), list(reserve), [0]*4, [0]*4, 0)
        return ("solved" if r else "unsolvable"), nodes
    except TimeoutError:
        return "limit", nodes

def fits(c, f):
    s, r = divmod(c, 13)
    out = []
    if f[s] == r: out.append(s)
    if f[4 + s] == 12 - r: out.append(4 + s)
    return out

def closure(state, stock):
    """All states reachable by foundation plays only (no deal)."""
    seen = {state}
    todo = [state]
    while todo:
        i, waste, res, f = todo.pop()
        nxt = []
        for k, c in enumerate(res):
            if c < 0: continue
            for p in fits(c, f):
                nf = list(f); nf[p] += 1
                nres = list(res); nw = waste; ni = i
                if waste: nres[k] = waste[-1]; nw = waste[:-1]
                elif i < len(stock): nres[k] = stock[i]; ni = i + 1
                else: nres[k] = -1
                nxt.append((ni, nw, tuple(sorted(nres)), tuple(nf)))
        if waste:
            for p in fits(waste[-1], f):
                nf = list(f); nf[p] += 1
                nxt.append((i, waste[:-1], res, tuple(nf)))
        for s in nxt:
            if s not in seen:
                seen.add(s); todo.append(s)
    return seen

def score(state):
    i, waste, res, f = state
    placed = sum(f)
    # blockage: waste card needed later sitting above a card needed sooner
    # distance of card c from playable: min over its piles
    def dist(c):
        s, r = divmod(c, 13)
        du = r - f[s]; dd = (12 - r) - f[4 + s]
        ds = [d for d in (du, dd) if d >= 0]
        return min(ds) if ds else 99
    pen = 0
    mn = 99
    for c in waste:  # bottom to top
        d = dist(c)
        if d > mn: pass
        mn = min(mn, d)
    # count inversions near the top: a card above one that is closer to playable
    lowest_below = 99
    for c in waste:
        d = dist(c)
        if d > lowest_below:
            pen += 1
        lowest_below = min(lowest_below, d)
    return placed * 4 - pen - len(waste) * 0

def beam(n, width):
    reserve, stock = deal(n)
    start = (0, (), tuple(sorted(reserve)), (0,)*8)
    level = closure(start, stock)
    S = len(stock)
    while True:
        if any(sum(s[3]) == 104 for s in level): return True
        nxt = set()
        for st in level:
            i, waste, res, f = st
            if i < S:
                nxt |= closure((i + 1, waste + (stock[i],), res, f), stock)
        if not nxt: return False
        level = sorted(nxt, key=score, reverse=True)[:width]


def best_placed(n, width):
    """The most cards any kept position of the beam has on the foundations."""
    reserve, stock = deal(n)
    level = closure((0, (), tuple(sorted(reserve)), (0,) * 8), stock)
    best = 0
    while level:
        best = max(best, max(sum(s[3]) for s in level))
        nxt = set()
        for i, waste, res, f in level:
            if i < len(stock):
                nxt |= closure((i + 1, waste + (stock[i],), res, f), stock)
        level = sorted(nxt, key=score, reverse=True)[:width]
    return best


if __name__ == "__main__":
    if sys.argv[1] == "best":  # best A B W
        a, b, w = map(int, sys.argv[2:5])
        print([best_placed(n, w) for n in range(a, b)])
        sys.exit()
    a, b, w = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    won = 0
    for n in range(a, b):
        t = time.time(); r = beam(n, w); won += r
        print(n, r, round(time.time() - t, 2), flush=True)
    print("won", won, "of", b - a)
