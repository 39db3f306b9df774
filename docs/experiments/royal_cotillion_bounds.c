/* Royal Cotillion: bounds that could prove a deal lost, tried in an exact search.

   An experiment, not part of the package (stop 42, 2026-12-06). Built and driven by
   docs/experiments/royal_cotillion_bounds.py, which deals with the package and sends
   this program the deals (and, in "check" mode, the positions of winning lines).

   The model (the package's ReserveBeam): per suit s (clubs, spades, hearts, diamonds =
   card / 13) one foundation from the ace (f = s) and one from the two (f = 4 + s), both
   up by twos, wrapping; 16 reserve cards, each refilled at once from the waste's top (from
   the stock when the waste is empty); four left piles of three, only the top playable,
   never refilled; the stock dealt one card at a time, once. A position: the foundations'
   heights, the left piles' heights, the stock cards drawn and which of them are still on
   the waste (the reserve follows). Every play of a reserve card or of the waste's top
   "pops" the waste: its next card comes into play.

   The bounds, each asked of a position: can every foundation still reach 13?
     share  every card still in the stock is free at once; the waste under its top is a
            stack, one card of it freed per card played; a foundation may take a card
            once one copy of it was ever free (the two foundations of a suit share it).
     count  as "share", but the two copies are counted: per suit the set of pairs of
            heights (h1, h2) reachable with the copies freed so far (a card passed by one
            foundation uses a copy), and each suit credited with the most cards its set
            reaches. Argued sound: a real line's plays only use free copies, its pops of
            the waste are at most its plays from the reserve and the waste, and those are
            at most the credited ones; so every real position stays inside the sets, the
            sets only grow, and a suit that never reaches (13, 13) there cannot in play.
     blank  as "count", but the stock is drawn in order (when nothing more can be
            credited), each draw putting a blank on the waste: the card a real draw
            buries stays free. Argued sound (the package's ReserveExact has the argument).
     bury   as "count", but the stock is drawn in order, and a draw right after a draw
            (nothing played between) buries the drawn card for real. REFUTED: it calls
            positions of winning lines lost. A player can keep a card that fits in the
            reserve and play it after the next draw: the drawn card is pulled into the
            reserve instead of being buried. A sound version needs those kept cards.
     bury2  as "bury", and a draw after plays buries for real the last card those plays
            brought out of the waste (the card a real draw buries then: the waste's top).
            The strongest of these one-line bounds, and further from sound (stop 45: it
            calls 105 of the 883 shipped, winnable, deals lost within 20,000 positions;
            bury 23): a measure of how far any bound of the kind could go, not a proof.

     cap    "blank", and per waste card w: the copies that cannot go to a foundation before
            w is the waste's top (their open places wait for cards at or under w, or in
            left piles under cards with no open place) and have come into play by the
            time the "blank" line frees w (no later in a real line) must all be in the
            reserve when w is uncovered: more than 16 and it never is (stop 46: no
            position of 49 shipped winning lines called lost; it prunes 5-50 % more
            positions than "blank" and decides none of the 37 deals left in 200,000).

   "blank" is the bound the package's ReserveExact
   (src/patiencekit/solver/reserve.py) prunes its exact search with, for Royal Cotillion
   and Picture Patience.

   Usage (stdin as the driver writes it):
     royal_cotillion_bounds dfs BOUND STATES LOG2TABLE [RESTARTS [FIRST]]
         lines "NUMBER c0 .. c103" (the deal's card ids in dealing order); prints
         "NUMBER won|lost|limit nodes=N pruned=P"
     royal_cotillion_bounds beam SCORE WIDTH STATES LOG2TABLE
         the same lines; a beam that looks for a win (stop 46; its section below), SCORE
         "roll" or "roll2" (greedy rollouts: the package's ReserveRollout came of it) or
         a bound's relaxed line; prints "NUMBER won|limit nodes=N [line=...]"
     royal_cotillion_bounds check BOUND
         lines "NUMBER c0 .. c103 K" then K positions "h0..h7 l0..l3 drawn W w.. R r.."
         prints "NUMBER positions=K lost_claims=L" (L > 0: the bound is unsound)
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NST 76
#define NRES 16

enum { NONE, SHARE, COUNT, BLANK, BURY, BURY2, ROLL, ROLL2, CAP };

static int stock[NST];
static int leftc[4][3];
static int pos_of[52][2]; /* a card's place on its ace foundation and on its two foundation */
static int seqc[8][13];   /* the card at each height of each foundation */

typedef struct {
    uint8_t h[8], lh[4], si, wn, placed;
    int8_t res[NRES];
    int8_t waste[NST]; /* the waste's cards, bottom first */
    uint8_t wpos[NST]; /* their places in the stock (the search's key; unused by the bounds) */
    uint64_t mlo, mhi; /* which stock positions are on the waste */
} Pos;

/* ---- the bounds ---------------------------------------------------------------------- */

static int arrived[52];
static int popj[NST]; /* per waste index: the stock index when the relaxed line freed it */
static uint8_t reach[4][14][14];

/* the pairs (h1, h2) of suit s reachable from (h1, h2) with the copies arrived; the most cards */
static int suit_best(int s, int h1, int h2) {
    int qa[200], qb[200], n = 0, best = h1 + h2;
    memset(reach[s], 0, sizeof reach[s]);
    qa[n] = h1; qb[n] = h2; n++;
    reach[s][h1][h2] = 1;
    for (int q = 0; q < n; q++) {
        int a = qa[q], b = qb[q];
        if (a + b > best) best = a + b;
        if (a < 13) {
            int c = seqc[s][a];
            if (arrived[c] >= 1 + (b > pos_of[c][1]) && !reach[s][a + 1][b]) {
                reach[s][a + 1][b] = 1; qa[n] = a + 1; qb[n] = b; n++;
            }
        }
        if (b < 13) {
            int c = seqc[4 + s][b];
            if (arrived[c] >= 1 + (a > pos_of[c][0]) && !reach[s][a][b + 1]) {
                reach[s][a][b + 1] = 1; qa[n] = a; qb[n] = b + 1; n++;
            }
        }
    }
    return best;
}

static int past_any(int X) {
    int s = X / 13;
    for (int a = 0; a < 14; a++)
        for (int b = 0; b < 14; b++)
            if (reach[s][a][b] && (a > pos_of[X][0] || b > pos_of[X][1])) return 1;
    return 0;
}

/* "count" (stock 0), "blank" (stock 1, bury 0) and "bury" (stock 1, bury 1): how many
   cards the foundations reach in the relaxed line (104: all, the position is not lost) */
static int counted_reach(const Pos *p, int in_order, int bury) {
    memset(arrived, 0, sizeof arrived);
    for (int f = 0; f < 8; f++)
        for (int k = 0; k < p->h[f]; k++) arrived[seqc[f][k]]++;
    for (int k = 0; k < NRES; k++)
        if (p->res[k] >= 0) arrived[p->res[k]]++;
    int W[NST * 2 + 8], WI[NST * 2 + 8], wn = 0, last = -1, j = p->si, lastpop = -1;
    for (int k = 0; k < NST; k++) popj[k] = 999;
    for (int k = 0; k + 1 < p->wn; k++) { WI[wn] = k; W[wn++] = p->waste[k]; }
    if (p->wn) { last = p->waste[p->wn - 1]; arrived[last]++; popj[p->wn - 1] = p->si; }
    if (!in_order)
        for (; j < NST; j++) arrived[stock[j]]++;
    int lh[4];
    for (int q = 0; q < 4; q++) { lh[q] = p->lh[q]; if (lh[q]) arrived[leftc[q][lh[q] - 1]]++; }
    int base = 0, passes = 0, tot = 0;
    for (int f = 0; f < 8; f++) base += p->h[f];
    for (;;) {
        int changed = 1;
        while (changed) {
            changed = 0;
            tot = 0;
            for (int s = 0; s < 4; s++) tot += suit_best(s, p->h[s], p->h[4 + s]);
            while (passes < tot - base) {
                passes++; changed = 1; last = -1; lastpop = -1;
                if (wn) { --wn; int x = W[wn]; if (x >= 0) arrived[x]++; lastpop = x; if (WI[wn] >= 0) popj[WI[wn]] = j; }
                else if (j < NST) arrived[stock[j++]]++;
            }
            for (int q = 0; q < 4; q++)
                while (lh[q] && past_any(leftc[q][lh[q] - 1])) {
                    lh[q]--;
                    if (lh[q]) { arrived[leftc[q][lh[q] - 1]]++; changed = 1; }
                }
        }
        int done = 1;
        for (int s = 0; s < 4; s++) if (!reach[s][13][13]) done = 0;
        if (done) return 104;
        if (j >= NST) return tot;
        WI[wn] = -1;
        if (bury && last >= 0) { arrived[last]--; W[wn++] = last; }
        else if (bury == 2 && lastpop >= 0) { arrived[lastpop]--; W[wn++] = lastpop; }
        else W[wn++] = -1;
        lastpop = -1;
        last = stock[j++];
        arrived[last]++;
    }
}

static int counted_lost(const Pos *p, int in_order, int bury) {
    return counted_reach(p, in_order, bury) < 104;
}

static int share_lost(const Pos *p) {
    int A[52] = {0}, h[8];
    for (int f = 0; f < 8; f++) h[f] = p->h[f];
    for (int k = 0; k < NRES; k++) if (p->res[k] >= 0) A[p->res[k]]++;
    for (int k = p->si; k < NST; k++) A[stock[k]]++;
    int wn = p->wn;
    if (wn) { A[p->waste[wn - 1]]++; wn--; }
    int lh[4];
    for (int q = 0; q < 4; q++) { lh[q] = p->lh[q]; if (lh[q]) A[leftc[q][lh[q] - 1]]++; }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int f = 0; f < 8; f++)
            while (h[f] < 13 && A[seqc[f][h[f]]] > 0) {
                h[f]++; changed = 1;
                if (wn) { A[p->waste[wn - 1]]++; wn--; }
            }
        for (int q = 0; q < 4; q++)
            while (lh[q]) {
                int X = leftc[q][lh[q] - 1], s = X / 13;
                if (!(h[s] > pos_of[X][0] || h[4 + s] > pos_of[X][1])) break;
                lh[q]--;
                if (lh[q]) { A[leftc[q][lh[q] - 1]]++; changed = 1; }
            }
    }
    for (int f = 0; f < 8; f++) if (h[f] < 13) return 1;
    return 0;
}


/* "cap": "blank", and then per waste card w: the copies that cannot go to a foundation
   before w is the waste's top (their open places all wait for cards at or under w, or
   in left piles under such cards) that have come into play by the time the relaxed line
   frees w (a lower bound on the real time) must all be in the reserve then: more than
   16 and w is never uncovered. */
static int cap_lost(const Pos *p) {
    if (counted_reach(p, 1, 0) < 104) return 1;
    int onf[52] = {0}, total[52];
    for (int f = 0; f < 8; f++) for (int k = 0; k < p->h[f]; k++) onf[seqc[f][k]]++;
    for (int c = 0; c < 52; c++) total[c] = 2 - onf[c];
    for (int i = 0; i < p->wn; i++) {
        int under[52] = {0};
        for (int k = 0; k <= i; k++) under[p->waste[k]]++;
        int any = 0;
        for (int k = 0; k <= i; k++) if (under[p->waste[k]] == total[p->waste[k]]) any = 1;
        if (!any) continue;
        int lacc[4]; /* per left pile: how many cards from the bottom are inaccessible */
        for (int q = 0; q < 4; q++) lacc[q] = 0;
        int cap[8];
        for (int round = 0; round < 20; round++) {
            int inacc[52] = {0};
            for (int q = 0; q < 4; q++) for (int k = 0; k < lacc[q]; k++) inacc[leftc[q][k]]++;
            for (int f = 0; f < 8; f++) {
                cap[f] = 13;
                for (int k = p->h[f]; k < 13; k++) {
                    int c = seqc[f][k];
                    if (total[c] - under[c] - inacc[c] <= 0) { cap[f] = k; break; }
                }
            }
            int changed = 0;
            for (int q = 0; q < 4; q++) {
                /* the cards from the top down while each has an open place */
                int d = p->lh[q];
                while (d > 0) {
                    int c = leftc[q][d - 1], s = c / 13;
                    int a = pos_of[c][0], b = pos_of[c][1];
                    int open = (a >= p->h[s] && a < cap[s]) || (b >= p->h[4 + s] && b < cap[4 + s]);
                    if (!open) break;
                    d--;
                }
                /* the card at d-1 has no open place: it and all under it are inaccessible */
                int na = d > 0 ? d : 0;
                if (na > lacc[q]) { lacc[q] = na; changed = 1; }
            }
            if (!changed) break;
        }
        int arrivedc[52] = {0};
        for (int k = 0; k < NRES; k++) if (p->res[k] >= 0) arrivedc[p->res[k]]++;
        for (int k = i + 1; k < p->wn; k++) arrivedc[p->waste[k]]++;
        if (popj[i] > NST) continue; /* (not freed: the relaxed line was lost before) */
        int end = popj[i];
        for (int k = p->si; k < end; k++) arrivedc[stock[k]]++;
        int blocked = 0;
        for (int c = 0; c < 52; c++) {
            if (!arrivedc[c]) continue;
            int s = c / 13, a = pos_of[c][0], b = pos_of[c][1];
            int open = (a >= p->h[s] && a < cap[s]) + (b >= p->h[4 + s] && b < cap[4 + s]);
            if (arrivedc[c] > open) blocked += arrivedc[c] - open;
        }
        if (blocked > NRES) return 1;
    }
    return 0;
}

static int lost(const Pos *p, int bound) {
    switch (bound) {
    case SHARE: return share_lost(p);
    case COUNT: return counted_lost(p, 0, 0);
    case BLANK: return counted_lost(p, 1, 0);
    case BURY: return counted_lost(p, 1, 1);
    case BURY2: return counted_lost(p, 1, 2);
    case CAP: return cap_lost(p);
    default: return 0;
    }
}

/* ---- the exact search ---------------------------------------------------------------- */

typedef struct { uint64_t lo, hi; } Key;
static Key *tab;
static uint64_t tmask, tfill;
static long nodes, max_nodes, pruned;
static int over, bound_kind;
/* the line being searched: the package's compact moves (ReserveBeam: -1 a draw, else
   kind | card << 4 | foundation << 10 | left pile << 14; kind 1 waste, 2 reserve, 3 left) */
static int line[400], depth;
/* restarts (dfs with RESTARTS > 1): from the second on, the sources are tried in a random
   order and a draw comes first one time in four (a finder of wins: its "lost" is no proof
   unless the first, ordered, search ends without a limit) */
static int randomize;
static uint64_t rng_state;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static int draw_step(const Pos *p);

static int seen(const Pos *p) {
    uint64_t a = 0;
    for (int f = 0; f < 8; f++) a = a << 4 | p->h[f];
    for (int q = 0; q < 4; q++) a = a << 2 | p->lh[q];
    a = a << 7 | p->si;
    Key k = {a | p->mhi << 47, p->mlo};
    uint64_t h = k.lo * 0x9E3779B97F4A7C15ull ^ k.hi * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    for (uint64_t i = h & tmask;; i = (i + 1) & tmask) {
        Key *e = &tab[i];
        if (!e->lo && !e->hi) {
            if (tfill * 10 >= tmask * 7) return 2; /* full */
            tfill++; *e = k; return 0;
        }
        if (e->lo == k.lo && e->hi == k.hi) return 1;
    }
}

static inline int fits(const Pos *p, int c, int f) {
    return f < 4 ? p->h[f] == pos_of[c][0] : p->h[f] == pos_of[c][1];
}

/* the waste's top leaves (to a foundation, or into reserve space k when k >= 0) */
static void pop_waste(Pos *c, int k) {
    int sp = c->wpos[--c->wn];
    if (sp < 64) c->mlo &= ~(1ull << sp); else c->mhi &= ~(1ull << (sp - 64));
    if (k >= 0) c->res[k] = c->waste[c->wn];
}

static int dfs(const Pos *p) {
    if (p->placed == 104) return 1;
    int r = seen(p);
    if (r == 1) return 0;
    if (r == 2 || ++nodes >= max_nodes) { over = 1; return 0; }
    if (bound_kind && lost(p, bound_kind)) { pruned++; return 0; }
    Pos c;
    int order[NRES + 5];
    for (int k = 0; k < NRES + 5; k++) order[k] = k;
    if (randomize) {
        for (int k = NRES + 4; k > 0; k--) {
            int q = (int)(rnd() % (uint32_t)(k + 1)), t = order[k];
            order[k] = order[q]; order[q] = t;
        }
        if (rnd() % 4 == 0 && p->si < NST) {
            int r2 = draw_step(p);
            if (r2 || over) return r2;
        }
    }
    for (int kk = 0; kk < NRES + 5; kk++) { /* the reserve spaces, the waste, the left piles */
        int k = order[kk];
        int card;
        if (k < NRES) {
            card = p->res[k];
            if (card < 0) continue;
            int dup = 0;
            for (int q = 0; q < k; q++) if (p->res[q] == card) { dup = 1; break; }
            if (dup) continue;
        } else if (k == NRES) {
            if (!p->wn) continue;
            card = p->waste[p->wn - 1];
        } else {
            if (!p->lh[k - NRES - 1]) continue;
            card = leftc[k - NRES - 1][p->lh[k - NRES - 1] - 1];
        }
        for (int side = 0; side < 2; side++) {
            int f = side ? 4 + card / 13 : card / 13;
            if (!fits(p, card, f)) continue;
            c = *p;
            c.h[f]++;
            c.placed++;
            if (k == NRES) pop_waste(&c, -1);
            else if (k > NRES) c.lh[k - NRES - 1]--;
            else if (c.wn) pop_waste(&c, k);
            else c.res[k] = c.si < NST ? (int8_t)stock[c.si++] : -1;
            line[depth++] = (k == NRES ? 1 : k < NRES ? 2 : 3) | card << 4 | f << 10
                            | (k > NRES ? k - NRES - 1 : 0) << 14;
            if (dfs(&c)) return 1;
            depth--;
            if (over) return 0;
        }
    }
    if (p->si < NST) return draw_step(p);
    return 0;
}

static int draw_step(const Pos *p) {
    Pos c = *p;
    int sp = c.si++;
    c.wpos[c.wn] = (uint8_t)sp;
    c.waste[c.wn++] = (int8_t)stock[sp];
    if (sp < 64) c.mlo |= 1ull << sp; else c.mhi |= 1ull << (sp - 64);
    line[depth++] = -1;
    if (dfs(&c)) return 1;
    depth--;
    return 0;
}

/* ---- a beam that looks for a win (stop 46) --------------------------------------------

   Levels are the moves made (a play or a draw each adds one to cards placed + cards
   drawn). Each level keeps the WIDTH best positions by a score, each position once; a win
   is replayed like the search's. The score: the cards the relaxed line of the bound
   SCORE reaches (counted_reach: "bury2", "bury" or "blank"), then the cards placed. A
   finder of wins only: a beam that leaves positions out proves nothing by failing. */

typedef struct { int parent, move; } Step;
static Step *steps;
static long nsteps, max_steps;

typedef struct { Pos p; int step, score; } Cand;

static int cand_cmp(const void *a, const void *b) {
    const Cand *x = a, *y = b;
    return (y->score > x->score) - (y->score < x->score);
}

static int score_kind;

/* the cards placed at the end of the real line that plays every card that fits (the left
   piles first, then the waste's top, then the reserve; "roll2": the left piles last) and
   draws when none does */
static int rollout(const Pos *p0, int left_last) {
    Pos p = *p0;
    for (;;) {
        int done = 0;
        for (int step = 0; step < 3 && !done; step++) {
            int what = left_last ? (step + 1) % 3 : step; /* 0 left piles, 1 waste, 2 reserve */
            if (what == 0) {
                for (int q = 0; q < 4 && !done; q++)
                    if (p.lh[q]) {
                        int c = leftc[q][p.lh[q] - 1];
                        for (int f = c / 13; f < 8; f += 4)
                            if (fits(&p, c, f)) { p.h[f]++; p.placed++; p.lh[q]--; done = 1; break; }
                    }
            } else if (what == 1) {
                if (!p.wn) continue;
                int c = p.waste[p.wn - 1];
                for (int f = c / 13; f < 8; f += 4)
                    if (fits(&p, c, f)) { p.h[f]++; p.placed++; p.wn--; done = 1; break; }
            } else {
                for (int k = 0; k < NRES && !done; k++) {
                    int c = p.res[k];
                    if (c < 0) continue;
                    for (int f = c / 13; f < 8; f += 4)
                        if (fits(&p, c, f)) {
                            p.h[f]++; p.placed++;
                            if (p.wn) p.res[k] = p.waste[--p.wn];
                            else p.res[k] = p.si < NST ? (int8_t)stock[p.si++] : -1;
                            done = 1; break;
                        }
                }
            }
        }
        if (done) continue;
        if (p.si >= NST) return p.placed;
        p.waste[p.wn++] = (int8_t)stock[p.si++];
    }
}

static int score_of(const Pos *p) {
    int r = 0;
    switch (score_kind) {
    case ROLL: r = rollout(p, 0); break;
    case ROLL2: r = rollout(p, 1); break;
    case BURY2: r = counted_reach(p, 1, 2); break;
    case BURY: r = counted_reach(p, 1, 1); break;
    case BLANK: r = counted_reach(p, 1, 0); break;
    default: r = 0;
    }
    return r * 256 + p->placed;
}

/* the moves from p: positions into out[], compact moves into mv[]; how many */
static int children(const Pos *p, Pos *out, int *mv) {
    int n = 0;
    for (int k = 0; k < NRES + 5; k++) {
        int card;
        if (k < NRES) {
            card = p->res[k];
            if (card < 0) continue;
            int dup = 0;
            for (int q = 0; q < k; q++) if (p->res[q] == card) { dup = 1; break; }
            if (dup) continue;
        } else if (k == NRES) {
            if (!p->wn) continue;
            card = p->waste[p->wn - 1];
        } else {
            if (!p->lh[k - NRES - 1]) continue;
            card = leftc[k - NRES - 1][p->lh[k - NRES - 1] - 1];
        }
        for (int side = 0; side < 2; side++) {
            int f = side ? 4 + card / 13 : card / 13;
            if (!fits(p, card, f)) continue;
            Pos *c = &out[n];
            *c = *p;
            c->h[f]++;
            c->placed++;
            if (k == NRES) pop_waste(c, -1);
            else if (k > NRES) c->lh[k - NRES - 1]--;
            else if (c->wn) pop_waste(c, k);
            else c->res[k] = c->si < NST ? (int8_t)stock[c->si++] : -1;
            mv[n++] = (k == NRES ? 1 : k < NRES ? 2 : 3) | card << 4 | f << 10
                      | (k > NRES ? k - NRES - 1 : 0) << 14;
        }
    }
    if (p->si < NST) {
        Pos *c = &out[n];
        *c = *p;
        int sp = c->si++;
        c->wpos[c->wn] = (uint8_t)sp;
        c->waste[c->wn++] = (int8_t)stock[sp];
        if (sp < 64) c->mlo |= 1ull << sp; else c->mhi |= 1ull << (sp - 64);
        mv[n++] = -1;
    }
    return n;
}

/* one beam of WIDTH from root: 1 won (line[] holds it), 0 not */
static int beam(const Pos *root, int width) {
    Cand *cur = malloc(sizeof(Cand) * (size_t)width);
    Cand *nxt = malloc(sizeof(Cand) * (size_t)width * 48);
    if (!cur || !nxt) { fprintf(stderr, "royal_cotillion_bounds: out of memory\n"); exit(1); }
    int ncur = 1, won = 0;
    cur[0].p = *root; cur[0].step = -1; cur[0].score = 0;
    nsteps = 0;
    Pos kids[48];
    int mv[48];
    while (ncur && !won && nodes < max_nodes) {
        int nn = 0;
        for (int i = 0; i < ncur && !won; i++) {
            nodes++;
            int k = children(&cur[i].p, kids, mv);
            for (int j = 0; j < k; j++) {
                if (seen(&kids[j])) continue;
                if (nsteps >= max_steps) { won = -1; break; }
                steps[nsteps].parent = cur[i].step;
                steps[nsteps].move = mv[j];
                int st = (int)nsteps++;
                if (kids[j].placed == 104) {
                    depth = 0;
                    for (int q = st; q >= 0; q = steps[q].parent) line[depth++] = steps[q].move;
                    for (int a = 0, b = depth - 1; a < b; a++, b--) {
                        int t = line[a]; line[a] = line[b]; line[b] = t;
                    }
                    won = 1;
                    break;
                }
                nxt[nn].p = kids[j];
                nxt[nn].step = st;
                nxt[nn].score = score_of(&kids[j]);
                nn++;
            }
        }
        if (won) break;
        qsort(nxt, (size_t)nn, sizeof(Cand), cand_cmp);
        ncur = nn < width ? nn : width;
        memcpy(cur, nxt, sizeof(Cand) * (size_t)ncur);
    }
    free(cur);
    free(nxt);
    return won == 1;
}

/* ---- input --------------------------------------------------------------------------- */

static int read_deal(unsigned long long *n, Pos *root) {
    int order[104];
    if (scanf("%llu", n) != 1) return 0;
    for (int k = 0; k < 104; k++) if (scanf("%d", &order[k]) != 1) return 0;
    memset(root, 0, sizeof *root);
    for (int k = 0; k < NRES; k++) root->res[k] = (int8_t)(order[k] % 52);
    for (int i = 0; i < 12; i++) leftc[i % 4][i / 4] = order[16 + i] % 52;
    for (int q = 0; q < 4; q++) root->lh[q] = 3;
    for (int k = 0; k < NST; k++) stock[k] = order[28 + k] % 52;
    return 1;
}

static int parse_bound(const char *s) {
    if (!strcmp(s, "none")) return NONE;
    if (!strcmp(s, "share")) return SHARE;
    if (!strcmp(s, "count")) return COUNT;
    if (!strcmp(s, "blank")) return BLANK;
    if (!strcmp(s, "bury")) return BURY;
    if (!strcmp(s, "bury2")) return BURY2;
    if (!strcmp(s, "roll")) return ROLL;
    if (!strcmp(s, "cap")) return CAP;
    if (!strcmp(s, "roll2")) return ROLL2;
    fprintf(stderr, "royal_cotillion_bounds: unknown bound %s\n", s);
    exit(2);
}

int main(int argc, char **argv) {
    for (int c = 0; c < 52; c++) {
        int r = c % 13, s = c / 13;
        pos_of[c][0] = r % 2 == 0 ? r / 2 : 7 + (r - 1) / 2;
        pos_of[c][1] = r % 2 ? (r - 1) / 2 : 6 + r / 2;
        seqc[s][pos_of[c][0]] = c;
        seqc[4 + s][pos_of[c][1]] = c;
    }
    unsigned long long n;
    Pos root;
    if (argc == 3 && !strcmp(argv[1], "check")) {
        int bound = parse_bound(argv[2]);
        while (read_deal(&n, &root)) {
            int cnt, claims = 0, x;
            if (scanf("%d", &cnt) != 1) return 2;
            for (int q = 0; q < cnt; q++) {
                Pos p;
                memset(&p, 0, sizeof p);
                for (int k = 0; k < NRES; k++) p.res[k] = -1;
                int ok = 1;
                for (int f = 0; f < 8; f++) { ok &= scanf("%d", &x) == 1; p.h[f] = (uint8_t)x; p.placed += (uint8_t)x; }
                for (int l = 0; l < 4; l++) { ok &= scanf("%d", &x) == 1; p.lh[l] = (uint8_t)x; }
                ok &= scanf("%d", &x) == 1; p.si = (uint8_t)x;
                ok &= scanf("%d", &x) == 1; p.wn = (uint8_t)x;
                for (int w = 0; w < p.wn; w++) { ok &= scanf("%d", &x) == 1; p.waste[w] = (int8_t)x; }
                int nr = 0;
                ok &= scanf("%d", &nr) == 1;
                for (int r = 0; r < nr; r++) { ok &= scanf("%d", &x) == 1; p.res[r] = (int8_t)x; }
                if (!ok) { fprintf(stderr, "royal_cotillion_bounds: bad position\n"); return 2; }
                claims += lost(&p, bound);
            }
            printf("%llu positions=%d lost_claims=%d\n", n, cnt, claims);
            fflush(stdout);
        }
        return 0;
    }
    if (argc >= 5 && argc <= 7 && !strcmp(argv[1], "dfs")) {
        int restarts = argc >= 6 ? atoi(argv[5]) : 1;
        int first = argc == 7 ? atoi(argv[6]) : 0; /* (the first restart's number) */
        bound_kind = parse_bound(argv[2]);
        max_nodes = atol(argv[3]);
        tmask = (1ull << atoi(argv[4])) - 1;
        tab = calloc(tmask + 1, sizeof(Key));
        if (!tab) { fprintf(stderr, "royal_cotillion_bounds: out of memory\n"); return 1; }
        while (read_deal(&n, &root)) {
            int won = 0, exhausted = 0, tries = 0;
            long all_nodes = 0;
            for (int r = first; r < first + restarts && !won && !exhausted; r++) {
                memset(tab, 0, (tmask + 1) * sizeof(Key));
                tfill = 0; nodes = 0; pruned = 0; over = 0; depth = 0;
                randomize = r > 0;
                rng_state = n * 1000003ull + (uint64_t)r * 7919ull + 1;
                won = dfs(&root);
                all_nodes += nodes;
                tries++;
                if (!won && !over && r == 0) exhausted = 1;
            }
            nodes = all_nodes;
            printf("%llu %s nodes=%ld pruned=%ld tries=%d", n, won ? "won" : exhausted ? "lost" : "limit",
                   nodes, pruned, tries);
            if (won)
                for (int d = 0; d < depth; d++) printf("%s%d", d ? "," : " line=", line[d]);
            printf("\n");
            fflush(stdout);
        }
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "beam")) {
        score_kind = parse_bound(argv[2]);
        int width = atoi(argv[3]);
        max_nodes = atol(argv[4]);
        tmask = (1ull << atoi(argv[5])) - 1;
        tab = calloc(tmask + 1, sizeof(Key));
        max_steps = (long)(tmask * 7 / 10) + 1;
        steps = malloc(sizeof(Step) * (size_t)max_steps);
        if (!tab || !steps) { fprintf(stderr, "royal_cotillion_bounds: out of memory\n"); return 1; }
        while (read_deal(&n, &root)) {
            memset(tab, 0, (tmask + 1) * sizeof(Key));
            tfill = 0; nodes = 0; depth = 0;
            int won = beam(&root, width);
            printf("%llu %s nodes=%ld", n, won ? "won" : "limit", nodes);
            if (won)
                for (int d = 0; d < depth; d++) printf("%s%d", d ? "," : " line=", line[d]);
            printf("\n");
            fflush(stdout);
        }
        return 0;
    }
    fprintf(stderr, "usage: royal_cotillion_bounds check BOUND | dfs BOUND STATES LOG2TABLE [RESTARTS [FIRST]] | beam SCORE WIDTH STATES LOG2TABLE\n");
    return 2;
}
