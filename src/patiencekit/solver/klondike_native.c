/* The Klondike search's depth-first search in C: the same search as
 * KlondikeSearch.search in klondike.py, move for move, compiled as a CPython extension
 * (tools/build_fast.py native). Optional: without it (or with PATIENCEKIT_PURE_PYTHON set)
 * the Python search runs, and the tests check that the two search the same positions in
 * the same order, keep the same keys and find the same line.
 *
 * What it holds:
 *   KeySet  a table of 62-bit position keys (open addressing, 8 bytes a slot, about
 *           16 bytes a key kept; a Python set of ints takes about 80);
 *   dfs     one depth-first search from a position given as klondike.py's lists, with
 *           the caller's KeySet as its table; it calls back into Python every
 *           check_mask + 1 positions for the budgets (klondike.py's _native_check).
 *
 * Every rule of the search (the moves and their order, the safe moves, the keys, the
 * draw-position dominance) is argued in klondike.py; this file only restates it. The
 * position's codes, Zobrist keys and talon keys are klondike.py's (set_keys hands the
 * Zobrist tables over once; the talon keys use the same splitmix64 mix), so a key means
 * the same in both searches.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef PK_SOURCE_SHA256
#define PK_SOURCE_SHA256 "unknown"
#endif

/* ------------------------------------------------------------------ the key table */

#define EMPTY_SLOT UINT64_MAX
#define TOMB_SLOT (UINT64_MAX - 1)

typedef struct {
    PyObject_HEAD
    uint64_t *slots;
    size_t mask;   /* capacity - 1 (capacity a power of two) */
    size_t used;   /* keys held */
    size_t filled; /* keys and tombstones */
} KeySet;

static PyTypeObject KeySetType;

static inline size_t slot_of(uint64_t k, size_t mask) {
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
}

static int ks_resize(KeySet *t, size_t cap) {
    uint64_t *old = t->slots;
    size_t oldcap = old ? t->mask + 1 : 0;
    uint64_t *slots = (uint64_t *)PyMem_RawMalloc(cap * sizeof(uint64_t));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    memset(slots, 0xFF, cap * sizeof(uint64_t));
    size_t mask = cap - 1;
    for (size_t i = 0; i < oldcap; i++) {
        uint64_t k = old[i];
        if (k >= TOMB_SLOT) continue;
        size_t j = slot_of(k, mask);
        while (slots[j] != EMPTY_SLOT) j = (j + 1) & mask;
        slots[j] = k;
    }
    PyMem_RawFree(old);
    t->slots = slots;
    t->mask = mask;
    t->filled = t->used;
    return 0;
}

static inline int ks_contains(const KeySet *t, uint64_t k) {
    size_t mask = t->mask;
    size_t i = slot_of(k, mask);
    for (;;) {
        uint64_t s = t->slots[i];
        if (s == k) return 1;
        if (s == EMPTY_SLOT) return 0;
        i = (i + 1) & mask;
    }
}

/* 1 added, 0 there already, -1 out of memory (a Python error set) */
static int ks_add(KeySet *t, uint64_t k) {
    if ((t->filled + 1) * 4 > (t->mask + 1) * 3) {
        size_t cap = t->mask + 1;
        /* many tombstones: rebuild at the same size; else double */
        if ((t->used + 1) * 2 > cap) cap *= 2;
        if (ks_resize(t, cap) < 0) return -1;
    }
    size_t mask = t->mask;
    size_t i = slot_of(k, mask);
    size_t tomb = SIZE_MAX;
    for (;;) {
        uint64_t s = t->slots[i];
        if (s == k) return 0;
        if (s == EMPTY_SLOT) break;
        if (s == TOMB_SLOT && tomb == SIZE_MAX) tomb = i;
        i = (i + 1) & mask;
    }
    if (tomb != SIZE_MAX) {
        t->slots[tomb] = k;
    } else {
        t->slots[i] = k;
        t->filled++;
    }
    t->used++;
    return 1;
}

static int ks_discard(KeySet *t, uint64_t k) {
    size_t mask = t->mask;
    size_t i = slot_of(k, mask);
    for (;;) {
        uint64_t s = t->slots[i];
        if (s == k) {
            t->slots[i] = TOMB_SLOT;
            t->used--;
            return 1;
        }
        if (s == EMPTY_SLOT) return 0;
        i = (i + 1) & mask;
    }
}

/* a key from Python: an int in [0, 2**62) */
static int key_arg(PyObject *o, uint64_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a position key must be an int, not %.80s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >= TOMB_SLOT) {
        PyErr_Format(PyExc_ValueError, "position key %llu is out of range", v);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static PyObject *KeySet_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    KeySet *self = (KeySet *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->slots = NULL;
    self->used = self->filled = 0;
    if (ks_resize(self, 1024) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int KeySet_init(KeySet *self, PyObject *args, PyObject *kwds) {
    PyObject *keys = NULL;
    static char *kwlist[] = {"keys", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:KeySet", kwlist, &keys)) return -1;
    if (!keys) return 0;
    PyObject *it = PyObject_GetIter(keys);
    if (!it) return -1;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        uint64_t k;
        int bad = key_arg(item, &k) < 0 || ks_add(self, k) < 0;
        Py_DECREF(item);
        if (bad) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static void KeySet_dealloc(KeySet *self) {
    PyMem_RawFree(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t KeySet_len(KeySet *self) { return (Py_ssize_t)self->used; }

/* 1 and the key when ``o`` is one, else 0 (no error: a negative or huge int, or no int,
 * is no key, so it is in no table; ``in`` and ``discard`` answer for it as a set does) */
static int key_quiet(PyObject *o, uint64_t *out) {
    if (!PyLong_Check(o)) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v >= TOMB_SLOT) return 0;
    *out = (uint64_t)v;
    return 1;
}

static int KeySet_sq_contains(KeySet *self, PyObject *o) {
    uint64_t k;
    return key_quiet(o, &k) && ks_contains(self, k);
}

static PyObject *KeySet_add(KeySet *self, PyObject *o) {
    uint64_t k;
    if (key_arg(o, &k) < 0 || ks_add(self, k) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *KeySet_discard(KeySet *self, PyObject *o) {
    uint64_t k;
    if (key_quiet(o, &k)) ks_discard(self, k);
    Py_RETURN_NONE;
}

/* the keys as a Python set (for tests and comparisons) */
static PyObject *KeySet_to_set(KeySet *self, PyObject *unused) {
    PyObject *out = PySet_New(NULL);
    if (!out) return NULL;
    for (size_t i = 0; i <= self->mask; i++) {
        uint64_t k = self->slots[i];
        if (k >= TOMB_SLOT) continue;
        PyObject *v = PyLong_FromUnsignedLongLong(k);
        if (!v || PySet_Add(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

static PyObject *KeySet_iter(KeySet *self) {
    PyObject *s = KeySet_to_set(self, NULL);
    if (!s) return NULL;
    PyObject *it = PyObject_GetIter(s);
    Py_DECREF(s);
    return it;
}

static PyObject *KeySet_richcompare(PyObject *a, PyObject *b, int op) {
    if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
    PyObject *sa = PyObject_TypeCheck(a, &KeySetType) ? KeySet_to_set((KeySet *)a, NULL)
                                                        : (Py_INCREF(a), a);
    if (!sa) return NULL;
    PyObject *sb = PyObject_TypeCheck(b, &KeySetType) ? KeySet_to_set((KeySet *)b, NULL)
                                                        : (Py_INCREF(b), b);
    if (!sb) {
        Py_DECREF(sa);
        return NULL;
    }
    PyObject *r = NULL;
    if (PyAnySet_Check(sa) && PyAnySet_Check(sb)) {
        r = PyObject_RichCompare(sa, sb, op);
    } else {
        r = Py_NotImplemented;
        Py_INCREF(r);
    }
    Py_DECREF(sa);
    Py_DECREF(sb);
    return r;
}

static PyObject *KeySet_nbytes(KeySet *self, PyObject *unused) {
    return PyLong_FromSize_t((self->mask + 1) * sizeof(uint64_t));
}

static PyMethodDef KeySet_methods[] = {
    {"add", (PyCFunction)KeySet_add, METH_O, "Add a position key."},
    {"discard", (PyCFunction)KeySet_discard, METH_O, "Remove a key if it is there."},
    {"to_set", (PyCFunction)KeySet_to_set, METH_NOARGS, "The keys as a Python set."},
    {"nbytes", (PyCFunction)KeySet_nbytes, METH_NOARGS, "The table's size in bytes."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods KeySet_as_sequence = {
    .sq_length = (lenfunc)KeySet_len,
    .sq_contains = (objobjproc)KeySet_sq_contains,
};

static PyTypeObject KeySetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "patiencekit.solver.klondike_native.KeySet",
    .tp_basicsize = sizeof(KeySet),
    .tp_dealloc = (destructor)KeySet_dealloc,
    .tp_as_sequence = &KeySet_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of 62-bit position keys (add, discard, in, len), 8 bytes a slot.",
    .tp_richcompare = KeySet_richcompare,
    .tp_iter = (getiterfunc)KeySet_iter,
    .tp_methods = KeySet_methods,
    .tp_init = (initproc)KeySet_init,
    .tp_new = KeySet_new,
    .tp_hash = PyObject_HashNotImplemented,
};

/* ------------------------------------------------------------------ keys */

enum { TALON_TO_FOUNDATION = 0, TALON_TO_COLUMN = 1, COLUMN_TO_FOUNDATION = 2,
       COLUMN_TO_COLUMN = 3, FOUNDATION_TO_COLUMN = 4, SWAP_TO_FOUNDATION = 5 };
enum { IN_TALON = 0, ON_FOUNDATION = 1, ON_CARD = 2, ON_HIDDEN = 54, ON_EMPTY = 61,
       CODES = 62 };
#define KING 12
#define MAX_HIDDEN 24 /* klondike.py's _ZH rows: 0..23 face-down cards */
#define MAX_DEPTH 20000 /* klondike.py's recursion limit: past it, "memory" */

static uint64_t Z[52][CODES];
static uint64_t ZH[7][MAX_HIDDEN];
static int keys_set = 0;

static const int OPP[4][2] = {{2, 3}, {2, 3}, {0, 1}, {0, 1}};
static const int SAME_OTHER[4] = {1, 0, 3, 2};
/* the two parents of each card (52: none, a king's) */
static int PA[52], PB[52];

static uint64_t mix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (z ^ (z >> 31)) >> 2; /* 62 bits, klondike.py's _mix */
}

static uint64_t reach_mask(int n, int p, int draw) {
    uint64_t mask = p > 0 ? (1ULL << (p - 1)) : 0;
    int q = p;
    while (q < n) {
        q = q + draw < n ? q + draw : n;
        mask |= 1ULL << (q - 1);
    }
    q = 0;
    while (q < n) {
        q = q + draw < n ? q + draw : n;
        mask |= 1ULL << (q - 1);
    }
    return mask;
}

/* per draw (1..3) and talon size (0..52): the talon keys (klondike.py's _reach_row) and
 * the reachable positions in klondike.py's order (reachable_positions), made when first
 * asked */
typedef struct {
    uint64_t key[53];       /* by draw position p */
    int8_t list[53][53];    /* reachable positions by p */
    int8_t count[53];
    uint64_t set[53];       /* the same as a bit mask */
} TalonRow;

static TalonRow *ROWS[4][53];

static TalonRow *talon_row(int draw, int n) {
    TalonRow *row = ROWS[draw][n];
    if (row) return row;
    row = (TalonRow *)PyMem_RawCalloc(1, sizeof(TalonRow));
    if (!row) return NULL;
    for (int p = 0; p <= n; p++) {
        uint64_t m = reach_mask(n, p, draw);
        row->key[p] = mix64(((uint64_t)draw << 60) | ((uint64_t)n << 53) | m);
        int c = 0;
        if (draw == 1) {
            for (int i = 0; i < n; i++) row->list[p][c++] = (int8_t)i;
            row->set[p] = (1ULL << n) - 1; /* n <= 52 */
        } else {
            uint64_t seen = 0;
            if (p > 0) {
                row->list[p][c++] = (int8_t)(p - 1);
                seen |= 1ULL << (p - 1);
            }
            int q = p;
            while (q < n) {
                q = q + draw < n ? q + draw : n;
                row->list[p][c++] = (int8_t)(q - 1);
                seen |= 1ULL << (q - 1);
            }
            q = 0;
            while (q < n) {
                q = q + draw < n ? q + draw : n;
                if (!(seen & (1ULL << (q - 1)))) {
                    row->list[p][c++] = (int8_t)(q - 1);
                    seen |= 1ULL << (q - 1);
                }
            }
            row->set[p] = seen;
        }
        row->count[p] = (int8_t)c;
    }
    ROWS[draw][n] = row;
    return row;
}

/* ------------------------------------------------------------------ the position */

typedef struct {
    int8_t kind, a, b, c, card;
} Move;

typedef struct {
    Move m;
    int info;
} Applied;

typedef struct {
    int draw;
    int8_t hid[7][53];
    int nh[7];
    int8_t up[7][53];
    int nu[7];
    int found[4];
    int8_t talon[53];
    int nt;
    int p;
    int loc[52];
    uint64_t hash;
    TalonRow *rows[53]; /* talon_row(draw, n) for n up to the start's talon */
    /* the search */
    KeySet *seen;
    KeySet *old_line; /* or NULL */
    int dominance;
    long long nodes;
    long long check_mask;
    int max_depth;
    PyObject *check;    /* check(nodes, kept) -> None or the name of the limit */
    PyObject *limit;    /* the name of the limit that stopped the search (a new ref) */
    int error;          /* a Python error is set */
    Move *path;
    size_t npath, cappath;
    uint64_t *line;
    size_t nline, capline;
    Move *moves; /* a stack of every frame's moves */
    size_t nmoves, capmoves;
    Applied *autos; /* a stack of every frame's safe moves */
    size_t nautos, capautos;
    int depth;
} S;

/* room for ``need`` items of ``size`` bytes in the growable array *buf (capacity *cap);
 * -1 with a Python MemoryError and s->error set when there is no memory */
static int grow(S *s, void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap * 2 + need + 64;
    void *nb = PyMem_RawRealloc(*buf, n * size);
    if (!nb) {
        PyErr_NoMemory();
        s->error = 1;
        return -1;
    }
    *buf = nb;
    *cap = n;
    return 0;
}

static inline int safe(const S *s, int card) {
    int r = card % 13;
    if (r <= 1) return 1;
    int su = card / 13;
    const int *f = s->found;
    return f[OPP[su][0]] >= r - 1 && f[OPP[su][1]] >= r - 1 && f[SAME_OTHER[su]] >= r - 2;
}

static inline int twin(int card) { return SAME_OTHER[card / 13] * 13 + card % 13; }

static inline void set_code(S *s, int card, int code) {
    s->hash ^= Z[card][s->loc[card]] ^ Z[card][code];
    s->loc[card] = code;
}

static inline int base_code(const S *s, int col) { return s->nh[col] ? ON_HIDDEN + col : ON_EMPTY; }

static void make_tops(const S *s, int *tops) {
    for (int i = 0; i < 53; i++) tops[i] = -1;
    for (int j = 0; j < 7; j++)
        if (s->nu[j]) tops[s->up[j][s->nu[j] - 1]] = j;
}

/* the column whose top ``card`` may go onto (the first of its two parents found; a king:
 * ``empty``, the first empty column, or -1), else -1 */
static inline int parent_column(const int *tops, int card, int empty) {
    int j = tops[PA[card]];
    if (j < 0) j = tops[PB[card]];
    if (j < 0 && card % 13 == KING) j = empty;
    return j;
}

static int to_foundation(const S *s, int card, const int *tops, Move *out) {
    int j = tops[card];
    if (j >= 0) {
        *out = (Move){COLUMN_TO_FOUNDATION, (int8_t)j, 0, 0, (int8_t)card};
        return 1;
    }
    int jt = tops[twin(card)];
    if (jt < 0) return 0;
    for (int i = 0; i < 7; i++) {
        int n = s->nu[i];
        for (int k = 0; k < n - 1; k++) {
            if (s->up[i][k] == card) {
                *out = (Move){SWAP_TO_FOUNDATION, (int8_t)i, (int8_t)(n - 1 - k), (int8_t)jt,
                              (int8_t)card};
                return 1;
            }
        }
    }
    return 0;
}

static inline int talon_index(const S *s, int card) {
    for (int i = 0; i < s->nt; i++)
        if (s->talon[i] == card) return i;
    return -1;
}

/* memo[depth][card]: useful's answer once known within one gen_moves (-1: not yet); the
 * same answers as without it, only not worked out twice */
typedef int8_t Memo[14][52];

static int useful_(const S *s, int card, const char *heads, uint64_t reach, int depth,
                   Memo memo);

static inline int useful(const S *s, int card, const char *heads, uint64_t reach, int depth,
                         Memo memo) {
    int8_t *m = &memo[depth][card];
    if (*m < 0) *m = (int8_t)useful_(s, card, heads, reach, depth, memo);
    return *m;
}

static int useful_(const S *s, int card, const char *heads, uint64_t reach, int depth,
                   Memo memo) {
    int r = card % 13;
    if (r == 0) return 0;
    int ys[2];
    if (card < 26) {
        ys[0] = 2 * 13 + r - 1;
        ys[1] = 3 * 13 + r - 1;
    } else {
        ys[0] = r - 1;
        ys[1] = 13 + r - 1;
    }
    for (int k = 0; k < 2; k++) {
        int y = ys[k];
        if (heads[y]) return 1;
        int where = s->loc[y];
        if (where == IN_TALON) {
            if (s->draw != 1) {
                int idx = talon_index(s, y);
                if (idx >= 0 && (reach >> idx) & 1) return 1;
            } else if (depth > 0 && useful(s, y, heads, reach, depth - 1, memo)) {
                return 1;
            }
        } else if (where == ON_FOUNDATION && s->found[y / 13] == r && depth > 0 &&
                   useful(s, y, heads, reach, depth - 1, memo)) {
            return 1;
        }
    }
    return 0;
}

static inline int last_safe(const S *s) {
    if (!s->nt) return 0;
    int card = s->talon[s->nt - 1];
    return s->found[card / 13] == card % 13 && safe(s, card);
}

static inline int pure_draw(const S *s) { return s->p % s->draw == 0 || s->p == s->nt; }

/* the pruned moves, best first, onto the moves stack; returns how many (klondike.py's
 * KlondikeSearch.moves) */
static int gen_moves(S *s) {
    Move first[64], rest[64], last[4];
    int nfirst = 0, nrest = 0, nlast = 0;
    Move reveal[7];
    int reveal_nh[7];
    int nreveal = 0;
    int tops[53];
    make_tops(s, tops);
    int empty = -1;
    for (int j = 0; j < 7; j++)
        if (!s->nu[j]) {
            empty = j;
            break;
        }
    int king_waits = 0;
    for (int su = 0; su < 4; su++) {
        int where = s->loc[su * 13 + KING];
        if (where == IN_TALON || where == -1 || (where >= ON_HIDDEN && where < ON_EMPTY)) {
            king_waits = 1;
            break;
        }
    }
    for (int su = 0; su < 4; su++) {
        int h = s->found[su];
        if (h < 13 && s->loc[su * 13 + h] >= ON_CARD) {
            Move m;
            if (to_foundation(s, su * 13 + h, tops, &m)) first[nfirst++] = m;
        }
    }
    char heads[52];
    memset(heads, 0, sizeof heads);
    for (int i = 0; i < 7; i++) {
        int n = s->nu[i];
        if (!n) continue;
        const int8_t *u = s->up[i];
        for (int k = 1; k < n; k++) {
            int below = u[k - 1];
            if (s->found[below / 13] == below % 13) heads[(int)u[k]] = 1;
        }
        int card = u[0];
        int nh = s->nh[i];
        if (nh == 0 && (card % 13 == KING || !king_waits)) continue;
        heads[card] = 1;
        int j = parent_column(tops, card, empty);
        if (j >= 0) {
            Move m = {COLUMN_TO_COLUMN, (int8_t)i, 0, (int8_t)j, (int8_t)n};
            if (nh) {
                reveal[nreveal] = m;
                reveal_nh[nreveal++] = nh;
            } else {
                rest[nrest++] = m;
            }
        }
    }
    Memo memo;
    memset(memo, 0xFF, sizeof memo);
    TalonRow *row = s->rows[s->nt];
    int nreach = row->count[s->p];
    const int8_t *reach = row->list[s->p];
    uint64_t reach_set = row->set[s->p];
    int draw1 = s->draw == 1;
    int this_pass = !draw1 && last_safe(s);
    int lastidx = s->nt - 1;
    for (int r = 0; r < nreach; r++) {
        int idx = reach[r];
        if (this_pass && !(idx == s->p - 1 || idx == lastidx ||
                           (idx >= s->p && (idx - s->p + 1) % s->draw == 0)))
            continue;
        int card = s->talon[idx];
        if (s->found[card / 13] == card % 13)
            first[nfirst++] = (Move){TALON_TO_FOUNDATION, (int8_t)idx, 0, 0, (int8_t)card};
        if (draw1 && !useful(s, card, heads, reach_set, 13, memo)) continue;
        int j = parent_column(tops, card, empty);
        if (j >= 0) rest[nrest++] = (Move){TALON_TO_COLUMN, (int8_t)idx, (int8_t)j, 0, (int8_t)card};
    }
    for (int su = 0; su < 4; su++) {
        int h = s->found[su];
        if (h < 2) continue;
        int card = su * 13 + h - 1;
        if (safe(s, card) || !useful(s, card, heads, reach_set, 13, memo)) continue;
        int j = parent_column(tops, card, -1); /* (never to an empty column) */
        if (j >= 0) last[nlast++] = (Move){FOUNDATION_TO_COLUMN, (int8_t)su, (int8_t)j, 0, (int8_t)card};
    }
    /* reveal: most face-down cards first, ties in column order (a stable sort) */
    for (int i = 1; i < nreveal; i++) {
        Move m = reveal[i];
        int k = reveal_nh[i];
        int j = i - 1;
        while (j >= 0 && reveal_nh[j] < k) {
            reveal[j + 1] = reveal[j];
            reveal_nh[j + 1] = reveal_nh[j];
            j--;
        }
        reveal[j + 1] = m;
        reveal_nh[j + 1] = k;
    }
    int total = nreveal + nrest + nfirst + nlast;
    if (grow(s, (void **)&s->moves, &s->capmoves, s->nmoves + (size_t)total, sizeof(Move)) < 0)
        return -1;
    Move *out = s->moves + s->nmoves;
    memcpy(out, reveal, (size_t)nreveal * sizeof(Move));
    out += nreveal;
    memcpy(out, rest, (size_t)nrest * sizeof(Move));
    out += nrest;
    memcpy(out, first, (size_t)nfirst * sizeof(Move));
    out += nfirst;
    memcpy(out, last, (size_t)nlast * sizeof(Move));
    s->nmoves += (size_t)total;
    return total;
}

static inline uint64_t reveal_key(const S *s, int col) {
    int n = s->nh[col];
    if (!n) return 0;
    int code = n == 1 ? ON_EMPTY : ON_HIDDEN + col;
    return ZH[col][n] ^ ZH[col][n - 1] ^ Z[(int)s->hid[col][n - 1]][code];
}

static uint64_t child_key(const S *s, Move m) {
    int card = m.card;
    if (m.kind == COLUMN_TO_COLUMN) {
        int first = s->up[(int)m.a][(int)m.b];
        uint64_t h = s->hash ^ Z[first][s->loc[first]] ^ Z[first][s->nu[(int)m.c] ? ON_CARD : ON_EMPTY];
        if (m.b == 0) h ^= reveal_key(s, m.a);
        return h;
    }
    if (m.kind == COLUMN_TO_FOUNDATION || m.kind == SWAP_TO_FOUNDATION) {
        uint64_t h = s->hash ^ Z[card][s->loc[card]] ^ Z[card][ON_FOUNDATION];
        if (s->nu[(int)m.a] == (m.kind == COLUMN_TO_FOUNDATION ? 1 : m.b + 1)) h ^= reveal_key(s, m.a);
        return h;
    }
    if (m.kind == FOUNDATION_TO_COLUMN) return s->hash ^ Z[card][ON_FOUNDATION] ^ Z[card][ON_CARD];
    uint64_t h = s->hash;
    if (s->draw != 1) h ^= s->rows[s->nt]->key[s->p] ^ s->rows[s->nt - 1]->key[(int)m.a];
    if (m.kind == TALON_TO_FOUNDATION) return h ^ Z[card][IN_TALON] ^ Z[card][ON_FOUNDATION];
    return h ^ Z[card][IN_TALON] ^ Z[card][s->nu[(int)m.b] ? ON_CARD : ON_EMPTY];
}

#define DOMINANCE_PROBES 3

static int dominated(const S *s, Move m, uint64_t key) {
    if (m.kind > TALON_TO_COLUMN) return 0;
    int n = s->nt - 1;
    int p = m.a;
    int d = s->draw;
    if (p % d == 0 || p == n) return 0;
    const uint64_t *row = s->rows[n]->key;
    uint64_t group = key ^ row[p];
    int q = p - d;
    int stop = p - DOMINANCE_PROBES * d;
    while (q > 0 && q >= stop) {
        if (ks_contains(s->seen, group ^ row[q]))
            return !(s->old_line && ks_contains(s->old_line, key));
        q -= d;
    }
    return 0;
}

static int reveal_col(S *s, int col) {
    if (s->nu[col] || !s->nh[col]) return 0;
    s->hash ^= reveal_key(s, col);
    int card = s->hid[col][--s->nh[col]];
    s->up[col][s->nu[col]++] = (int8_t)card;
    s->loc[card] = s->nh[col] ? ON_HIDDEN + col : ON_EMPTY;
    return 1;
}

static void unreveal_col(S *s, int col) {
    int card = s->up[col][--s->nu[col]];
    s->hash ^= Z[card][s->loc[card]];
    s->loc[card] = -1;
    int n = s->nh[col];
    s->hid[col][s->nh[col]++] = (int8_t)card;
    s->hash ^= ZH[col][n] ^ ZH[col][n + 1];
}

static int apply_move(S *s, Move m) {
    int a = m.a, b = m.b, c = m.c, card = m.card;
    switch (m.kind) {
    case COLUMN_TO_FOUNDATION:
        s->nu[a]--;
        set_code(s, card, ON_FOUNDATION);
        s->found[card / 13]++;
        return reveal_col(s, a);
    case COLUMN_TO_COLUMN: {
        int n = s->nu[a] - b;
        set_code(s, s->up[a][b], s->nu[c] ? ON_CARD : ON_EMPTY);
        memcpy(&s->up[c][s->nu[c]], &s->up[a][b], (size_t)n);
        s->nu[c] += n;
        s->nu[a] = b;
        return b == 0 ? reveal_col(s, a) : 0;
    }
    case FOUNDATION_TO_COLUMN:
        s->found[a]--;
        set_code(s, card, ON_CARD);
        s->up[b][s->nu[b]++] = (int8_t)card;
        return 0;
    case SWAP_TO_FOUNDATION: {
        int n = s->nu[a] - b;
        memcpy(&s->up[c][s->nu[c]], &s->up[a][n], (size_t)b);
        s->nu[c] += b;
        s->nu[a] = n - 1;
        set_code(s, card, ON_FOUNDATION);
        s->found[card / 13]++;
        return reveal_col(s, a);
    }
    default: {
        int old_p = s->p;
        if (s->draw != 1) s->hash ^= s->rows[s->nt]->key[old_p] ^ s->rows[s->nt - 1]->key[a];
        memmove(&s->talon[a], &s->talon[a + 1], (size_t)(s->nt - a - 1));
        s->nt--;
        s->p = a;
        if (m.kind == TALON_TO_FOUNDATION) {
            set_code(s, card, ON_FOUNDATION);
            s->found[card / 13]++;
        } else {
            set_code(s, card, s->nu[b] ? ON_CARD : ON_EMPTY);
            s->up[b][s->nu[b]++] = (int8_t)card;
        }
        return old_p;
    }
    }
}

static void undo_move(S *s, Move m, int info) {
    int a = m.a, b = m.b, c = m.c, card = m.card;
    switch (m.kind) {
    case COLUMN_TO_FOUNDATION:
        if (info) unreveal_col(s, a);
        s->found[card / 13]--;
        set_code(s, card, s->nu[a] ? ON_CARD : base_code(s, a));
        s->up[a][s->nu[a]++] = (int8_t)card;
        return;
    case COLUMN_TO_COLUMN: {
        if (info) unreveal_col(s, a);
        int n = s->nu[c] - card; /* card: the string's length */
        int first = s->up[c][n];
        set_code(s, first, s->nu[a] ? ON_CARD : base_code(s, a));
        memcpy(&s->up[a][s->nu[a]], &s->up[c][n], (size_t)card);
        s->nu[a] += card;
        s->nu[c] = n;
        return;
    }
    case FOUNDATION_TO_COLUMN: {
        int top = s->up[b][--s->nu[b]];
        set_code(s, top, ON_FOUNDATION);
        s->found[a]++;
        return;
    }
    case SWAP_TO_FOUNDATION: {
        if (info) unreveal_col(s, a);
        s->found[card / 13]--;
        set_code(s, card, s->nu[a] ? ON_CARD : base_code(s, a));
        s->up[a][s->nu[a]++] = (int8_t)card;
        int n = s->nu[c] - b;
        memcpy(&s->up[a][s->nu[a]], &s->up[c][n], (size_t)b);
        s->nu[a] += b;
        s->nu[c] = n;
        return;
    }
    default:
        if (m.kind == TALON_TO_FOUNDATION)
            s->found[card / 13]--;
        else
            s->nu[b]--;
        set_code(s, card, IN_TALON);
        if (s->draw != 1) s->hash ^= s->rows[s->nt]->key[s->p] ^ s->rows[s->nt + 1]->key[info];
        memmove(&s->talon[a + 1], &s->talon[a], (size_t)(s->nt - a));
        s->talon[a] = (int8_t)card;
        s->nt++;
        s->p = info;
        return;
    }
}

static int push_auto(S *s, Move m) {
    if (grow(s, (void **)&s->autos, &s->capautos, s->nautos + 1, sizeof(Applied)) < 0) return -1;
    int info = apply_move(s, m);
    s->autos[s->nautos++] = (Applied){m, info};
    return 0;
}

/* every safe foundation move (klondike.py's _auto), onto the autos stack; -1 on error */
static int play_autos(S *s) {
    int draw1 = s->draw == 1;
    int changed = 1;
    int tops[53];
    while (changed) {
        changed = 0;
        for (int su = 0; su < 4; su++) {
            int h = s->found[su];
            if (h == 13) continue;
            int card = su * 13 + h;
            int where = s->loc[card];
            if (where >= ON_CARD) {
                if (safe(s, card)) {
                    Move m;
                    make_tops(s, tops);
                    if (to_foundation(s, card, tops, &m)) {
                        if (push_auto(s, m) < 0) return -1;
                        changed = 1;
                    }
                }
            } else if (where == IN_TALON && draw1 && safe(s, card)) {
                Move m = {TALON_TO_FOUNDATION, (int8_t)talon_index(s, card), 0, 0, (int8_t)card};
                if (push_auto(s, m) < 0) return -1;
                changed = 1;
            }
        }
        if (!draw1 && last_safe(s) && pure_draw(s)) {
            int n = s->nt;
            Move m = {TALON_TO_FOUNDATION, (int8_t)(n - 1), 0, 0, s->talon[n - 1]};
            if (push_auto(s, m) < 0) return -1;
            changed = 1;
        }
    }
    return 0;
}

static int path_push(S *s, Move m) {
    if (grow(s, (void **)&s->path, &s->cappath, s->npath + 1, sizeof(Move)) < 0) return -1;
    s->path[s->npath++] = m;
    return 0;
}

static int line_push(S *s, uint64_t k) {
    if (grow(s, (void **)&s->line, &s->capline, s->nline + 1, sizeof(uint64_t)) < 0) return -1;
    s->line[s->nline++] = k;
    return 0;
}

static int finish(S *s) {
    for (;;) {
        int best = -1;
        for (int i = 0; i < 7; i++) {
            if (!s->nu[i]) continue;
            int top = s->up[i][s->nu[i] - 1];
            int lowest = best < 0 || top % 13 < s->up[best][s->nu[best] - 1] % 13;
            if (s->found[top / 13] == top % 13 && lowest) best = i;
        }
        if (best < 0) return 0;
        Move m = {COLUMN_TO_FOUNDATION, (int8_t)best, 0, 0, s->up[best][s->nu[best] - 1]};
        apply_move(s, m);
        if (path_push(s, m) < 0) return -1;
    }
}

/* the budgets: klondike.py's _native_check(nodes, kept); 1 when the search must stop */
static int check_budget(S *s) {
    PyObject *r = PyObject_CallFunction(s->check, "Ln", s->nodes, (Py_ssize_t)s->seen->used);
    if (!r) {
        s->error = 1;
        return 1;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    s->limit = r;
    return 1;
}

static inline int no_hidden(const S *s) {
    for (int i = 0; i < 7; i++)
        if (s->nh[i]) return 0;
    return 1;
}

/* 1 won (the path holds the line, the position is the won one), 0 searched without a
 * win, -1 stopped (s->limit or s->error says why; the position is left mid-line) */
static int search(S *s) {
    s->nodes++;
    if (!(s->nodes & s->check_mask) && check_budget(s)) return -1;
    if (s->depth >= MAX_DEPTH) {
        s->limit = PyUnicode_FromString("memory");
        if (!s->limit) s->error = 1;
        return -1;
    }
    uint64_t before = s->hash;
    size_t auto_base = s->nautos;
    if (play_autos(s) < 0) return -1;
    size_t nauto = s->nautos - auto_base;
    for (size_t i = 0; i < nauto; i++)
        if (path_push(s, s->autos[auto_base + i].m) < 0) return -1;
    if (!s->nt && no_hidden(s)) return finish(s) < 0 ? -1 : 1;
    uint64_t h = s->hash;
    if (!ks_contains(s->seen, h)) {
        if (ks_add(s->seen, h) < 0 || line_push(s, h) < 0) {
            s->error = 1;
            return -1;
        }
        if (h != before) {
            if (ks_add(s->seen, before) < 0 || line_push(s, before) < 0) {
                s->error = 1;
                return -1;
            }
        }
        if ((int)s->npath > s->max_depth) s->max_depth = (int)s->npath;
        size_t base = s->nmoves;
        int n = gen_moves(s);
        if (n < 0) return -1;
        for (int i = 0; i < n; i++) {
            Move m = s->moves[base + (size_t)i];
            uint64_t key = child_key(s, m);
            if (ks_contains(s->seen, key) || (s->dominance && dominated(s, m, key))) continue;
            int info = apply_move(s, m);
            if (path_push(s, m) < 0) return -1;
            s->depth++;
            int r = search(s);
            s->depth--;
            if (r != 0) return r;
            s->npath--;
            undo_move(s, m, info);
        }
        s->nmoves = base;
        s->nline--;
        if (h != before) s->nline--;
    }
    for (size_t i = nauto; i-- > 0;) {
        Applied ap = s->autos[auto_base + i];
        s->npath--;
        undo_move(s, ap.m, ap.info);
    }
    s->nautos = auto_base;
    return 0;
}

/* ------------------------------------------------------------------ from Python */

static int int_list(PyObject *list, int8_t *out, int cap, int *n, const char *what) {
    if (!PyList_Check(list)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list", what);
        return -1;
    }
    Py_ssize_t len = PyList_GET_SIZE(list);
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s has %zd cards, more than %d", what, len, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 51) {
            PyErr_Format(PyExc_ValueError, "%s holds %ld, not a card (0-51)", what, v);
            return -1;
        }
        out[i] = (int8_t)v;
    }
    *n = (int)len;
    return 0;
}

/* n keys of a Python list into out; -1 with a Python error when it is not n ints */
static int read_keys(PyObject *row, uint64_t *out, int n, const char *what) {
    if (!PyList_Check(row) || PyList_GET_SIZE(row) != n) {
        PyErr_Format(PyExc_ValueError, "set_keys: %s must hold %d keys", what, n);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(row, k));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        out[k] = v;
    }
    return 0;
}

static PyObject *set_keys(PyObject *self, PyObject *args) {
    PyObject *z, *zh;
    if (!PyArg_ParseTuple(args, "OO:set_keys", &z, &zh)) return NULL;
    if (!PyList_Check(z) || PyList_GET_SIZE(z) != 52 || !PyList_Check(zh) ||
        PyList_GET_SIZE(zh) != 7) {
        PyErr_SetString(PyExc_ValueError, "set_keys wants 52 rows of 62 keys and 7 of 24");
        return NULL;
    }
    for (int c = 0; c < 52; c++)
        if (read_keys(PyList_GET_ITEM(z, c), Z[c], CODES, "a card's row") < 0) return NULL;
    for (int col = 0; col < 7; col++)
        if (read_keys(PyList_GET_ITEM(zh, col), ZH[col], MAX_HIDDEN, "a column's row") < 0)
            return NULL;
    keys_set = 1;
    Py_RETURN_NONE;
}

static PyObject *talon_keys(PyObject *self, PyObject *args) {
    int draw, n;
    if (!PyArg_ParseTuple(args, "ii:talon_keys", &draw, &n)) return NULL;
    if (draw < 1 || draw > 3 || n < 0 || n > 52) {
        PyErr_SetString(PyExc_ValueError, "talon_keys: draw 1-3, a talon of 0-52 cards");
        return NULL;
    }
    TalonRow *row = talon_row(draw, n);
    if (!row) return PyErr_NoMemory();
    PyObject *out = PyList_New(n + 1);
    if (!out) return NULL;
    for (int p = 0; p <= n; p++) PyList_SET_ITEM(out, p, PyLong_FromUnsignedLongLong(row->key[p]));
    return out;
}

static void free_search(S *s) {
    PyMem_RawFree(s->path);
    PyMem_RawFree(s->line);
    PyMem_RawFree(s->moves);
    PyMem_RawFree(s->autos);
}

static PyObject *move_tuple(Move m) {
    return Py_BuildValue("(iiiii)", m.kind, m.a, m.b, m.c, m.card);
}

/* dfs(hidden, up, found, talon, p, draw, loc, hash, seen, old_line, dominance, nodes,
 *     check_mask, check) -> (won, nodes, max_depth, path, line, limit)
 * won: True (path: the line), False (searched to the end) or None (stopped: limit names
 * the budget, line holds the keys of the line being searched) */
static PyObject *dfs(PyObject *self, PyObject *args) {
    PyObject *hidden, *up, *found, *talon, *loc, *seen, *old_line, *check;
    int p, draw, dominance;
    unsigned long long hash;
    long long nodes, check_mask;
    if (!PyArg_ParseTuple(args, "OOOOiiOKOOpLLO:dfs", &hidden, &up, &found, &talon, &p, &draw,
                          &loc, &hash, &seen, &old_line, &dominance, &nodes, &check_mask,
                          &check))
        return NULL;
    if (!keys_set) {
        PyErr_SetString(PyExc_RuntimeError, "klondike_native.set_keys was not called");
        return NULL;
    }
    if (!PyObject_TypeCheck(seen, &KeySetType) ||
        (old_line != Py_None && !PyObject_TypeCheck(old_line, &KeySetType))) {
        PyErr_SetString(PyExc_TypeError, "dfs: the table and old line must be KeySets");
        return NULL;
    }
    if (draw < 1 || draw > 3) {
        PyErr_Format(PyExc_ValueError, "dfs: draw %d is not 1, 2 or 3", draw);
        return NULL;
    }
    if (!PyList_Check(hidden) || PyList_GET_SIZE(hidden) != 7 || !PyList_Check(up) ||
        PyList_GET_SIZE(up) != 7 || !PyList_Check(found) || PyList_GET_SIZE(found) != 4 ||
        !PyList_Check(loc) || PyList_GET_SIZE(loc) != 52) {
        PyErr_SetString(PyExc_ValueError, "dfs: 7 columns, 4 foundations and 52 places");
        return NULL;
    }
    S *s = (S *)PyMem_RawCalloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    PyObject *result = NULL;
    s->draw = draw;
    for (int i = 0; i < 7; i++) {
        if (int_list(PyList_GET_ITEM(hidden, i), s->hid[i], MAX_HIDDEN - 1, &s->nh[i],
                     "a column's face-down cards") < 0 ||
            int_list(PyList_GET_ITEM(up, i), s->up[i], 52, &s->nu[i],
                     "a column's face-up cards") < 0)
            goto done;
    }
    for (int f = 0; f < 4; f++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(found, f));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < 0 || v > 13) {
            PyErr_Format(PyExc_ValueError, "dfs: a foundation of %ld cards", v);
            goto done;
        }
        s->found[f] = (int)v;
    }
    if (int_list(talon, s->talon, 52, &s->nt, "the talon") < 0) goto done;
    if (p < 0 || p > s->nt) {
        PyErr_Format(PyExc_ValueError, "dfs: draw position %d of a talon of %d", p, s->nt);
        goto done;
    }
    s->p = p;
    for (int c = 0; c < 52; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(loc, c));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < -1 || v >= CODES) {
            PyErr_Format(PyExc_ValueError, "dfs: card %d has place code %ld", c, v);
            goto done;
        }
        s->loc[c] = (int)v;
    }
    for (int n = 0; n <= s->nt; n++) {
        s->rows[n] = talon_row(draw, n);
        if (!s->rows[n]) {
            PyErr_NoMemory();
            goto done;
        }
    }
    s->hash = hash;
    s->seen = (KeySet *)seen;
    s->old_line = old_line == Py_None ? NULL : (KeySet *)old_line;
    s->dominance = dominance;
    s->nodes = nodes;
    s->check_mask = check_mask;
    s->check = check;
    int r = search(s);
    if (s->error) goto done;
    PyObject *path = PyList_New(r == 1 ? (Py_ssize_t)s->npath : 0);
    if (!path) goto done;
    if (r == 1) {
        for (size_t i = 0; i < s->npath; i++) {
            PyObject *t = move_tuple(s->path[i]);
            if (!t) {
                Py_DECREF(path);
                goto done;
            }
            PyList_SET_ITEM(path, i, t);
        }
    }
    PyObject *line = PyList_New(r < 0 ? (Py_ssize_t)s->nline : 0);
    if (!line) {
        Py_DECREF(path);
        goto done;
    }
    if (r < 0) {
        for (size_t i = 0; i < s->nline; i++) {
            PyObject *k = PyLong_FromUnsignedLongLong(s->line[i]);
            if (!k) {
                Py_DECREF(path);
                Py_DECREF(line);
                goto done;
            }
            PyList_SET_ITEM(line, i, k);
        }
    }
    PyObject *won = r == 1 ? Py_True : r == 0 ? Py_False : Py_None;
    PyObject *limit = s->limit ? s->limit : Py_None;
    result = Py_BuildValue("(OLiNNO)", won, s->nodes, s->max_depth, path, line, limit);
done:
    Py_XDECREF(s->limit);
    free_search(s);
    PyMem_RawFree(s);
    return result;
}

/* blocked(hidden) -> bool: klondike.py's KlondikeSearch.blocked, a face-down card that can
 * never leave its column (the same fixed point, worked out on arrays) */
static PyObject *blocked(PyObject *self, PyObject *arg) {
    int8_t hid[7][53];
    int nh[7];
    int col_of[52], pos_of[52];
    char free_[52];
    if (!PyList_Check(arg) || PyList_GET_SIZE(arg) != 7) {
        PyErr_SetString(PyExc_ValueError, "blocked: 7 columns of face-down cards");
        return NULL;
    }
    for (int c = 0; c < 52; c++) col_of[c] = -1;
    int count = 0, nfree = 0;
    for (int i = 0; i < 7; i++) {
        if (int_list(PyList_GET_ITEM(arg, i), hid[i], MAX_HIDDEN - 1, &nh[i],
                     "a column's face-down cards") < 0)
            return NULL;
        for (int k = 0; k < nh[i]; k++) {
            int c = hid[i][k];
            if (col_of[c] >= 0) {
                PyErr_Format(PyExc_ValueError, "blocked: card %d is face down twice", c);
                return NULL;
            }
            col_of[c] = i;
            pos_of[c] = k;
            count++;
        }
    }
    for (int c = 0; c < 52; c++) {
        free_[c] = col_of[c] >= 0 && (c % 13 == 0 || c % 13 == KING);
        nfree += free_[c];
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < 7; i++) {
            for (int k = 0; k < nh[i]; k++) {
                int c = hid[i][k];
                if (free_[c]) continue;
                int exits[3] = {(c / 13) * 13 + c % 13 - 1, PA[c], PB[c]};
                for (int e = 0; e < 3; e++) {
                    int x = exits[e];
                    int ok;
                    if (col_of[x] < 0) {
                        ok = 1; /* face up, in the talon or on a foundation */
                    } else {
                        int xcol = col_of[x], xpos = pos_of[x];
                        if (xcol == i && xpos < k) continue; /* under this very card */
                        ok = 1;
                        for (int j = xpos + 1; j < nh[xcol]; j++) {
                            int y = hid[xcol][j];
                            if (!free_[y] && y != c) {
                                ok = 0;
                                break;
                            }
                        }
                    }
                    if (ok) {
                        free_[c] = 1;
                        nfree++;
                        changed = 1;
                        break;
                    }
                }
            }
        }
    }
    return PyBool_FromLong(nfree < count);
}

static PyMethodDef module_methods[] = {
    {"set_keys", set_keys, METH_VARARGS,
     "set_keys(Z, ZH): klondike.py's Zobrist keys (52 rows of 62, 7 rows of 24)."},
    {"talon_keys", talon_keys, METH_VARARGS,
     "talon_keys(draw, n): the talon keys by draw position (klondike.py's _reach_row)."},
    {"dfs", dfs, METH_VARARGS, "One depth-first search (see the module's source)."},
    {"blocked", blocked, METH_O,
     "blocked(hidden): a face-down card can never leave its column (klondike.py's blocked)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "klondike_native",
    "The Klondike search's depth-first search in C (see klondike_native.c).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_klondike_native(void) {
    for (int c = 0; c < 52; c++) {
        int r = c % 13, su = c / 13;
        if (r < KING) {
            int o0 = su < 2 ? 2 : 0, o1 = su < 2 ? 3 : 1;
            PA[c] = o0 * 13 + r + 1;
            PB[c] = o1 * 13 + r + 1;
        } else {
            PA[c] = PB[c] = 52;
        }
    }
    if (PyType_Ready(&KeySetType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&KeySetType);
    if (PyModule_AddObject(m, "KeySet", (PyObject *)&KeySetType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_SHA256", PK_SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
