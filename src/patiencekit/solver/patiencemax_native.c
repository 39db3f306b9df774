/* PatienceMax's best-first runs in C: the runs of PatienceMaxSearch (_Run in
   patiencemax.py), the same search position for position.

   The Python search (patiencemax.py) is the reference and its text the argument; this
   file does what it does, in the same order, so that both expand the same positions,
   draw the same tie-breaks and find the same line (tests/test_solver_patiencemax.py
   checks it):

   - a position is the same packed bytes (pack/unpack): eight foundation heights, the
     hand sorted, then the columns sorted, each after the separator 255;
   - children(): the same moves in the same order, each settled as _finish settles it
     (_settle's order: the first column whose last card is safe, else the first such
     hand card), with the same distance (_distance, column_cost, _need) and won test;
   - the run: a heap on (distance + G * moves, tie-break), the tie-breaks drawn from
     CPython's random.Random(seed).random() (the Mersenne Twister, seeded as CPython
     seeds it with a small integer), one draw per child pushed; a table of the positions
     seen; the budget check called every 1024 positions expanded, as Limits.check.

   start(root, kings, hand_size, seed, w_next, w_clear) -> run
     a run (a capsule), its first position pushed; kings: 0 all to the piles, 1 the
     kings at the column tops, 2 every card but the kings on the foundations (kings 1
     and 2: no king goes to a foundation; 2 with the estimate all to the piles)
   resume(run, end, nodes, check) -> (won, nodes, kept, max_depth, path, limit)
     the run goes on where it stopped (_Run.go) until `end` positions are expanded in all
     (`nodes` so far), however its room is cut up the same search. won: True (path: the
     moves from root, each source | destination << 4 | count << 8 | card << 16), False
     (every reachable position expanded), None (end reached, or limit: the name
     check(nodes) returned). Going on with a run that is over (won, every position
     expanded, out of memory) is an error.

   What the Python run does not have to do, it does for speed and room: a position is
   kept squeezed (squeeze/widen: 4 bits a height, 6 a card or separator, about a fifth
   fewer bytes), a node and a heap entry in 16 bytes each (the priority worked out again
   from the distance and depth, the tie-break as random()'s 53 bits), and a position's
   children have their table slots and the positions there fetched before they are
   looked up (the table is memory-bound). None of it changes which position comes next.

   Each run keeps its state in its own Run (S points at the one going, set again after
   each call back into Python, where another thread may run another one), so runs in
   several threads do not meet.

   Built by tools/build_fast.py (target patiencemax_native) with Python's own compiler
   and flags; patiencekit.compiled.native_module loads it only when its SOURCE_SHA256 is
   this file's.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef PK_SOURCE_SHA256
#define PK_SOURCE_SHA256 "unknown"
#endif

#define SEP 255
#define HAND 10
#define FOUNDATION 11
#define NCOLS 16   /* at most (PatienceMax has ten) */
#define CAP 104    /* cards in one column, at most */
#define MAXHAND 8
#define G 0.3
#define MAXPOS (8 + MAXHAND + NCOLS * (CAP + 1))

typedef struct {
    uint8_t h[8];
    uint8_t hand[MAXHAND + 1];
    int hn;
    uint8_t col[NCOLS][CAP];
    int len[NCOLS];
    int n;
} Pos;

/* a child: its bytes squeezed and as pack() gives them (a position is at most 255
   bytes: start() refuses a longer root, and a move never lengthens one) */
typedef struct {
    int move, won, len, wlen;
    uint64_t hash;    /* hash_bytes() of bytes */
    uint8_t bytes[256], wide[256];
} Child;

/* 16 bytes: the offset in the arena is off_lo | off_hi << 32 */
typedef struct {
    uint32_t off_lo;
    int32_t parent, move;
    uint16_t depth;
    uint8_t len, off_hi;
} Node;

static inline uint64_t node_off(const Node *n) { return (uint64_t)n->off_lo | (uint64_t)n->off_hi << 32; }

/* 16 bytes: the priority is d + G * depth, worked out as the Python run works it out (the
   same double); the tie-break is random()'s 53 bits as an integer (random() is it over
   2**53, so they order alike) */
typedef struct { uint64_t tie; int32_t node; int16_t d; uint16_t depth; } Entry;

/* One run's state: its rules, tie-breaks, positions seen and heap (see the text at the
   top). S is the run going; a run sets it when it starts or goes on and again after each
   call back into Python (another thread's run may have set it meanwhile). */
typedef struct {
    int kings, hand_size, w_next, w_clear;  /* kings: as start() takes it */
    uint32_t mt[624];       /* CPython's random.Random(seed) */
    int mti;
    Child *kids;            /* the children of the position being expanded */
    int nkids, cap_kids;
    uint8_t *arena;         /* the positions' bytes */
    uint64_t arena_used, arena_cap;
    Node *nodes;
    int64_t nnodes, cap_nodes;
    int32_t *table;         /* node + 1, 0 empty */
    uint64_t table_mask;
    Entry *heap;
    int64_t nheap, cap_heap;
    int max_depth;
    int going;              /* a call is running it now */
    int over;               /* won, or every position expanded, or out of memory */
} Run;

static Run *S;

/* ---- CPython's random.Random(seed).random() ---- */

static void mt_seed(uint32_t seed) {
    /* init_by_array with the one-word key {seed}, as random.seed(int) for 0 <= seed < 2**32 */
    S->mt[0] = 19650218u;
    for (int i = 1; i < 624; i++) S->mt[i] = 1812433253u * (S->mt[i - 1] ^ (S->mt[i - 1] >> 30)) + (uint32_t)i;
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        S->mt[i] = (S->mt[i] ^ ((S->mt[i - 1] ^ (S->mt[i - 1] >> 30)) * 1664525u)) + seed + (uint32_t)j;
        i++;
        j = 0;
        if (i >= 624) { S->mt[0] = S->mt[623]; i = 1; }
    }
    for (int k = 623; k; k--) {
        S->mt[i] = (S->mt[i] ^ ((S->mt[i - 1] ^ (S->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) { S->mt[0] = S->mt[623]; i = 1; }
    }
    S->mt[0] = 0x80000000u;
    S->mti = 624;
}

static uint32_t mt_next(void) {
    uint32_t y;
    if (S->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (S->mt[kk] & 0x80000000u) | (S->mt[kk + 1] & 0x7fffffffu);
            S->mt[kk] = S->mt[kk + 397] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        for (; kk < 623; kk++) {
            y = (S->mt[kk] & 0x80000000u) | (S->mt[kk + 1] & 0x7fffffffu);
            S->mt[kk] = S->mt[kk + (397 - 624)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        y = (S->mt[623] & 0x80000000u) | (S->mt[0] & 0x7fffffffu);
        S->mt[623] = S->mt[396] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        S->mti = 0;
    }
    y = S->mt[S->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random() * 2**53: CPython's random() is (a * 67108864.0 + b) / 2**53 */
static uint64_t mt_random53(void) {
    uint32_t a = mt_next() >> 5, b = mt_next() >> 6;
    return (uint64_t)a << 26 | b;
}

/* ---- positions ---- */

static int unpack(const uint8_t *b, Py_ssize_t len, Pos *p) {
    if (len < 8) return -1;
    memcpy(p->h, b, 8);
    Py_ssize_t i = 8;
    p->hn = 0;
    while (i < len && b[i] != SEP) {
        if (p->hn >= MAXHAND) return -1;
        p->hand[p->hn++] = b[i++];
    }
    p->n = 0;
    while (i < len) {  /* b[i] == SEP */
        if (p->n >= NCOLS) return -1;
        int c = p->n++;
        p->len[c] = 0;
        i++;
        while (i < len && b[i] != SEP) {
            if (p->len[c] >= CAP) return -1;
            p->col[c][p->len[c]++] = b[i++];
        }
    }
    return 0;
}

static int col_cmp(const Pos *p, int a, int b) {
    int la = p->len[a], lb = p->len[b];
    int m = memcmp(p->col[a], p->col[b], (size_t)(la < lb ? la : lb));
    if (m) return m;
    return la - lb;
}

/* pack(): the heights, the hand sorted, the columns sorted; returns the length */
static int pack(const Pos *p, uint8_t *out) {
    int k = 0;
    memcpy(out, p->h, 8);
    k = 8;
    uint8_t hand[MAXHAND + 1];
    int hn = p->hn;
    memcpy(hand, p->hand, (size_t)hn);
    for (int i = 1; i < hn; i++) {
        uint8_t x = hand[i];
        int j = i - 1;
        while (j >= 0 && hand[j] > x) { hand[j + 1] = hand[j]; j--; }
        hand[j + 1] = x;
    }
    memcpy(out + k, hand, (size_t)hn);
    k += hn;
    /* sorted as col_cmp() sorts them: by their first eight bytes big-endian (0s after
       a shorter column's last card), col_cmp() itself where those are equal */
    int order[NCOLS];
    uint64_t key[NCOLS];
    for (int i = 0; i < p->n; i++) {
        uint64_t x = 0;
        int m = p->len[i] < 8 ? p->len[i] : 8;
        for (int j = 0; j < 8; j++) x = x << 8 | (j < m ? p->col[i][j] : 0u);
        key[i] = x;
    }
    for (int i = 0; i < p->n; i++) {
        int j = i - 1;
        while (j >= 0 && (key[order[j]] != key[i] ? key[order[j]] > key[i] : col_cmp(p, order[j], i) > 0)) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = i;
    }
    for (int i = 0; i < p->n; i++) {
        int c = order[i];
        out[k++] = SEP;
        memcpy(out + k, p->col[c], (size_t)p->len[c]);
        k += p->len[c];
    }
    return k;
}

/* squeeze(): the packed bytes, fewer of them, as the run keeps them: the eight heights
   (each below 16) two to a byte, then each later byte in 6 bits, high bits first (a card
   c as c + 1, the separator as 63; a 0 ends them): the same position gives the same
   squeezed bytes and two positions never the same ones. Returns the length. */
static uint8_t SYM[256];  /* a byte's 6-bit symbol: c + 1, the separator 63 (set at import) */

static int squeeze(const uint8_t *b, int len, uint8_t *out) {
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(b[2 * i] << 4 | b[2 * i + 1]);
    int k = 4, i = 8;
    for (; i + 8 <= len; i += 8) {  /* eight symbols to six bytes */
        uint64_t v = 0;
        for (int j = 0; j < 8; j++) v = v << 6 | SYM[b[i + j]];
        for (int j = 0; j < 6; j++) out[k + j] = (uint8_t)(v >> (40 - 8 * j));
        k += 6;
    }
    if (i < len) {  /* one to seven left, the last byte padded with 0s */
        uint64_t v = 0;
        int r = len - i;
        for (int j = 0; j < 8; j++) v = v << 6 | (j < r ? SYM[b[i + j]] : 0u);
        int nb = (6 * r + 7) / 8;
        for (int j = 0; j < nb; j++) out[k + j] = (uint8_t)(v >> (40 - 8 * j));
        k += nb;
    }
    return k;
}

/* widen(): squeeze() undone; returns the length */
static int widen(const uint8_t *z, int zlen, uint8_t *out) {
    for (int i = 0; i < 4; i++) { out[2 * i] = z[i] >> 4; out[2 * i + 1] = z[i] & 15; }
    int k = 8;
    for (int i = 4; i < zlen; i += 3) {
        uint32_t v = (uint32_t)z[i] << 16;
        if (i + 1 < zlen) v |= (uint32_t)z[i + 1] << 8;
        if (i + 2 < zlen) v |= z[i + 2];
        for (int j = 3; j >= 0; j--) {
            uint32_t sym = v >> (6 * j) & 63;
            if (!sym) return k;
            out[k++] = sym == 63 ? SEP : (uint8_t)(sym - 1);
        }
    }
    return k;
}

/* safe_cards(): as a bit set of the 52 cards */
static uint64_t safe_cards(const uint8_t *h) {
    uint64_t out = 0;
    int black_floor = h[0] < h[2] ? h[0] : h[2];
    int red_floor = h[4] < h[6] ? h[4] : h[6];
    for (int s = 0; s < 4; s++) {
        int floor = s < 2 ? red_floor : black_floor;
        for (int q = 0; q < 2; q++) {
            int r = h[2 * s + q];
            if (r > 12 || (r == 12 && S->kings)) continue;
            if (r <= 1 || floor >= r) out |= 1ull << (s * 13 + r);
        }
    }
    return out;
}

static void found(uint8_t *h, int card) {
    int s = card / 13, r = card % 13;
    if (h[2 * s] == r) {
        h[2 * s]++;
        if (h[2 * s] > h[2 * s + 1]) { uint8_t t = h[2 * s]; h[2 * s] = h[2 * s + 1]; h[2 * s + 1] = t; }
    } else {
        h[2 * s + 1]++;
    }
}

/* _settle(), in place */
static void settle(Pos *p) {
    uint64_t safe = safe_cards(p->h);
    while (safe) {
        int done = 0;
        for (int i = 0; i < p->n; i++) {
            int k = p->len[i];
            if (k && (safe >> p->col[i][k - 1] & 1)) {
                found(p->h, p->col[i][k - 1]);
                p->len[i]--;
                done = 1;
                break;
            }
        }
        if (!done) {
            for (int j = 0; j < p->hn; j++) {
                if (safe >> p->hand[j] & 1) {
                    found(p->h, p->hand[j]);
                    memmove(p->hand + j, p->hand + j + 1, (size_t)(p->hn - j - 1));
                    p->hn--;
                    done = 1;
                    break;
                }
            }
        }
        if (!done) break;
        safe = safe_cards(p->h);
    }
}

static int column_cost(const uint8_t *c, int n) {
    int cost = 0;
    if (S->kings == 1 && n && c[0] % 13 == 12) cost -= 8;
    int low[4] = {13, 13, 13, 13};
    for (int j = 0; j < n; j++) {
        int s = c[j] / 13, r = c[j] % 13;
        if (S->kings == 1 && r == 12) {
            if (j) cost += 3;
            continue;
        }
        int m = low[s];
        if (r < m) low[s] = r;
        else if (m < r) cost += 1;
    }
    return cost;
}

static int distance(const Pos *p) {
    const uint8_t *h = p->h;
    int on = 0;
    for (int i = 0; i < 8; i++) on += h[i];
    int d = S->kings == 1 ? (96 - on + 64) : 2 * (104 - on);
    for (int i = 0; i < p->n; i++)
        d += column_cost(p->col[i], p->len[i]);
    if (S->kings == 1 && S->w_clear) {
        int sizes[NCOLS], m = 0;
        for (int i = 0; i < p->n; i++)
            if (!p->len[i] || p->col[i][0] % 13 != 12) sizes[m++] = p->len[i];
        for (int i = 1; i < m; i++) {
            int x = sizes[i], j = i - 1;
            while (j >= 0 && sizes[j] > x) { sizes[j + 1] = sizes[j]; j--; }
            sizes[j + 1] = x;
        }
        int sum = 0;
        for (int i = 0; i < m - 2; i++) sum += sizes[i];
        d += S->w_clear * sum;
    }
    if (S->w_next) {
        uint8_t need[52];
        memset(need, 0, sizeof need);
        for (int s = 0; s < 4; s++)
            for (int q = 0; q < 2; q++) {
                int r = h[2 * s + q];
                if (r < 13) need[s * 13 + r]++;
            }
        int best[52], second[52];
        memset(best, 0, sizeof best);
        memset(second, 0, sizeof second);
        for (int i = 0; i < p->n; i++) {
            int n = p->len[i];
            for (int j = 0; j < n; j++) {
                int c = p->col[i][j];
                if (need[c]) {
                    int x = n - j, b = best[c];
                    if (b == 0 || x < b) { second[c] = b; best[c] = x; }
                    else if (second[c] == 0 || x < second[c]) second[c] = x;
                }
            }
        }
        for (int c = 0; c < 52; c++) {
            int k = need[c];
            if (k) {
                if (best[c]) d += S->w_next * (best[c] - 1);
                if (k == 2 && second[c]) d += S->w_next * (second[c] - 1);
            }
        }
    }
    return d + p->hn;
}

static int won_pos(const Pos *p) {
    if (S->kings == 1) {
        int k = 0;
        for (int i = 0; i < p->n; i++) if (p->len[i] && p->col[i][0] % 13 == 12) k++;
        return k == 8;
    }
    int on = 0;
    for (int i = 0; i < 8; i++) on += p->h[i];
    return on == (S->kings == 2 ? 96 : 104);
}

/* ---- children ---- */

/* *q = *p, copying only the cards there are */
static void copy_pos(Pos *q, const Pos *p) {
    memcpy(q->h, p->h, 8);
    memcpy(q->hand, p->hand, (size_t)p->hn);
    q->hn = p->hn;
    q->n = p->n;
    for (int i = 0; i < p->n; i++) {
        q->len[i] = p->len[i];
        memcpy(q->col[i], p->col[i], (size_t)p->len[i]);
    }
}


static int add_child(void) {
    if (S->nkids >= S->cap_kids) {
        int cap = S->cap_kids ? S->cap_kids * 2 : 64;
        Child *k = realloc(S->kids, (size_t)cap * sizeof(Child));
        if (!k) return -1;
        S->kids = k;
        S->cap_kids = cap;
    }
    return S->nkids++;
}

/* _finish(): settle when the foundations were raised or the exposed card is safe */
static int finish(Pos *q, int raised, int exposed, int move) {
    if (raised || (exposed >= 0 && (safe_cards(q->h) >> exposed & 1))) settle(q);
    int k = add_child();
    if (k < 0) return -1;
    Child *c = &S->kids[k];
    c->move = move;
    c->wlen = pack(q, c->wide);
    c->len = squeeze(c->wide, c->wlen, c->bytes);
    c->won = won_pos(q);
    return 0;
}

static int children(const Pos *p) {
    S->nkids = 0;
    int n = p->n;
    int runs[NCOLS];
    for (int i = 0; i < n; i++) {
        int k = p->len[i];
        runs[i] = 0;
        if (k) {
            int j = k - 1;
            while (j > 0) {
                int a = p->col[i][j - 1], b = p->col[i][j];
                if (a % 13 != b % 13 + 1 || (a >= 26) == (b >= 26)) break;
                j--;
            }
            runs[i] = k - j;
        }
    }
    int room = p->hn < S->hand_size;
    int empty = -1;
    for (int i = 0; i < n; i++) if (!p->len[i]) { empty = i; break; }
    Pos q;
    for (int i = 0; i < n; i++) {
        const uint8_t *src = p->col[i];
        int k = p->len[i];
        if (!k) continue;
        int last = src[k - 1], lr = last % 13;
        int below = k > 1 ? src[k - 2] : -1;
        int s = last / 13;
        if ((p->h[2 * s] == lr || p->h[2 * s + 1] == lr) && !(S->kings && lr == 12)) {
            copy_pos(&q, p);
            found(q.h, last);
            q.len[i] = k - 1;
            if (finish(&q, 1, below, i | FOUNDATION << 4 | 1 << 8 | last << 16)) return -1;
        }
        int run = runs[i];
        for (int j = 0; j < n; j++) {
            if (j == i || !p->len[j]) continue;
            int top = p->col[j][p->len[j] - 1];
            int cnt = top % 13 - lr;
            if (cnt < 1 || cnt > run) continue;
            int head = src[k - cnt];
            if ((head >= 26) == (top >= 26)) continue;
            if (p->len[j] + cnt > CAP) continue;
            copy_pos(&q, p);
            q.len[i] = k - cnt;
            memcpy(q.col[j] + q.len[j], src + k - cnt, (size_t)cnt);
            q.len[j] += cnt;
            int exposed = k > cnt ? src[k - cnt - 1] : -1;
            if (finish(&q, 0, exposed, i | j << 4 | cnt << 8 | head << 16)) return -1;
        }
        if (empty >= 0) {
            int cnt = 12 - lr + 1;
            if (cnt <= run && cnt < k) {
                copy_pos(&q, p);
                q.len[i] = k - cnt;
                memcpy(q.col[empty], src + k - cnt, (size_t)cnt);
                q.len[empty] = cnt;
                if (finish(&q, 0, src[k - cnt - 1], i | empty << 4 | cnt << 8 | src[k - cnt] << 16))
                    return -1;
            }
        }
        if (room) {
            copy_pos(&q, p);
            q.len[i] = k - 1;
            q.hand[q.hn++] = (uint8_t)last;
            if (finish(&q, 0, below, i | HAND << 4 | 1 << 8 | last << 16)) return -1;
        }
    }
    int prev = -1;
    for (int x = 0; x < p->hn; x++) {
        int card = p->hand[x];
        if (card == prev) continue;
        prev = card;
        int r = card % 13, s = card / 13;
        if ((p->h[2 * s] == r || p->h[2 * s + 1] == r) && !(S->kings && r == 12)) {
            copy_pos(&q, p);
            memmove(q.hand + x, q.hand + x + 1, (size_t)(q.hn - x - 1));
            q.hn--;
            found(q.h, card);
            if (finish(&q, 1, -1, HAND | FOUNDATION << 4 | 1 << 8 | card << 16)) return -1;
        }
        for (int j = 0; j < n; j++) {
            if (p->len[j]) {
                int top = p->col[j][p->len[j] - 1];
                if (top % 13 != r + 1 || (top >= 26) == (card >= 26)) continue;
                if (p->len[j] >= CAP) continue;
            } else if (r != 12) {
                continue;
            } else if (j != empty) {
                continue;
            }
            copy_pos(&q, p);
            memmove(q.hand + x, q.hand + x + 1, (size_t)(q.hn - x - 1));
            q.hn--;
            q.col[j][q.len[j]++] = (uint8_t)card;
            if (finish(&q, 0, -1, HAND | j << 4 | 1 << 8 | card << 16)) return -1;
        }
    }
    return 0;
}

/* ---- the run: the positions seen, the heap ---- */



/* two lanes of 8 bytes, each multiplied and mixed, so that the two chains overlap */
static uint64_t hash_bytes(const uint8_t *b, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)len, g = 0xD6E8FEB86659FD93ull;
    int i = 0;
    for (; i + 16 <= len; i += 16) {
        uint64_t w, v;
        memcpy(&w, b + i, 8);
        memcpy(&v, b + i + 8, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        g = (g ^ v) * 0x9FB21C651E98DF25ull;
        h ^= h >> 29;
        g ^= g >> 29;
    }
    if (i + 8 <= len) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
        i += 8;
    }
    uint64_t w = 0;
    memcpy(&w, b + i, (size_t)(len - i));
    h = (h ^ w ^ (g << 32 | g >> 32)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

static int grow_table(void) {
    uint64_t size = (S->table_mask + 1) * 2;
    int32_t *t = calloc(size, sizeof(int32_t));
    if (!t) return -1;
    for (uint64_t i = 0; i <= S->table_mask; i++) {
        int32_t x = S->table[i];
        if (!x) continue;
        Node *nd = &S->nodes[x - 1];
        uint64_t k = hash_bytes(S->arena + node_off(nd), nd->len) & (size - 1);
        while (t[k]) k = (k + 1) & (size - 1);
        t[k] = x;
    }
    free(S->table);
    S->table = t;
    S->table_mask = size - 1;
    return 0;
}

/* the slot of `b` (its hash `h`) in the table: found (1) or where it goes (0) */
static int lookup(const uint8_t *b, int len, uint64_t h, uint64_t *slot) {
    uint64_t k = h & S->table_mask;
    for (;; k = (k + 1) & S->table_mask) {
        int32_t x = S->table[k];
        if (!x) { *slot = k; return 0; }
        Node *nd = &S->nodes[x - 1];
        if (nd->len == len && memcmp(S->arena + node_off(nd), b, (size_t)len) == 0) { *slot = k; return 1; }
    }
}

static int64_t add_node(const uint8_t *b, int len, int parent, int move, int depth, uint64_t slot) {
    if (S->arena_used + (uint64_t)len > (1ull << 40) || S->nnodes >= INT32_MAX - 1) return -1;
    if (S->arena_used + (uint64_t)len > S->arena_cap) {
        uint64_t cap = S->arena_cap ? S->arena_cap * 2 : 1 << 20;
        while (cap < S->arena_used + (uint64_t)len) cap *= 2;
        uint8_t *a = realloc(S->arena, cap);
        if (!a) return -1;
        S->arena = a;
        S->arena_cap = cap;
    }
    if (S->nnodes >= S->cap_nodes) {
        int64_t cap = S->cap_nodes ? S->cap_nodes * 2 : 1 << 14;
        Node *nd = realloc(S->nodes, (size_t)cap * sizeof(Node));
        if (!nd) return -1;
        S->nodes = nd;
        S->cap_nodes = cap;
    }
    Node *nd = &S->nodes[S->nnodes];
    nd->off_lo = (uint32_t)S->arena_used;
    nd->off_hi = (uint8_t)(S->arena_used >> 32);
    nd->len = (uint8_t)len;
    nd->parent = parent;
    nd->move = move;
    nd->depth = (uint16_t)depth;
    memcpy(S->arena + S->arena_used, b, (size_t)len);
    S->arena_used += (uint64_t)len;
    S->table[slot] = (int32_t)(S->nnodes + 1);
    S->nnodes++;
    if ((uint64_t)S->nnodes * 2 > S->table_mask && grow_table()) return -1;
    return S->nnodes - 1;
}

static inline double priority(const Entry *e) { return e->d + G * e->depth; }

static inline int less(const Entry *a, const Entry *b) {
    double pa = priority(a), pb = priority(b);
    if (pa != pb) return pa < pb;
    if (a->tie != b->tie) return a->tie < b->tie;
    /* then the positions' bytes, as Python's tuples compare */
    const Node *x = &S->nodes[a->node], *y = &S->nodes[b->node];
    uint8_t bx[MAXPOS], by[MAXPOS];
    int lx = widen(S->arena + node_off(x), x->len, bx), ly = widen(S->arena + node_off(y), y->len, by);
    int m = memcmp(bx, by, (size_t)(lx < ly ? lx : ly));
    return m ? m < 0 : lx < ly;
}

static int push(int d, int depth, uint64_t tie, int32_t node) {
    if (S->nheap >= S->cap_heap) {
        int64_t cap = S->cap_heap ? S->cap_heap * 2 : 1 << 14;
        Entry *h = realloc(S->heap, (size_t)cap * sizeof(Entry));
        if (!h) return -1;
        S->heap = h;
        S->cap_heap = cap;
    }
    Entry e = {tie, node, (int16_t)d, (uint16_t)depth};
    int64_t i = S->nheap++;
    while (i > 0) {
        int64_t up = (i - 1) / 2;
        if (!less(&e, &S->heap[up])) break;
        S->heap[i] = S->heap[up];
        i = up;
    }
    S->heap[i] = e;
    return 0;
}

static Entry pop(void) {
    Entry top = S->heap[0];
    Entry e = S->heap[--S->nheap];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= S->nheap) break;
        if (c + 1 < S->nheap && less(&S->heap[c + 1], &S->heap[c])) c++;
        if (!less(&S->heap[c], &e)) break;
        S->heap[i] = S->heap[c];
        i = c;
    }
    if (S->nheap) S->heap[i] = e;
    return top;
}

/* frees the run's tables (not the run) */
static void run_clear(Run *r) {
    free(r->arena); r->arena = NULL; r->arena_used = r->arena_cap = 0;
    free(r->nodes); r->nodes = NULL; r->nnodes = r->cap_nodes = 0;
    free(r->table); r->table = NULL; r->table_mask = 0;
    free(r->heap); r->heap = NULL; r->nheap = r->cap_heap = 0;
    free(r->kids); r->kids = NULL; r->nkids = r->cap_kids = 0;
}

static void run_free(Run *r) {
    run_clear(r);
    free(r);
}

/* a new run from `root`, its first position pushed; NULL with an exception set */
static Run *run_new(Py_buffer *root, int kings, int hand_size, int seed, int w_next, int w_clear) {
    Pos p;
    const uint8_t *rb = root->buf;
    int bad = kings < 0 || kings > 2 || hand_size < 0 || hand_size > MAXHAND || seed < 0
              || root->len > 255
              || unpack(rb, root->len, &p);
    for (Py_ssize_t i = 0; !bad && i < root->len; i++)
        bad = i < 8 ? rb[i] > 15 : rb[i] != SEP && rb[i] >= 52;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "patiencemax run: not a PatienceMax position this search can hold");
        return NULL;
    }
    Run *r = calloc(1, sizeof(Run));
    if (!r) { PyErr_NoMemory(); return NULL; }
    r->kings = kings;
    r->hand_size = hand_size;
    r->w_next = w_next;
    r->w_clear = w_clear;
    Run *saved = S;
    S = r;
    mt_seed((uint32_t)seed);
    int oom = 1;
    S->table = calloc(1 << 16, sizeof(int32_t));
    if (S->table) {
        uint64_t slot;
        S->table_mask = (1 << 16) - 1;
        uint8_t z[MAXPOS];
        int zlen = squeeze(rb, (int)root->len, z);
        lookup(z, zlen, hash_bytes(z, zlen), &slot);
        oom = add_node(z, zlen, -1, 0, 0, slot) < 0
              || push(distance(&p), 0, 0, 0);
    }
    S = saved;
    if (oom) {
        run_free(r);
        PyErr_NoMemory();
        return NULL;
    }
    return r;
}

/* the run goes on until `end` positions are expanded (`count` so far), a win, every
   position expanded or a limit; (won, nodes, kept, max_depth, path, limit) */
static PyObject *run_go(Run *r, long long end, long long count, PyObject *check) {
    if (r->going) {
        PyErr_SetString(PyExc_RuntimeError, "patiencemax run: this run is going already");
        return NULL;
    }
    if (r->over) {
        PyErr_SetString(PyExc_ValueError, "patiencemax run: this run is over");
        return NULL;
    }
    r->going = 1;
    S = r;
    PyObject *won = Py_None, *path = Py_None, *limit = Py_None;
    int oom = 0, toolong = 0;
    uint64_t slot;
    int64_t won_node = -1;
    int won_move = 0, stopped = 0;
    Pos p;
    while (S->nheap) {
        if (count >= end) { stopped = 1; break; }
        Entry e = pop();
        count++;
        if (!(count & 1023)) {
            PyObject *res = PyObject_CallFunction(check, "L", count);
            S = r;  /* (another thread's run may have gone meanwhile) */
            if (!res) { r->going = 0; return NULL; }
            if (res != Py_None) { limit = res; break; }
            Py_DECREF(res);
        }
        Node nd = S->nodes[e.node];
        if (nd.depth > S->max_depth) S->max_depth = nd.depth;
        if (nd.depth >= UINT16_MAX) { toolong = 1; break; }
        uint8_t wide[MAXPOS];
        unpack(wide, widen(S->arena + node_off(&nd), nd.len, wide), &p);
        if (children(&p)) { oom = 1; break; }
        /* the table is memory-bound: fetch the children's slots, then the positions
           there, before looking them up (the same lookups, only sooner in the cache) */
        for (int c = 0; c < S->nkids; c++) {
            Child *k = &S->kids[c];
            k->hash = hash_bytes(k->bytes, k->len);
            __builtin_prefetch(&S->table[k->hash & S->table_mask]);
        }
        for (int c = 0; c < S->nkids; c++) {
            int32_t x = S->table[S->kids[c].hash & S->table_mask];
            if (x) __builtin_prefetch(&S->nodes[x - 1]);
        }
        for (int c = 0; c < S->nkids; c++) {
            int32_t x = S->table[S->kids[c].hash & S->table_mask];
            if (x) __builtin_prefetch(S->arena + node_off(&S->nodes[x - 1]));
        }
        for (int c = 0; c < S->nkids; c++) {
            Child *k = &S->kids[c];
            int found_it = lookup(k->bytes, k->len, k->hash, &slot);
            if (found_it) continue;
            if (k->won) { won_node = e.node; won_move = k->move; break; }
            int64_t x = add_node(k->bytes, k->len, e.node, k->move, nd.depth + 1, slot);
            if (x < 0) { oom = 1; break; }
            /* its distance only now: most children were seen before */
            Pos q;
            unpack(k->wide, k->wlen, &q);
            if (push(distance(&q), nd.depth + 1, mt_random53(), (int32_t)x)) { oom = 1; break; }
        }
        if (won_node >= 0 || oom) break;
    }
    r->going = 0;
    if (oom || toolong) {
        r->over = 1;
        run_clear(r);
        if (toolong) {
            PyErr_SetString(PyExc_OverflowError, "patiencemax run: a line of over 65,534 moves");
            return NULL;
        }
        return PyErr_NoMemory();
    }
    int64_t kept = r->nnodes;
    if (won_node >= 0) {
        int n = 1;
        for (int64_t x = won_node; r->nodes[x].parent >= 0; x = r->nodes[x].parent) n++;
        path = PyList_New(n);
        if (!path) return NULL;
        PyList_SET_ITEM(path, n - 1, PyLong_FromLong(won_move));
        int i = n - 2;
        for (int64_t x = won_node; r->nodes[x].parent >= 0; x = r->nodes[x].parent)
            PyList_SET_ITEM(path, i--, PyLong_FromLong(r->nodes[x].move));
        won = Py_True;
    } else if (limit == Py_None && !stopped) {
        won = Py_False;
    }
    if (won != Py_None) {
        r->over = 1;
        run_clear(r);
    }
    PyObject *out = Py_BuildValue("(OLLiOO)", won, count, (long long)kept, r->max_depth, path, limit);
    if (won_node >= 0) Py_DECREF(path);
    if (limit != Py_None) Py_DECREF(limit);
    return out;
}

#define CAPSULE "patiencemax_native.Run"

static void capsule_free(PyObject *capsule) {
    Run *r = PyCapsule_GetPointer(capsule, CAPSULE);
    if (r) run_free(r);
}

static PyObject *start(PyObject *self, PyObject *args) {
    Py_buffer root;
    int kings, hand_size, seed, w_next, w_clear;
    if (!PyArg_ParseTuple(args, "y*iiiii", &root, &kings, &hand_size, &seed, &w_next, &w_clear))
        return NULL;
    Run *r = run_new(&root, kings, hand_size, seed, w_next, w_clear);
    PyBuffer_Release(&root);
    if (!r) return NULL;
    PyObject *capsule = PyCapsule_New(r, CAPSULE, capsule_free);
    if (!capsule) run_free(r);
    return capsule;
}

static PyObject *resume(PyObject *self, PyObject *args) {
    PyObject *capsule, *check;
    long long end, count;
    if (!PyArg_ParseTuple(args, "OLLO", &capsule, &end, &count, &check)) return NULL;
    Run *r = PyCapsule_GetPointer(capsule, CAPSULE);
    if (!r) return NULL;
    return run_go(r, end, count, check);
}

static PyMethodDef methods[] = {
    {"start", start, METH_VARARGS,
     "start(root, kings, hand_size, seed, w_next, w_clear) -> run: a run to go on with "
     "(resume), its first position pushed."},
    {"resume", resume, METH_VARARGS,
     "resume(run, end, nodes, check) -> (won, nodes, kept, max_depth, path, limit): the "
     "run goes on from where it stopped (a run of PatienceMaxSearch, _Run.go)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "patiencemax_native",
    "PatienceMax's best-first runs in C (patiencemax_native.c).", -1, methods,
};

PyMODINIT_FUNC PyInit_patiencemax_native(void) {
    for (int x = 0; x < 256; x++) SYM[x] = x == SEP ? 63 : x < 63 ? (uint8_t)(x + 1) : 0;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", PK_SOURCE_SHA256)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
