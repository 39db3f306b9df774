/* The pruned exact search of the reserve games in C: ReserveExact.run (reserve.py), the
   same search position for position.

   The Python search (ReserveExact in reserve.py) is the reference and its text the
   argument (the bound and why it is sound); this file does what it does, in the same
   order, so that both visit the same positions, prune the same ones and find the same
   line (tests/test_solver_reserve_exact.py checks it):

   - a position is ReserveBeam's: the foundations' heights, the left piles' heights, the
     stock cards drawn, the waste (its cards in order) and the reserve (sorted); no redeal
     is left, so the pass is always the first;
   - children(): ReserveBeam.children's moves in its order: the waste's top, the reserve's
     cards (one of two alike copies), the left piles' tops, each to each foundation it
     fits, then a draw; a play from the reserve refills it from the waste's top, else from
     the stock;
   - the key: two positions are the same when their heights, cards drawn and waste are
     (ReserveBeam's _key; the reserve then follows: it holds every card not elsewhere).
     The waste is kept in the key as the first places of the cards dealt to it (the
     root's waste, then the stock in order) that spell it, one bit a place: two wastes
     are the same cards in the same order exactly when those bits are;
   - lost(): ReserveExact.lost: the left piles' cards shared out among the foundations'
     places (ReserveBeam.crossed, by dead_ends.shared_out's search: the same answer),
     then the same relaxed game played the same way (per suit a 14 x 14 grid of reachable
     pairs of heights grown from the points where a card was freed);
   - the search: depth first, a position's children in order; a child that wins (every
     card on a foundation, not by a draw) ends it; a child seen before is skipped, a new
     one counted, the budget check called every 1,024 positions counted (as
     Limits.check), then pruned when lost() says so, else searched.

   With bury 1 (ReserveExact's _bury, for ReserveRestarts) lost() plays the relaxed game
   that buries the card it drew when it draws again with nothing credited between; with
   bury 2 it also buries the last card its credits brought out of the waste when it draws
   after them (neither sound: a finder of wins only); with a seed >= 0 each position's plays are tried in an
   order shuffled by a xorshift generator, the draw first one time in four (_order).

   search(model, root, one_copy, bury, seed, check)
       -> (won, nodes, kept, pruned, max_depth, path, limit)
     model: (sequences, left_cards, bounded, pairs, place_a, place_b) as ReserveExact
     holds them (bytes each; pairs as 8 bytes, a suit's two foundations); root: a
     ReserveBeam position with no redeal used. won: True (path: the compact moves),
     False (every position searched: no line wins), None (limit: the name check(nodes)
     returned, or "memory" when the table could not grow). OverflowError when the
     position is larger than this file handles (the caller then runs the Python search).

   rollout_beam(model, root, width, left_last, nodes, check)
       -> (won, pruned, nodes, kept, max_depth, path, limit)
     one pass of ReserveRollout (reserve.py, the reference; the same positions, scores
     and line): level by level the children of the positions kept, each once a level and
     none crossed, scored by the greedy rollout (left_last: the left piles after the
     reserve), the `width` best kept (ties: the first found); nodes counts on from
     `nodes`; pruned: some position was left out; kept: the most children of a level.

   Built by tools/build_fast.py (target reserve_native) with Python's own compiler and
   flags; patiencekit.compiled.native_module loads it only when its SOURCE_SHA256 is this
   file's.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef PK_SOURCE_SHA256
#define PK_SOURCE_SHA256 "unknown"
#endif

#define MAXF 8       /* foundations */
#define MAXSEQ 15    /* cards of one foundation */
#define MAXLEFT 4    /* left piles */
#define MAXLH 15     /* cards of one left pile */
#define MAXSLOTS 128 /* the root's waste and stock together */
#define MAXRES 64    /* reserve cards */
#define MAXPLACES 4  /* places of one card on the foundations */
#define MAXDEPTH 1024
/* a suit's points to grow from, at most: each point set once (196), and each card freed
   once (the waste, the stock, the left piles) pushing at most 28 */
#define MAXTODO (196 + 28 * (MAXSLOTS + MAXLEFT * MAXLH + MAXRES + 8))

#define DRAW (-1)
#define K_WASTE 1
#define K_RESERVE 2
#define K_LEFT 3

typedef struct {
    uint8_t hs[MAXF], lh[MAXLEFT];
    int drawn, wn, rn, placed;
    uint8_t waste[MAXSLOTS];
    uint8_t res[MAXRES];
} Pos;

typedef struct { uint64_t a, b, c; } Key;

typedef struct {
    /* the model */
    int nf, nleft, n, w0, total, bounded, one;
    uint8_t seq[MAXF][MAXSEQ];
    int seqlen[MAXF];
    uint8_t left[MAXLEFT][MAXLH];
    uint8_t stream[MAXSLOTS];
    uint8_t slot[MAXSLOTS]; /* the root's waste, then the stock */
    int nplaces[52];
    uint8_t place_f[52][MAXPLACES], place_k[52][MAXPLACES];
    int pair_a[4], pair_b[4];
    uint8_t place_a[52], place_b[52];
    /* the table of positions seen */
    Key *table;
    uint64_t mask, fill;
    /* the search */
    long long nodes, pruned;
    int max_depth, depth, path_len;
    int path[MAXDEPTH];
    PyObject *check, *limit;
    int oom;
    /* the finder's knobs (ReserveExact._bury, ._seed: rng is its generator, 0 if none) */
    int bury;
    uint64_t rng;
    /* lost()'s work space */
    int todo[4][MAXTODO];
    int ntodo[4];
} Search;

/* ---- the table --------------------------------------------------------------------- */

static Key key_of(const Search *s, const Pos *p) {
    Key k = {1ull << 63, 0, 0};
    for (int f = 0; f < s->nf; f++) k.a |= (uint64_t)p->hs[f] << (4 * f);
    for (int q = 0; q < s->nleft; q++) k.a |= (uint64_t)p->lh[q] << (32 + 4 * q);
    k.a |= (uint64_t)p->drawn << 48;
    /* the waste as the first places that spell it */
    int x = 0, end = s->w0 + p->drawn;
    for (int i = 0; i < p->wn; i++) {
        while (x < end && s->slot[x] != p->waste[i]) x++;
        /* (x < end: the waste is the dealt cards less some) */
        if (x < 64) k.b |= 1ull << x; else k.c |= 1ull << (x - 64);
        x++;
    }
    return k;
}

static inline uint64_t hash_key(Key k) {
    uint64_t h = k.a * 0x9E3779B97F4A7C15ull ^ k.b * 0xC2B2AE3D27D4EB4Full ^ k.c * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static int grow(Search *s) {
    uint64_t size = (s->mask + 1) * 2;
    Key *t = calloc(size, sizeof(Key));
    if (!t) return -1;
    for (uint64_t i = 0; i <= s->mask; i++) {
        Key k = s->table[i];
        if (!k.a) continue;
        uint64_t j = hash_key(k) & (size - 1);
        while (t[j].a) j = (j + 1) & (size - 1);
        t[j] = k;
    }
    free(s->table);
    s->table = t;
    s->mask = size - 1;
    return 0;
}

/* 1 seen before, 0 added, -1 out of memory */
static int insert(Search *s, Key k) {
    if ((s->fill + 1) * 10 > (s->mask + 1) * 7 && grow(s)) return -1;
    for (uint64_t i = hash_key(k) & s->mask;; i = (i + 1) & s->mask) {
        Key *e = &s->table[i];
        if (!e->a) { *e = k; s->fill++; return 0; }
        if (e->a == k.a && e->b == k.b && e->c == k.c) return 1;
    }
}

/* ---- the bound (ReserveExact.lost) -------------------------------------------------- */

static void free_card(Search *s, int c, int *freec, uint8_t reach[4][196]) {
    freec[c]++;
    int su = c / 13, a = s->place_a[c], b = s->place_b[c];
    uint8_t *grid = reach[su];
    int *stack = s->todo[su];
    for (int y = 0; y < 14; y++) {
        if (grid[a * 14 + y]) stack[s->ntodo[su]++] = a * 14 + y;
        if (grid[y * 14 + b]) stack[s->ntodo[su]++] = y * 14 + b;
    }
}

/* ---- the left piles shared out (ReserveBeam.crossed, dead_ends.shared_out) --------- */

#define MAXCROSS 16 /* dead_ends.MAX_CROSSED */

typedef struct {
    int n, nopt[MAXCROSS], above[MAXCROSS], cf[MAXCROSS], ck[MAXCROSS];
    uint8_t of[MAXCROSS][MAXPLACES], ok[MAXCROSS][MAXPLACES];
} Cross;

/* whether cards i.. can each take a place of its own with no cycle in "before" (the card
   above first, on one foundation the lower place first); reach[j]: the cards after j */
static int share(Cross *x, int i, const uint32_t *reach) {
    if (i == x->n) return 1;
    uint32_t grown[MAXCROSS];
    for (int o = 0; o < x->nopt[i]; o++) {
        int f = x->of[i][o], k = x->ok[i][o], taken = 0;
        uint32_t before = x->above[i] >= 0 ? 1u << x->above[i] : 0, after = 0;
        for (int j = 0; j < i; j++) {
            if (x->cf[j] != f) continue;
            if (x->ck[j] == k) { taken = 1; break; } /* (a place takes one card) */
            if (x->ck[j] < k) before |= 1u << j;
            else after |= 1u << j;
        }
        if (taken) continue;
        uint32_t later = after;
        for (int j = 0; j < i; j++)
            if (after >> j & 1) later |= reach[j];
        if (later & before) continue; /* (a cycle) */
        for (int j = 0; j < i; j++) {
            grown[j] = reach[j];
            if ((before >> j & 1) || (reach[j] & before)) grown[j] |= 1u << i | later;
        }
        grown[i] = later;
        x->cf[i] = f;
        x->ck[i] = k;
        if (share(x, i + 1, grown)) return 1;
    }
    x->cf[i] = -1;
    return 0;
}

/* ReserveBeam.crossed: the left piles' cards cannot be shared out (no line wins) */
static int crossed(const Search *s, const Pos *p) {
    Cross x;
    int n = 0;
    for (int q = 0; q < s->nleft; q++) {
        for (int d = p->lh[q] - 1; d >= 0; d--) {
            int c = s->left[q][d], m = 0;
            for (int i = 0; i < s->nplaces[c]; i++) {
                int f = s->place_f[c][i], k = s->place_k[c][i];
                if (k < p->hs[f]) continue;
                if (n < MAXCROSS) { x.of[n][m] = (uint8_t)f; x.ok[n][m] = (uint8_t)k; }
                m++;
            }
            if (!m) return 1; /* (no place left to it) */
            if (n < MAXCROSS) {
                x.nopt[n] = m;
                x.above[n] = d < p->lh[q] - 1 ? n - 1 : -1;
                x.cf[n] = -1;
            }
            n++;
        }
    }
    if (!n || n > MAXCROSS) return 0;
    x.n = n;
    uint32_t reach[MAXCROSS] = {0};
    return !share(&x, 0, reach);
}

static int lost(Search *s, const Pos *p) {
    if (crossed(s, p)) return 1;
    if (!s->bounded) return 0;
    int freec[52] = {0};
    for (int f = 0; f < s->nf; f++)
        for (int k = 0; k < p->hs[f]; k++) freec[s->seq[f][k]]++;
    for (int i = 0; i < p->rn; i++) freec[p->res[i]]++;
    int buried[2 * MAXSLOTS + 2], bn = 0, last = -1, popped = -1;
    for (int i = 0; i < p->wn; i++) buried[bn++] = p->waste[i];
    if (bn) freec[last = buried[--bn]]++;
    int heights[MAXLEFT];
    for (int q = 0; q < s->nleft; q++) {
        heights[q] = p->lh[q];
        if (heights[q]) freec[s->left[q][heights[q] - 1]]++;
    }
    uint8_t reach[4][196];
    int best[4], top_a[4], top_b[4];
    memset(reach, 0, sizeof reach);
    int credited = 0;
    for (int su = 0; su < 4; su++) {
        int a0 = p->hs[s->pair_a[su]], b0 = p->hs[s->pair_b[su]];
        reach[su][a0 * 14 + b0] = 1;
        best[su] = a0 + b0;
        top_a[su] = a0;
        top_b[su] = b0;
        s->todo[su][0] = a0 * 14 + b0;
        s->ntodo[su] = 1;
        credited += best[su];
    }
    int one = s->one, n = s->n, j = p->drawn;
    int freed[MAXSLOTS + MAXLEFT * MAXLH + 8];
    for (;;) {
        for (;;) {
            for (int su = 0; su < 4; su++) {
                int *stack = s->todo[su];
                uint8_t *grid = reach[su];
                const uint8_t *seq_a = s->seq[s->pair_a[su]], *seq_b = s->seq[s->pair_b[su]];
                while (s->ntodo[su]) {
                    int x = stack[--s->ntodo[su]];
                    int a = x / 14, b = x % 14;
                    if (a + b > best[su]) best[su] = a + b;
                    if (a > top_a[su]) top_a[su] = a;
                    if (b > top_b[su]) top_b[su] = b;
                    if (a < 13) {
                        int c = seq_a[a];
                        if (freec[c] >= (b > s->place_b[c] ? 2 : one) && !grid[x + 14]) {
                            grid[x + 14] = 1;
                            stack[s->ntodo[su]++] = x + 14;
                        }
                    }
                    if (b < 13) {
                        int c = seq_b[b];
                        if (freec[c] >= (a > s->place_a[c] ? 2 : one) && !grid[x + 1]) {
                            grid[x + 1] = 1;
                            stack[s->ntodo[su]++] = x + 1;
                        }
                    }
                }
            }
            int nfreed = 0;
            int total = best[0] + best[1] + best[2] + best[3];
            while (credited < total) {
                credited++;
                last = -1;
                popped = -1;
                if (bn) {
                    int x = buried[--bn];
                    popped = x;
                    if (x >= 0) freed[nfreed++] = x;
                } else if (j < n) {
                    freed[nfreed++] = s->stream[j++];
                }
            }
            for (int q = 0; q < s->nleft; q++) {
                while (heights[q]) {
                    int c = s->left[q][heights[q] - 1], su = c / 13;
                    if (top_a[su] <= s->place_a[c] && top_b[su] <= s->place_b[c]) break;
                    heights[q]--;
                    if (heights[q]) freed[nfreed++] = s->left[q][heights[q] - 1];
                }
            }
            if (!nfreed) break;
            for (int i = 0; i < nfreed; i++) free_card(s, freed[i], freec, reach);
        }
        if (reach[0][195] && reach[1][195] && reach[2][195] && reach[3][195]) return 0;
        if (j >= n) return 1;
        if (s->bury && last >= 0) {
            freec[last]--; /* (drawn, and nothing credited since: buried for real) */
            buried[bn++] = last;
        } else if (s->bury == 2 && popped >= 0) {
            freec[popped]--; /* (the waste's top after the credits: buried again) */
            buried[bn++] = popped;
        } else {
            buried[bn++] = -1; /* (the blank) */
        }
        popped = -1;
        last = s->stream[j];
        free_card(s, s->stream[j++], freec, reach);
    }
}

/* ---- the search (ReserveExact.run) -------------------------------------------------- */

/* the reserve without its card i, with card c added (c < 0: none), still sorted */
static void reserve_swap(Pos *q, int i, int c) {
    memmove(q->res + i, q->res + i + 1, (size_t)(q->rn - i - 1));
    q->rn--;
    if (c < 0) return;
    int k = 0;
    while (k < q->rn && q->res[k] < c) k++;
    memmove(q->res + k + 1, q->res + k, (size_t)(q->rn - k));
    q->res[k] = (uint8_t)c;
    q->rn++;
}

static int dfs(Search *s, const Pos *p);

/* one more position counted, the budget check called every 1,024 (as Limits.check): 0 go
   on, -1 stop (s->limit holds the limit's name, or an error from Python is set) */
static int count_node(Search *s) {
    s->nodes++;
    if (s->nodes & 1023) return 0;
    PyObject *res = PyObject_CallFunction(s->check, "L", s->nodes);
    if (!res) return -1;
    if (res != Py_None) { s->limit = res; return -1; }
    Py_DECREF(res);
    return 0;
}

/* one child of the position being searched: 1 won, -1 stop (a limit, out of memory),
   else 0 (go on with the next child) */
static int visit(Search *s, const Pos *q, int move) {
    if (move != DRAW && q->placed == s->total) {
        s->path[s->depth] = move;
        s->path_len = s->depth + 1;
        return 1;
    }
    int r = insert(s, key_of(s, q));
    if (r < 0) { s->oom = 1; return -1; }
    if (r) return 0;
    if (count_node(s)) return -1;
    if (lost(s, q)) { s->pruned++; return 0; }
    if (s->depth >= MAXDEPTH) {
        PyErr_SetString(PyExc_OverflowError, "reserve_native: a line of over 1,024 moves");
        return -1;
    }
    s->path[s->depth++] = move;
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    r = dfs(s, q);
    if (r) return r;
    s->depth--;
    return 0;
}

/* a child of a position: a play of card c from `kind` (the waste's top, reserve place j,
   left pile `pile`) to foundation f, or a draw (kind DRAW) */
typedef struct { int8_t kind; uint8_t c, j, pile, f; } Child;
#define MAXCHILD ((1 + MAXRES + MAXLEFT) * MAXPLACES + 1)

static int gather_card(Search *s, const Pos *p, int c, int kind, int j, int pile, Child *out, int n) {
    for (int i = 0; i < s->nplaces[c]; i++) {
        int f = s->place_f[c][i];
        if (p->hs[f] != s->place_k[c][i]) continue;
        Child ch = {(int8_t)kind, (uint8_t)c, (uint8_t)j, (uint8_t)pile, (uint8_t)f};
        out[n++] = ch;
    }
    return n;
}

/* the children in ReserveBeam.children's order */
static int gather(Search *s, const Pos *p, Child *out) {
    int n = 0;
    if (p->wn) n = gather_card(s, p, p->waste[p->wn - 1], K_WASTE, 0, 0, out, n);
    int last = -1;
    for (int j = 0; j < p->rn; j++) {
        int c = p->res[j];
        if (c == last) continue; /* (alike copies: one play) */
        last = c;
        n = gather_card(s, p, c, K_RESERVE, j, 0, out, n);
    }
    for (int pile = 0; pile < s->nleft; pile++)
        if (p->lh[pile]) n = gather_card(s, p, s->left[pile][p->lh[pile] - 1], K_LEFT, 0, pile, out, n);
    if (p->drawn < s->n) {
        Child ch = {DRAW, 0, 0, 0, 0};
        out[n++] = ch;
    }
    return n;
}

static uint32_t rnd(Search *s) {
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s->rng = x;
    return (uint32_t)(x >> 11);
}

/* ReserveExact._order: the plays shuffled (Fisher-Yates from the last), then the draw
   first when the generator says 0 of 4, else last */
static void order(Search *s, Child *ch, int n) {
    int draw = n && ch[n - 1].kind == DRAW;
    int np = n - draw;
    for (int k = np - 1; k > 0; k--) {
        int q = (int)(rnd(s) % (uint32_t)(k + 1));
        Child t = ch[k];
        ch[k] = ch[q];
        ch[q] = t;
    }
    if (draw && rnd(s) % 4 == 0) {
        Child d = ch[n - 1];
        memmove(ch + 1, ch, (size_t)np * sizeof(Child));
        ch[0] = d;
    }
}

/* the position child ch of p makes, into q; its compact move */
static int apply_child(const Search *s, const Pos *p, const Child *ch, Pos *q) {
    *q = *p;
    if (ch->kind == DRAW) {
        q->waste[q->wn++] = s->stream[q->drawn++];
        return DRAW;
    }
    int kind = ch->kind, c = ch->c, f = ch->f;
    q->hs[f]++;
    q->placed++;
    if (kind == K_WASTE) q->wn--;
    else if (kind == K_LEFT) q->lh[ch->pile]--;
    else if (q->wn) reserve_swap(q, ch->j, q->waste[--q->wn]);
    else if (q->drawn < s->n) reserve_swap(q, ch->j, s->stream[q->drawn++]);
    else reserve_swap(q, ch->j, -1);
    return kind | c << 4 | f << 10 | (kind == K_LEFT ? ch->pile << 14 : 0);
}

static int dfs(Search *s, const Pos *p) {
    Child ch[MAXCHILD];
    int n = gather(s, p, ch), r;
    if (s->rng) order(s, ch, n);
    for (int i = 0; i < n; i++) {
        Pos q;
        int move = apply_child(s, p, &ch[i], &q);
        if ((r = visit(s, &q, move))) return r;
    }
    return 0;
}

/* ---- the call ---------------------------------------------------------------------- */

static int too_big(const char *what) {
    PyErr_Format(PyExc_OverflowError, "reserve_native: %s", what);
    return -1;
}

/* bytes item i of a tuple (a borrowed reference) or NULL with an error */
static PyObject *bytes_item(PyObject *tuple, Py_ssize_t i) {
    PyObject *x = PyTuple_GetItem(tuple, i);
    if (x && !PyBytes_Check(x)) {
        PyErr_Format(PyExc_TypeError, "reserve_native: item %zd is not bytes", i);
        return NULL;
    }
    return x;
}

static int set_model(Search *s, PyObject *model, PyObject *root) {
    PyObject *seqs, *lefts, *pairs, *pa, *pb;
    int bounded;
    if (!PyArg_ParseTuple(model, "O!O!pSSS", &PyTuple_Type, &seqs, &PyTuple_Type, &lefts,
                          &bounded, &pairs, &pa, &pb))
        return -1;
    s->bounded = bounded;
    s->nf = (int)PyTuple_GET_SIZE(seqs);
    if (s->nf > MAXF) return too_big("too many foundations");
    s->total = 0;
    for (int f = 0; f < s->nf; f++) {
        PyObject *q = bytes_item(seqs, f);
        if (!q) return -1;
        Py_ssize_t len = PyBytes_GET_SIZE(q);
        if (len > MAXSEQ) return too_big("a foundation too long");
        s->seqlen[f] = (int)len;
        s->total += (int)len;
        for (Py_ssize_t k = 0; k < len; k++) {
            int c = (uint8_t)PyBytes_AS_STRING(q)[k];
            if (c >= 52) return too_big("a card out of range");
            if (s->nplaces[c] >= MAXPLACES) return too_big("a card with too many places");
            s->seq[f][k] = (uint8_t)c;
            s->place_f[c][s->nplaces[c]] = (uint8_t)f;
            s->place_k[c][s->nplaces[c]++] = (uint8_t)k;
        }
    }
    s->nleft = (int)PyTuple_GET_SIZE(lefts);
    if (s->nleft > MAXLEFT) return too_big("too many left piles");
    for (int q = 0; q < s->nleft; q++) {
        PyObject *x = bytes_item(lefts, q);
        if (!x) return -1;
        if (PyBytes_GET_SIZE(x) > MAXLH) return too_big("a left pile too high");
        memcpy(s->left[q], PyBytes_AS_STRING(x), (size_t)PyBytes_GET_SIZE(x));
    }
    if (s->bounded) {
        if (PyBytes_GET_SIZE(pairs) != 8 || PyBytes_GET_SIZE(pa) != 52 || PyBytes_GET_SIZE(pb) != 52) {
            PyErr_SetString(PyExc_ValueError, "reserve_native: pairs, place_a, place_b: 8, 52, 52 bytes");
            return -1;
        }
        for (int su = 0; su < 4; su++) {
            s->pair_a[su] = (uint8_t)PyBytes_AS_STRING(pairs)[2 * su];
            s->pair_b[su] = (uint8_t)PyBytes_AS_STRING(pairs)[2 * su + 1];
            if (s->pair_a[su] >= s->nf || s->pair_b[su] >= s->nf)
                return too_big("a pair's foundation out of range");
        }
        memcpy(s->place_a, PyBytes_AS_STRING(pa), 52);
        memcpy(s->place_b, PyBytes_AS_STRING(pb), 52);
        for (int c = 0; c < 52; c++)
            if (s->place_a[c] > 13 || s->place_b[c] > 13) return too_big("a place out of range");
        for (int f = 0; f < s->nf; f++)
            if (s->seqlen[f] != 13) return too_big("a bounded foundation not of 13");
    }
    PyObject *stream, *waste, *reserve, *hs, *left;
    int used, drawn;
    if (!PyArg_ParseTuple(root, "iSiSSSS", &used, &stream, &drawn, &waste, &reserve, &hs, &left))
        return -1;
    if (used) return too_big("a redeal used");
    s->n = (int)PyBytes_GET_SIZE(stream);
    s->w0 = (int)PyBytes_GET_SIZE(waste);
    if (s->n + s->w0 > MAXSLOTS || drawn > s->n || drawn > 255) return too_big("too many cards to deal");
    /* (the root's waste is dealt before this pass's stock: no drawn card is on it) */
    if (drawn) return too_big("the root has drawn cards");
    if (PyBytes_GET_SIZE(reserve) > MAXRES) return too_big("too many reserve cards");
    if (PyBytes_GET_SIZE(hs) != s->nf || PyBytes_GET_SIZE(left) != s->nleft)
        return too_big("heights unlike the model");
    memcpy(s->stream, PyBytes_AS_STRING(stream), (size_t)s->n);
    memcpy(s->slot, PyBytes_AS_STRING(waste), (size_t)s->w0);
    memcpy(s->slot + s->w0, s->stream, (size_t)s->n);
    return 0;
}

/* the root's position (set_model checked its sizes); -1 with an error */
static int root_pos(const Search *s, PyObject *root, Pos *p) {
    memset(p, 0, sizeof *p);
    PyObject *waste = PyTuple_GET_ITEM(root, 3), *reserve = PyTuple_GET_ITEM(root, 4);
    PyObject *hs = PyTuple_GET_ITEM(root, 5), *left = PyTuple_GET_ITEM(root, 6);
    p->wn = (int)PyBytes_GET_SIZE(waste);
    memcpy(p->waste, PyBytes_AS_STRING(waste), (size_t)p->wn);
    p->rn = (int)PyBytes_GET_SIZE(reserve);
    memcpy(p->res, PyBytes_AS_STRING(reserve), (size_t)p->rn);
    for (int f = 0; f < s->nf; f++) {
        p->hs[f] = (uint8_t)PyBytes_AS_STRING(hs)[f];
        if (p->hs[f] > s->seqlen[f]) return too_big("a height past its foundation");
        p->placed += p->hs[f];
    }
    for (int q = 0; q < s->nleft; q++) p->lh[q] = (uint8_t)PyBytes_AS_STRING(left)[q];
    for (int i = 0; i < p->rn; i++)
        if (p->res[i] >= 52 || (i && p->res[i] < p->res[i - 1])) return too_big("a reserve not sorted");
    return 0;
}

/* a finished search's line (a list of compact moves when r > 0, else None) and limit (the
   name check returned, "memory", or None), new references; -1 with an error */
static int result_parts(Search *s, int r, PyObject **path, PyObject **limit) {
    if (r > 0) {
        *path = PyList_New(s->path_len);
        if (!*path) return -1;
        for (int i = 0; i < s->path_len; i++) PyList_SET_ITEM(*path, i, PyLong_FromLong(s->path[i]));
    } else {
        *path = Py_None;
        Py_INCREF(Py_None);
    }
    *limit = s->limit ? s->limit : s->oom ? PyUnicode_FromString("memory") : (Py_INCREF(Py_None), Py_None);
    s->limit = NULL;
    if (!*limit) {
        Py_DECREF(*path);
        return -1;
    }
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *model, *root, *check;
    int one, bury;
    long long seed;
    if (!PyArg_ParseTuple(args, "O!O!iiLO", &PyTuple_Type, &model, &PyTuple_Type, &root, &one,
                          &bury, &seed, &check))
        return NULL;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (set_model(s, model, root)) goto done;
    s->one = one;
    s->bury = bury;
    s->rng = seed >= 0 ? (uint64_t)seed * 1000003u + 1u : 0;
    s->check = check;
    Pos p;
    if (root_pos(s, root, &p)) goto done;
    s->mask = (1u << 16) - 1;
    s->table = calloc(s->mask + 1, sizeof(Key));
    if (!s->table) { PyErr_NoMemory(); goto done; }
    insert(s, key_of(s, &p));
    int r = dfs(s, &p);
    if (r < 0 && !s->oom && !s->limit) goto done; /* (an error from Python, or too deep) */
    PyObject *won = r > 0 ? Py_True : r == 0 ? Py_False : Py_None, *path, *limit;
    if (result_parts(s, r, &path, &limit)) goto done;
    out = Py_BuildValue("(OLLLiOO)", won, s->nodes, (long long)s->fill, s->pruned, s->max_depth, path, limit);
    Py_DECREF(path);
    Py_DECREF(limit);
done:
    Py_XDECREF(s->limit);
    free(s->table);
    free(s);
    return out;
}

/* ---- the rollout beam (ReserveRollout._pass) ---------------------------------------- */

/* the first foundation among card c's places that takes it in p, or -1 */
static int first_fit(const Search *s, const Pos *p, int c) {
    for (int i = 0; i < s->nplaces[c]; i++)
        if (p->hs[s->place_f[c][i]] == s->place_k[c][i]) return s->place_f[c][i];
    return -1;
}

/* ReserveRollout.rollout: the cards placed at the end of the greedy line from p */
static int rollout(const Search *s, const Pos *p0, int left_last) {
    Pos p = *p0;
    for (;;) {
        int f = -1;
        for (int step = 0; step < 3 && f < 0; step++) {
            int what = left_last ? (step + 1) % 3 : step; /* 0 left piles, 1 waste, 2 reserve */
            if (what == 0) {
                for (int q = 0; q < s->nleft && f < 0; q++)
                    if (p.lh[q] && (f = first_fit(s, &p, s->left[q][p.lh[q] - 1])) >= 0) p.lh[q]--;
            } else if (what == 1) {
                if (p.wn && (f = first_fit(s, &p, p.waste[p.wn - 1])) >= 0) p.wn--;
            } else {
                for (int j = 0; j < p.rn && f < 0; j++) {
                    if ((f = first_fit(s, &p, p.res[j])) < 0) continue;
                    if (p.wn) p.res[j] = p.waste[--p.wn];
                    else if (p.drawn < s->n) p.res[j] = s->stream[p.drawn++];
                    else { memmove(p.res + j, p.res + j + 1, (size_t)(p.rn - j - 1)); p.rn--; }
                }
            }
        }
        if (f >= 0) { p.hs[f]++; p.placed++; continue; }
        if (p.drawn >= s->n) return p.placed;
        p.waste[p.wn++] = s->stream[p.drawn++];
    }
}

typedef struct { int score, idx, from; Child ch; } Cand;

static int cand_order(const void *x, const void *y) {
    const Cand *a = x, *b = y;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

typedef struct { int parent, move; } Step;

/* grows *buf (of *cap items of size each) to hold need items; -1 out of memory */
static int reserve_room(void **buf, size_t *cap, size_t need, size_t each) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *t = realloc(*buf, c * each);
    if (!t) return -1;
    *buf = t;
    *cap = c;
    return 0;
}

/* one pass: 1 won (s->path), 0 not (*pruned: a position was left out), -1 stop */
static int rollout_pass(Search *s, const Pos *root, int width, int left_last, int *pruned,
                        long long *kept) {
    Pos *cur = malloc(sizeof(Pos) * (size_t)width), *nxt = malloc(sizeof(Pos) * (size_t)width);
    int *cur_step = malloc(sizeof(int) * (size_t)width), *nxt_step = malloc(sizeof(int) * (size_t)width);
    Cand *cands = NULL;
    Step *steps = NULL;
    size_t ccap = 0, scap = 0, nsteps = 0;
    int r = 0, ncur = 1, depth = 0;
    if (!cur || !nxt || !cur_step || !nxt_step) { s->oom = 1; r = -1; goto out; }
    cur[0] = *root;
    cur_step[0] = -1;
    *pruned = 0;
    while (ncur) {
        size_t ncand = 0;
        memset(s->table, 0, (s->mask + 1) * sizeof(Key));
        s->fill = 0;
        for (int i = 0; i < ncur; i++) {
            if (count_node(s)) { r = -1; goto out; }
            Child ch[MAXCHILD];
            int n = gather(s, &cur[i], ch);
            for (int j = 0; j < n; j++) {
                Pos q;
                int move = apply_child(s, &cur[i], &ch[j], &q);
                if (move != DRAW && q.placed == s->total) {
                    int len = 1;
                    for (int k = cur_step[i]; k >= 0; k = steps[k].parent) len++;
                    if (len > MAXDEPTH) {
                        PyErr_SetString(PyExc_OverflowError, "reserve_native: a line of over 1,024 moves");
                        r = -1;
                        goto out;
                    }
                    s->path_len = len;
                    s->path[--len] = move;
                    for (int k = cur_step[i]; k >= 0; k = steps[k].parent) s->path[--len] = steps[k].move;
                    r = 1;
                    goto out;
                }
                int seen = insert(s, key_of(s, &q));
                if (seen < 0) { s->oom = 1; r = -1; goto out; }
                if (seen || crossed(s, &q)) continue; /* (crossed: lost) */
                if (reserve_room((void **)&cands, &ccap, ncand + 1, sizeof(Cand))) { s->oom = 1; r = -1; goto out; }
                Cand c = {rollout(s, &q, left_last), (int)ncand, i, ch[j]};
                cands[ncand++] = c;
            }
        }
        if ((long long)ncand > *kept) *kept = (long long)ncand;
        if (ncand > (size_t)width) *pruned = 1;
        qsort(cands, ncand, sizeof(Cand), cand_order);
        int m = ncand < (size_t)width ? (int)ncand : width;
        if (reserve_room((void **)&steps, &scap, nsteps + (size_t)m, sizeof(Step))) { s->oom = 1; r = -1; goto out; }
        for (int k = 0; k < m; k++) {
            int from = cands[k].from;
            int move = apply_child(s, &cur[from], &cands[k].ch, &nxt[k]);
            steps[nsteps].parent = cur_step[from];
            steps[nsteps].move = move;
            nxt_step[k] = (int)nsteps++;
        }
        Pos *t = cur; cur = nxt; nxt = t;
        int *ts = cur_step; cur_step = nxt_step; nxt_step = ts;
        ncur = m;
        if (m) {
            depth++;
            if (depth > s->max_depth) s->max_depth = depth;
        }
    }
out:
    free(cur); free(nxt); free(cur_step); free(nxt_step); free(cands); free(steps);
    return r;
}

static PyObject *rollout_beam(PyObject *self, PyObject *args) {
    PyObject *model, *root, *check;
    int width, left_last;
    long long nodes0;
    if (!PyArg_ParseTuple(args, "O!O!iiLO", &PyTuple_Type, &model, &PyTuple_Type, &root, &width,
                          &left_last, &nodes0, &check))
        return NULL;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "reserve_native: a width of at least 1");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (set_model(s, model, root)) goto done;
    s->check = check;
    s->nodes = nodes0;
    Pos p;
    if (root_pos(s, root, &p)) goto done;
    s->mask = (1u << 16) - 1;
    s->table = calloc(s->mask + 1, sizeof(Key));
    if (!s->table) { PyErr_NoMemory(); goto done; }
    int pruned = 0;
    long long kept = 0;
    int r = rollout_pass(s, &p, width, left_last, &pruned, &kept);
    if (r < 0 && !s->oom && !s->limit) goto done; /* (an error from Python, or too deep) */
    PyObject *path, *limit;
    if (result_parts(s, r, &path, &limit)) goto done;
    out = Py_BuildValue("(OOLLiOO)", r > 0 ? Py_True : Py_False, pruned ? Py_True : Py_False,
                        s->nodes, kept, s->max_depth, path, limit);
    Py_DECREF(path);
    Py_DECREF(limit);
done:
    Py_XDECREF(s->limit);
    free(s->table);
    free(s);
    return out;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(model, root, one_copy, bury, seed, check) -> (won, nodes, kept, pruned, max_depth, path, "
     "limit): ReserveExact.run's search from root (reserve_native.c's text)."},
    {"rollout_beam", rollout_beam, METH_VARARGS,
     "rollout_beam(model, root, width, left_last, nodes, check) -> (won, pruned, nodes, kept, "
     "max_depth, path, limit): one of ReserveRollout's passes from root (reserve_native.c's text)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "reserve_native",
    "The reserve games' pruned exact search in C (reserve_native.c).", -1, methods,
};

PyMODINIT_FUNC PyInit_reserve_native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", PK_SOURCE_SHA256)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
