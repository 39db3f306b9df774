/* Picture Patience sweep: deal game numbers and search each for a win.

   A tool, not part of the package: tools/picture_sweep.py builds it, runs it and replays
   every line it prints through the checked engine before anything is shipped.

   The deal is PatienceKit's (src/patiencekit/deals.py): 104 card ids shuffled by
   Fisher-Yates from the last index down, game numbers below 32000 with the Microsoft
   LCG (two decks: no reordering), the others with CPython's Mersenne Twister seeded as
   random.Random(number) and randint(0, n) = int(random() * (n + 1)); the last id of the
   list is dealt first. Picture Patience (src/patiencekit/games/patriarchs.py) deals the
   first nine cards to the reserve spaces r1..r9 and the rest to the stock, the first
   of them drawn first.

   The model: per suit (clubs, spades, hearts, diamonds) one foundation up from the ace
   (f1..f4) and one down from the king (f5..f8); nine reserve spaces, each refilled at
   once from the waste's top or, with the waste empty, from the stock; the stock turned
   one card at a time onto the waste, once. A move is "rK fN" (a reserve card to a
   foundation), "w fN" (the waste's top to a foundation) or "s" (draw).

   The search is a beam over the cards drawn: at each level (stock cards drawn) it keeps
   the WIDTH best positions, and the next level is every position reachable from them by
   a draw and then any foundation plays. A position is the foundations' heights, the
   stock's next card and which drawn cards are still on the waste: the reserve's cards
   follow from those (every card is on a foundation, in the reserve, on the waste or in
   the stock, and the two copies of a card are alike), so two positions with equal keys
   are the same. Best: four points a card on the foundations, less one for each waste
   card lying above a card nearer to its foundation (it will have to leave first).
   A beam that finds no win proves nothing.

   Stages: a deal is searched with a narrow beam first and goes on to a wider one only
   when the narrow one put enough cards on the foundations. Measured on deals
   200000-259999 (2026-12-06): stages 10:52,100:60,500 won 9 deals in 32 s; one beam
   100 wide won 3 in 150 s.

   Usage: picture_sweep FIRST COUNT STAGES   e.g. picture_sweep 1 1000 10:52,100:60,500
          picture_sweep NUMBER deal          the deal's 104 card ids in dealing order
   STAGES: WIDTH:CARDS,WIDTH:CARDS,...,WIDTH (the last without CARDS).
   Prints one line per won deal, "won NUMBER POSITIONS MOVE,MOVE,...", and at the end
   "done COUNT WON".
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deals ---- */

static uint32_t mt[624];
static int mti;

static void init_genrand(uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < 624; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    mti = 624;
}

static void init_by_array(const uint32_t *key, int len) {
    init_genrand(19650218u);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
}

static uint32_t genrand(void) {
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    uint32_t y;
    if (mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
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
    uint32_t a = genrand() >> 5, b = genrand() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* The 104 card ids of game `number` in dealing order (first dealt first). */
static void deal(uint64_t number, int *order) {
    int ids[104];
    for (int k = 0; k < 104; k++) ids[k] = k;
    if (number < 32000) {
        uint64_t x = number;
        for (int n = 103; n > 0; n--) {
            x = (x * 214013u + 2531011u) & ((1ull << 33) - 1);
            int j = (int)(((x >> 16) & 0x7fff) % (uint64_t)(n + 1));
            int t = ids[n]; ids[n] = ids[j]; ids[j] = t;
        }
    } else {
        uint32_t key[2] = {(uint32_t)number, (uint32_t)(number >> 32)};
        init_by_array(key, key[1] ? 2 : 1);
        for (int n = 103; n > 0; n--) {
            int j = (int)(mt_random() * (n + 1));
            int t = ids[n]; ids[n] = ids[j]; ids[j] = t;
        }
    }
    for (int k = 0; k < 104; k++) order[k] = ids[103 - k];
}


/* ---- the beam ---- */

#define NSTOCK 95
#define NRES 9

typedef struct { uint64_t a, b, c; uint32_t gen; } Entry;

static Entry *table;        /* the positions of one level, for duplicates */
static uint64_t table_mask;
static uint32_t gen;        /* a new level: entries of other generations are empty */
static uint64_t filled;     /* entries of this generation (at most half the table) */
static int stock[NSTOCK];   /* card (suit * 13 + rank) by draw order */
static long positions;      /* positions generated for the deal */


typedef struct {
    uint8_t up[4], down[4];
    uint8_t si, wn, placed, pad;
    int8_t res[NRES];
    uint8_t waste[NSTOCK];
    uint64_t mlo, mhi;
    int node;     /* index into the moves record, for the line */
    int score;
} BState;

typedef struct { int parent; int move; } Node;

static Node *nodes_rec;
static long nnodes, nodes_cap;
static BState *cur, *nxt;
static long ncur, nnxt, cap_states;

static int add_node(int parent, int move) {
    if (nnodes >= nodes_cap) {
        nodes_cap = nodes_cap ? nodes_cap * 2 : 1 << 16;
        nodes_rec = realloc(nodes_rec, (size_t)nodes_cap * sizeof(Node));
        if (!nodes_rec) { fprintf(stderr, "picture_sweep: out of memory\n"); exit(1); }
    }
    nodes_rec[nnodes].parent = parent;
    nodes_rec[nnodes].move = move;
    return (int)nnodes++;
}

static int bseen(const BState *b) {
    uint64_t a = (uint64_t)b->si;
    for (int s = 0; s < 4; s++) a = (a << 8) | (uint64_t)(b->up[s] << 4 | b->down[s]);
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ b->mlo * 0xC2B2AE3D27D4EB4Full ^ b->mhi * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    for (uint64_t i = h & table_mask;; i = (i + 1) & table_mask) {
        Entry *e = &table[i];
        if (e->gen != gen) {
            if (2 * filled >= table_mask) return 1;  /* full: the beam drops the rest */
            filled++;
            e->gen = gen; e->a = a; e->b = b->mlo; e->c = b->mhi;
            return 0;
        }
        if (e->a == a && e->b == b->mlo && e->c == b->mhi) return 1;
    }
}

static void push_next(const BState *b) {
    if (nnxt >= cap_states) {
        cap_states *= 2;
        cur = realloc(cur, (size_t)cap_states * sizeof(BState));
        nxt = realloc(nxt, (size_t)cap_states * sizeof(BState));
        if (!cur || !nxt) { fprintf(stderr, "picture_sweep: out of memory\n"); exit(1); }
    }
    nxt[nnxt++] = *b;
}

static inline int bfits(const BState *b, int c) {
    int s = c / 13, r = c % 13;
    return (b->up[s] == r) | ((b->down[s] == 12 - r) << 1);
}

static int dist_of(const BState *b, int c) {
    int s = c / 13, r = c % 13;
    int du = r - b->up[s], dd = (12 - r) - b->down[s];
    int d = 99;
    if (du >= 0) d = du;
    if (dd >= 0 && dd < d) d = dd;
    return d;
}

static int bscore(const BState *b) {
    int pen = 0, low = 99;
    for (int k = 0; k < b->wn; k++) {
        int d = dist_of(b, stock[b->waste[k]]);
        if (d > low) pen++;
        if (d < low) low = d;
    }
    return b->placed * 4 - pen;
}

/* b with `card` played to its up (side 0) or down (side 1) foundation, into c */
static void play_copy(BState *c, const BState *b, int card, int side) {
    *c = *b;
    if (side) c->down[card / 13]++; else c->up[card / 13]++;
    c->placed++;
}

/* the waste's top taken off (to a foundation or a reserve space): its stock position */
static int pop_waste(BState *c) {
    int pos = c->waste[--c->wn];
    if (pos < 64) c->mlo &= ~(1ull << pos); else c->mhi &= ~(1ull << (pos - 64));
    return pos;
}

/* every position reachable from b by foundation plays, b included, into nxt */
static void closure(const BState *b) {
    if (bseen(b)) return;
    push_next(b);
    BState c;
    for (int k = 0; k <= NRES; k++) {  /* the reserve spaces, then (k == NRES) the waste */
        int card = k < NRES ? b->res[k] : b->wn ? stock[b->waste[b->wn - 1]] : -1;
        if (card < 0) continue;
        int dup = 0;  /* the same card from another space (or the waste): the same child */
        for (int q = 0; q < k && q < NRES; q++) if (b->res[q] == card) { dup = 1; break; }
        if (dup) continue;
        int f = bfits(b, card), to = card / 13;
        for (int side = 0; side < 2; side++) {
            if (!(f >> side & 1)) continue;
            play_copy(&c, b, card, side);
            if (k == NRES) pop_waste(&c);
            else if (c.wn) c.res[k] = (int8_t)stock[pop_waste(&c)];
            else if (c.si < NSTOCK) c.res[k] = (int8_t)stock[c.si++];
            else c.res[k] = -1;
            int f_index = side ? 4 + to : to;
            c.node = add_node(b->node, k == NRES ? 100 + f_index : 1 + k * 8 + f_index);
            closure(&c);
        }
    }
}

static int by_score(const void *x, const void *y) {
    const BState *a = x, *b = y;
    if (a->score != b->score) return b->score - a->score;
    return a->node - b->node;
}

static int won_node;
static int best_placed;

/* 1 won, 0 not (the beam found no win: no proof of anything) */
static int beam(uint64_t number, long width) {
    int order[104];
    deal(number, order);
    for (int k = 0; k < NSTOCK; k++) stock[k] = order[NRES + k] % 52;
    BState b;
    memset(&b, 0, sizeof b);
    for (int k = 0; k < NRES; k++) b.res[k] = (int8_t)(order[k] % 52);
    nnodes = 0;
    best_placed = 0;
    b.node = add_node(-1, -1);
    gen++;
    filled = 0;
    nnxt = 0;
    closure(&b);
    positions = 0;
    for (;;) {
        for (long q = 0; q < nnxt; q++)
            if (nxt[q].placed == 104) { won_node = nxt[q].node; return 1; }
        positions += nnxt;
        for (long q = 0; q < nnxt; q++) {
            nxt[q].score = bscore(&nxt[q]);
            if (nxt[q].placed > best_placed) best_placed = nxt[q].placed;
        }
        qsort(nxt, (size_t)nnxt, sizeof(BState), by_score);
        ncur = nnxt < width ? nnxt : width;
        BState *t = cur; cur = nxt; nxt = t;
        nnxt = 0;
        gen++;
        filled = 0;
        for (long q = 0; q < ncur; q++) {
            b = cur[q];
            if (b.si >= NSTOCK) continue;
            int pos = b.si++;
            b.waste[b.wn++] = (uint8_t)pos;
            if (pos < 64) b.mlo |= 1ull << pos; else b.mhi |= 1ull << (pos - 64);
            b.node = add_node(cur[q].node, 0);
            closure(&b);
        }
        if (!nnxt) return 0;
    }
}

static void print_line(int node) {
    int moves[512], n = 0;
    for (int x = node; x >= 0 && nodes_rec[x].move >= 0; x = nodes_rec[x].parent) moves[n++] = nodes_rec[x].move;
    for (int d = n - 1; d >= 0; d--) {
        int m = moves[d];
        if (d != n - 1) printf(",");
        if (m == 0) printf("s");
        else if (m >= 100) printf("w f%d", m - 100 + 1);
        else printf("r%d f%d", (m - 1) / 8 + 1, (m - 1) % 8 + 1);
    }
    printf("\n");
}


int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[2], "deal") == 0) {
        int order[104];
        deal(strtoull(argv[1], NULL, 10), order);
        for (int k = 0; k < 104; k++) printf(k ? " %d" : "%d", order[k]);
        printf("\n");
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: picture_sweep FIRST COUNT STAGES | picture_sweep NUMBER deal\n");
        return 2;
    }
    uint64_t first = strtoull(argv[1], NULL, 10);
    uint64_t count = strtoull(argv[2], NULL, 10);
    long widths[8], widest = 0;
    int go_on[8], stages = 0;
    const char *spec = argv[3];
    for (;;) {
        char *end;
        if (stages == 8) { fprintf(stderr, "picture_sweep: at most 8 stages\n"); return 2; }
        widths[stages] = strtol(spec, &end, 10);
        go_on[stages] = 0;
        int cards_ok = 1;
        if (*end == ':') {
            const char *at = end + 1;
            go_on[stages] = (int)strtol(at, &end, 10);
            cards_ok = end != at;
        }
        if (widths[stages] < 1 || !cards_ok || (*end && *end != ',')) {
            fprintf(stderr, "picture_sweep: bad stages %s\n", argv[3]);
            return 2;
        }
        if (widths[stages] > widest) widest = widths[stages];
        stages++;
        if (!*end) break;
        spec = end + 1;
    }
    uint64_t size = 1;
    while (size < (uint64_t)widest * 64 + (1 << 16)) size <<= 1;
    table = calloc(size, sizeof(Entry));
    cap_states = 1 << 16;
    cur = malloc((size_t)cap_states * sizeof(BState));
    nxt = malloc((size_t)cap_states * sizeof(BState));
    if (!table || !cur || !nxt) { fprintf(stderr, "picture_sweep: out of memory\n"); return 1; }
    table_mask = size - 1;
    long won = 0;
    for (uint64_t n = first; n < first + count; n++) {
        int w = 0;
        for (int st = 0; st < stages; st++) {
            if ((w = beam(n, widths[st]))) break;
            if (best_placed < go_on[st]) break;
        }
        if (w) {
            won++;
            printf("won %llu %ld ", (unsigned long long)n, positions);
            print_line(won_node);
            fflush(stdout);
        }
    }
    printf("done %llu %ld\n", (unsigned long long)count, won);
    return 0;
}
