/* PatienceMax's best-first run in C: PatienceMaxSearch.best_first (patiencemax.py),
   the same search position for position.

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

   best_first(root, kings, hand_size, seed, w_next, w_clear, end, nodes, check)
     -> (won, nodes, kept, max_depth, path, limit)
   won: True (path: the moves from root, each source | destination << 4 | count << 8 |
   card << 16), False (every reachable position expanded), None (end reached, or limit:
   the name check(nodes) returned).

   The run keeps its state in this file's statics, so one run at a time: while one is
   going (check() may let another thread run Python code, or call best_first itself),
   best_first returns NotImplemented at once and the caller runs the Python run instead.

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
    int cost[NCOLS];  /* column_cost() of each column not in dirty */
    uint32_t dirty;   /* the columns changed since their cost was worked out */
} Pos;

static int kings, hand_size, w_next, w_clear;

/* ---- CPython's random.Random(seed).random() ---- */

static uint32_t mt[624];
static int mti;

static void mt_seed(uint32_t seed) {
    /* init_by_array with the one-word key {seed}, as random.seed(int) for 0 <= seed < 2**32 */
    mt[0] = 19650218u;
    for (int i = 1; i < 624; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + seed + (uint32_t)j;
        i++;
        j = 0;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
    mti = 624;
}

static uint32_t mt_next(void) {
    uint32_t y;
    if (mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        mti = 0;
    }
    y = mt[mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static double mt_random(void) {
    uint32_t a = mt_next() >> 5, b = mt_next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
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
    p->dirty = ~0u;
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
    int order[NCOLS];
    for (int i = 0; i < p->n; i++) {
        int j = i - 1;
        while (j >= 0 && col_cmp(p, order[j], i) > 0) { order[j + 1] = order[j]; j--; }
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

/* safe_cards(): as a bit set of the 52 cards */
static uint64_t safe_cards(const uint8_t *h) {
    uint64_t out = 0;
    int black_floor = h[0] < h[2] ? h[0] : h[2];
    int red_floor = h[4] < h[6] ? h[4] : h[6];
    for (int s = 0; s < 4; s++) {
        int floor = s < 2 ? red_floor : black_floor;
        for (int q = 0; q < 2; q++) {
            int r = h[2 * s + q];
            if (r > 12 || (r == 12 && kings)) continue;
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
                p->dirty |= 1u << i;
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
    if (kings && n && c[0] % 13 == 12) cost -= 8;
    int low[4] = {13, 13, 13, 13};
    for (int j = 0; j < n; j++) {
        int s = c[j] / 13, r = c[j] % 13;
        if (kings && r == 12) {
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
    int d = kings ? (96 - on + 64) : 2 * (104 - on);
    for (int i = 0; i < p->n; i++)
        d += p->dirty >> i & 1 ? column_cost(p->col[i], p->len[i]) : p->cost[i];
    if (kings && w_clear) {
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
        d += w_clear * sum;
    }
    if (w_next) {
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
                if (best[c]) d += w_next * (best[c] - 1);
                if (k == 2 && second[c]) d += w_next * (second[c] - 1);
            }
        }
    }
    return d + p->hn;
}

static int won_pos(const Pos *p) {
    if (kings) {
        int k = 0;
        for (int i = 0; i < p->n; i++) if (p->len[i] && p->col[i][0] % 13 == 12) k++;
        return k == 8;
    }
    int on = 0;
    for (int i = 0; i < 8; i++) on += p->h[i];
    return on == 104;
}

/* ---- children ---- */

/* *q = *p, copying only the cards there are */
static void copy_pos(Pos *q, const Pos *p) {
    memcpy(q->h, p->h, 8);
    memcpy(q->hand, p->hand, (size_t)p->hn);
    q->hn = p->hn;
    q->n = p->n;
    q->dirty = p->dirty;
    for (int i = 0; i < p->n; i++) {
        q->len[i] = p->len[i];
        q->cost[i] = p->cost[i];
        memcpy(q->col[i], p->col[i], (size_t)p->len[i]);
    }
}

typedef struct {
    int move, d, won, len;
    uint8_t bytes[MAXPOS];
} Child;

static Child *kids;
static int nkids, cap_kids;

static int add_child(void) {
    if (nkids >= cap_kids) {
        int cap = cap_kids ? cap_kids * 2 : 64;
        Child *k = realloc(kids, (size_t)cap * sizeof(Child));
        if (!k) return -1;
        kids = k;
        cap_kids = cap;
    }
    return nkids++;
}

/* _finish(): settle when the foundations were raised or the exposed card is safe */
static int finish(Pos *q, int raised, int exposed, int move) {
    if (raised || (exposed >= 0 && (safe_cards(q->h) >> exposed & 1))) settle(q);
    int k = add_child();
    if (k < 0) return -1;
    Child *c = &kids[k];
    c->move = move;
    c->len = pack(q, c->bytes);
    c->d = distance(q);
    c->won = won_pos(q);
    return 0;
}

static int children(const Pos *p) {
    nkids = 0;
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
    int room = p->hn < hand_size;
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
        if ((p->h[2 * s] == lr || p->h[2 * s + 1] == lr) && !(kings && lr == 12)) {
            copy_pos(&q, p);
            found(q.h, last);
            q.len[i] = k - 1;
            q.dirty |= 1u << i;
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
            q.dirty |= 1u << i | 1u << j;
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
                q.dirty |= 1u << i | 1u << empty;
                if (finish(&q, 0, src[k - cnt - 1], i | empty << 4 | cnt << 8 | src[k - cnt] << 16))
                    return -1;
            }
        }
        if (room) {
            copy_pos(&q, p);
            q.len[i] = k - 1;
            q.dirty |= 1u << i;
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
        if ((p->h[2 * s] == r || p->h[2 * s + 1] == r) && !(kings && r == 12)) {
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
            q.dirty |= 1u << j;
            if (finish(&q, 0, -1, HAND | j << 4 | 1 << 8 | card << 16)) return -1;
        }
    }
    return 0;
}

/* ---- the run: the positions seen, the heap ---- */

typedef struct {
    uint64_t off;   /* in the arena */
    int32_t len, parent, move, depth;
} Node;

typedef struct { double pri, tie; int32_t node; } Entry;

static uint8_t *arena;
static uint64_t arena_used, arena_cap;
static Node *nodes;
static int64_t nnodes, cap_nodes;
static int32_t *table;   /* node + 1, 0 empty */
static uint64_t table_mask;
static Entry *heap;
static int64_t nheap, cap_heap;

static uint64_t hash_bytes(const uint8_t *b, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)len;
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, b + i, (size_t)(len - i));
    h = (h ^ w) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

static int grow_table(void) {
    uint64_t size = (table_mask + 1) * 2;
    int32_t *t = calloc(size, sizeof(int32_t));
    if (!t) return -1;
    for (uint64_t i = 0; i <= table_mask; i++) {
        int32_t x = table[i];
        if (!x) continue;
        Node *nd = &nodes[x - 1];
        uint64_t k = hash_bytes(arena + nd->off, nd->len) & (size - 1);
        while (t[k]) k = (k + 1) & (size - 1);
        t[k] = x;
    }
    free(table);
    table = t;
    table_mask = size - 1;
    return 0;
}

/* the slot of `b` in the table: found (1) or where it goes (0); -1 out of memory */
static int lookup(const uint8_t *b, int len, uint64_t *slot) {
    uint64_t k = hash_bytes(b, len) & table_mask;
    for (;; k = (k + 1) & table_mask) {
        int32_t x = table[k];
        if (!x) { *slot = k; return 0; }
        Node *nd = &nodes[x - 1];
        if (nd->len == len && memcmp(arena + nd->off, b, (size_t)len) == 0) { *slot = k; return 1; }
    }
}

static int64_t add_node(const uint8_t *b, int len, int parent, int move, int depth, uint64_t slot) {
    if (arena_used + (uint64_t)len > arena_cap) {
        uint64_t cap = arena_cap ? arena_cap * 2 : 1 << 20;
        while (cap < arena_used + (uint64_t)len) cap *= 2;
        uint8_t *a = realloc(arena, cap);
        if (!a) return -1;
        arena = a;
        arena_cap = cap;
    }
    if (nnodes >= cap_nodes) {
        int64_t cap = cap_nodes ? cap_nodes * 2 : 1 << 14;
        Node *nd = realloc(nodes, (size_t)cap * sizeof(Node));
        if (!nd) return -1;
        nodes = nd;
        cap_nodes = cap;
    }
    Node *nd = &nodes[nnodes];
    nd->off = arena_used;
    nd->len = len;
    nd->parent = parent;
    nd->move = move;
    nd->depth = depth;
    memcpy(arena + arena_used, b, (size_t)len);
    arena_used += (uint64_t)len;
    table[slot] = (int32_t)(nnodes + 1);
    nnodes++;
    if ((uint64_t)nnodes * 2 > table_mask && grow_table()) return -1;
    return nnodes - 1;
}

static inline int less(const Entry *a, const Entry *b) {
    if (a->pri != b->pri) return a->pri < b->pri;
    if (a->tie != b->tie) return a->tie < b->tie;
    /* then the positions' bytes, as Python's tuples compare */
    const Node *x = &nodes[a->node], *y = &nodes[b->node];
    int m = memcmp(arena + x->off, arena + y->off, (size_t)(x->len < y->len ? x->len : y->len));
    return m ? m < 0 : x->len < y->len;
}

static int push(double pri, double tie, int32_t node) {
    if (nheap >= cap_heap) {
        int64_t cap = cap_heap ? cap_heap * 2 : 1 << 14;
        Entry *h = realloc(heap, (size_t)cap * sizeof(Entry));
        if (!h) return -1;
        heap = h;
        cap_heap = cap;
    }
    Entry e = {pri, tie, node};
    int64_t i = nheap++;
    while (i > 0) {
        int64_t up = (i - 1) / 2;
        if (!less(&e, &heap[up])) break;
        heap[i] = heap[up];
        i = up;
    }
    heap[i] = e;
    return 0;
}

static Entry pop(void) {
    Entry top = heap[0];
    Entry e = heap[--nheap];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= nheap) break;
        if (c + 1 < nheap && less(&heap[c + 1], &heap[c])) c++;
        if (!less(&heap[c], &e)) break;
        heap[i] = heap[c];
        i = c;
    }
    if (nheap) heap[i] = e;
    return top;
}

static void reset(void) {
    free(arena); arena = NULL; arena_used = arena_cap = 0;
    free(nodes); nodes = NULL; nnodes = cap_nodes = 0;
    free(table); table = NULL; table_mask = 0;
    free(heap); heap = NULL; nheap = cap_heap = 0;
    free(kids); kids = NULL; nkids = cap_kids = 0;
}

static int busy;  /* a run is going (see the text at the top) */

static PyObject *run(PyObject *args);

static PyObject *best_first(PyObject *self, PyObject *args) {
    if (busy) Py_RETURN_NOTIMPLEMENTED;
    busy = 1;
    PyObject *out = run(args);
    busy = 0;
    return out;
}

static PyObject *run(PyObject *args) {
    Py_buffer root;
    int seed;
    long long end, count;
    PyObject *check;
    if (!PyArg_ParseTuple(args, "y*piiiiLLO", &root, &kings, &hand_size, &seed, &w_next,
                          &w_clear, &end, &count, &check))
        return NULL;
    kings = kings != 0;
    Pos p;
    if (hand_size > MAXHAND || seed < 0 || unpack(root.buf, root.len, &p)) {
        PyBuffer_Release(&root);
        PyErr_SetString(PyExc_ValueError, "best_first: not a PatienceMax position this search can hold");
        return NULL;
    }
    reset();
    mt_seed((uint32_t)seed);
    table = calloc(1 << 16, sizeof(int32_t));
    table_mask = (1 << 16) - 1;
    PyObject *won = Py_None, *path = Py_None, *limit = Py_None;
    int max_depth = 0, oom = 0;
    uint64_t slot;
    int64_t r;
    if (!table) oom = 1;
    else {
        lookup(root.buf, (int)root.len, &slot);
        r = add_node(root.buf, (int)root.len, -1, 0, 0, slot);
        if (r < 0 || push((double)distance(&p), 0.0, 0)) oom = 1;
    }
    PyBuffer_Release(&root);
    int64_t won_node = -1;
    int won_move = 0, stopped = 0;
    while (!oom && nheap) {
        if (count >= end) { stopped = 1; break; }
        Entry e = pop();
        count++;
        if (!(count & 1023)) {
            PyObject *res = PyObject_CallFunction(check, "L", count);
            if (!res) { reset(); return NULL; }
            if (res != Py_None) { limit = res; break; }
            Py_DECREF(res);
        }
        Node nd = nodes[e.node];
        if (nd.depth > max_depth) max_depth = nd.depth;
        unpack(arena + nd.off, nd.len, &p);
        for (int i = 0; i < p.n; i++) p.cost[i] = column_cost(p.col[i], p.len[i]);
        p.dirty = 0;
        if (children(&p)) { oom = 1; break; }
        for (int c = 0; c < nkids; c++) {
            Child *k = &kids[c];
            int found_it = lookup(k->bytes, k->len, &slot);
            if (found_it) continue;
            if (k->won) { won_node = e.node; won_move = k->move; break; }
            r = add_node(k->bytes, k->len, e.node, k->move, nd.depth + 1, slot);
            if (r < 0) { oom = 1; break; }
            double pri = k->d + G * (nd.depth + 1);
            if (push(pri, mt_random(), (int32_t)r)) { oom = 1; break; }
        }
        if (won_node >= 0 || oom) break;
    }
    if (oom) {
        reset();
        return PyErr_NoMemory();
    }
    int64_t kept = nnodes;
    if (won_node >= 0) {
        int n = 1;
        for (int64_t x = won_node; nodes[x].parent >= 0; x = nodes[x].parent) n++;
        path = PyList_New(n);
        if (!path) { reset(); return NULL; }
        PyList_SET_ITEM(path, n - 1, PyLong_FromLong(won_move));
        int i = n - 2;
        for (int64_t x = won_node; nodes[x].parent >= 0; x = nodes[x].parent)
            PyList_SET_ITEM(path, i--, PyLong_FromLong(nodes[x].move));
        won = Py_True;
    } else if (limit == Py_None && !stopped) {
        won = Py_False;
    }
    reset();
    PyObject *out = Py_BuildValue("(OLLiOO)", won, count, (long long)kept, max_depth, path, limit);
    if (won_node >= 0) Py_DECREF(path);
    if (limit != Py_None) Py_DECREF(limit);
    return out;
}

static PyMethodDef methods[] = {
    {"best_first", best_first, METH_VARARGS,
     "best_first(root, kings, hand_size, seed, w_next, w_clear, end, nodes, check) -> "
     "(won, nodes, kept, max_depth, path, limit): one run of PatienceMaxSearch.best_first; "
     "NotImplemented while another run is going."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "patiencemax_native",
    "PatienceMax's best-first run in C (patiencemax_native.c).", -1, methods,
};

PyMODINIT_FUNC PyInit_patiencemax_native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", PK_SOURCE_SHA256)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
