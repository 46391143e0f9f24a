/* Optional accelerator for tokenize.py: the term counts of a text, as the pure-Python path
 * (tokenize._py_counts) makes them, in one C pass; the terms of a run (tokenize._run_terms);
 * the index's body column (tokenize._py_capped_text).
 *
 * Counting is most of an index's CPU that is not the outline: the Python path splits the text
 * into runs of identifier characters (one string object per occurrence), counts them, then
 * builds and re-counts a stream of their terms. Here the runs are counted in a hash table over
 * the text itself, each distinct run's terms come from a per-process cache (computed here on a
 * miss), and the terms are tallied by object before one dict is made.
 *
 * A run is a maximal sequence of [A-Za-z0-9_$]; any other code point separates runs, as in
 * tokenize._runs. The result is a dict of term -> count in the order of first appearance,
 * equal to the Python path's Counter; tests/test_speedups.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static unsigned char RUN_CHAR[128];

/* An open-addressing index over an array of entries kept in order of insertion: each slot
 * holds an entry's number, -1 when empty. A power of two, kept at most half full: its owner
 * doubles it (slots_double) whenever it doubles the entries' array (grow_array). */
typedef struct {
    Py_ssize_t *at;
    size_t mask;
} Slots;

static int
slots_init(Slots *s, Py_ssize_t n)
{
    s->at = PyMem_Malloc(sizeof(Py_ssize_t) * n);
    if (s->at == NULL) {
        return -1;
    }
    memset(s->at, 0xff, sizeof(Py_ssize_t) * n);
    s->mask = (size_t)n - 1;
    return 0;
}

/* Twice the slots, refilled with entries 0..count-1 by their hashes. */
static int
slots_double(Slots *s, Py_ssize_t count, size_t (*hash_of)(const void *, Py_ssize_t),
             const void *entries)
{
    Slots bigger;
    if (slots_init(&bigger, (Py_ssize_t)(2 * (s->mask + 1))) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        size_t j = hash_of(entries, i) & bigger.mask;
        while (bigger.at[j] >= 0) {
            j = (j + 1) & bigger.mask;
        }
        bigger.at[j] = i;
    }
    PyMem_Free(s->at);
    *s = bigger;
    return 0;
}

/* Twice the room in an array of `size`-byte entries. */
static int
grow_array(void **items, Py_ssize_t *cap, size_t size)
{
    if (*cap > PY_SSIZE_T_MAX / (Py_ssize_t)(4 * size)) {
        return -1;
    }
    void *bigger = PyMem_Realloc(*items, size * (size_t)(*cap * 2));
    if (bigger == NULL) {
        return -1;
    }
    *items = bigger;
    *cap *= 2;
    return 0;
}

typedef struct {
    Py_ssize_t start, len, count;
    uint64_t hash;
} Run;

/* A text's distinct runs, in order of first appearance. */
typedef struct {
    Run *runs;
    Py_ssize_t n, cap;
    Slots index;
} Table;

static size_t
run_hash(const void *runs, Py_ssize_t i)
{
    return (size_t)((const Run *)runs)[i].hash;
}

static int
table_init(Table *t)
{
    t->n = 0;
    t->cap = 256;
    t->runs = PyMem_Malloc(sizeof(Run) * t->cap);
    return t->runs == NULL || slots_init(&t->index, 2 * t->cap) < 0 ? -1 : 0;
}

static void
table_free(Table *t)
{
    PyMem_Free(t->runs);
    PyMem_Free(t->index.at);
}

/* Count the run at [start, start + len) of `data`, whose code units are `kind` bytes wide. */
static int
table_add(Table *t, const char *data, int kind, Py_ssize_t start, Py_ssize_t len, uint64_t hash)
{
    if (t->n == t->cap && (grow_array((void **)&t->runs, &t->cap, sizeof(Run)) < 0 ||
                           slots_double(&t->index, t->n, run_hash, t->runs) < 0)) {
        return -1;
    }
    size_t j = (size_t)hash & t->index.mask;
    for (;;) {
        Py_ssize_t k = t->index.at[j];
        if (k < 0) {
            break;
        }
        Run *r = &t->runs[k];
        if (r->hash == hash && r->len == len &&
            memcmp(data + r->start * kind, data + start * kind, (size_t)len * kind) == 0) {
            r->count++;
            return 0;
        }
        j = (j + 1) & t->index.mask;
    }
    Run *r = &t->runs[t->n];
    r->start = start;
    r->len = len;
    r->count = 1;
    r->hash = hash;
    t->index.at[j] = t->n++;
    return 0;
}

/* FNV-1a over the run's characters; every run character is ASCII. */
#define SCAN(TYPE)                                                                     \
    do {                                                                               \
        const TYPE *p = (const TYPE *)data;                                            \
        Py_ssize_t i = 0;                                                              \
        while (i < n) {                                                                \
            Py_UCS4 c = p[i];                                                          \
            if (c >= 128 || !RUN_CHAR[c]) {                                            \
                i++;                                                                   \
                continue;                                                              \
            }                                                                          \
            Py_ssize_t s = i;                                                          \
            uint64_t h = 1469598103934665603ULL;                                       \
            while (i < n && (c = p[i]) < 128 && RUN_CHAR[c]) {                         \
                h = (h ^ c) * 1099511628211ULL;                                        \
                i++;                                                                   \
            }                                                                          \
            if (table_add(&t, data, kind, s, i - s, h) < 0) {                          \
                PyErr_NoMemory();                                                      \
                goto fail;                                                             \
            }                                                                          \
        }                                                                              \
    } while (0)

static PyObject *terms_of(const char *s, Py_ssize_t n);
static int configured; /* configure() was called */

/* The terms of every distinct run met in this process, by the run's characters: a hit costs a
 * probe with the hash the scan already made, no string and no dict look-up. Cleared when full
 * (before a text, never during one); runs longer than CACHE_RUN_MAX are not kept. */
#define CACHE_RUN_MAX 256

typedef struct {
    uint64_t hash;
    Py_ssize_t len;
    char *chars; /* NULL: empty slot */
    PyObject *terms;
} Cached;

static Cached *cache;
static Py_ssize_t cache_slots, cache_n, cache_max = 200000;

static void
cache_clear(void)
{
    for (Py_ssize_t i = 0; i < cache_slots; i++) {
        if (cache[i].chars != NULL) {
            PyMem_Free(cache[i].chars);
            Py_DECREF(cache[i].terms);
            cache[i].chars = NULL;
        }
    }
    cache_n = 0;
}

static int
cache_grow(void)
{
    Py_ssize_t slots = cache_slots ? cache_slots * 2 : 4096;
    Cached *table = PyMem_Calloc((size_t)slots, sizeof(Cached));
    if (table == NULL) {
        return -1;
    }
    size_t mask = (size_t)slots - 1;
    for (Py_ssize_t i = 0; i < cache_slots; i++) {
        if (cache[i].chars != NULL) {
            size_t j = (size_t)cache[i].hash & mask;
            while (table[j].chars != NULL) {
                j = (j + 1) & mask;
            }
            table[j] = cache[i];
        }
    }
    PyMem_Free(cache);
    cache = table;
    cache_slots = slots;
    return 0;
}

/* New reference to the terms of the run chars[0:len] (ASCII), from the cache or computed. */
static PyObject *
cached_terms(const char *chars, Py_ssize_t len, uint64_t hash)
{
    if (len > CACHE_RUN_MAX) {
        return terms_of(chars, len);
    }
    if (2 * (cache_n + 1) > cache_slots && cache_grow() < 0) {
        return PyErr_NoMemory();
    }
    size_t mask = (size_t)cache_slots - 1, j = (size_t)hash & mask;
    while (cache[j].chars != NULL) {
        Cached *c = &cache[j];
        if (c->hash == hash && c->len == len && memcmp(c->chars, chars, (size_t)len) == 0) {
            Py_INCREF(c->terms);
            return c->terms;
        }
        j = (j + 1) & mask;
    }
    PyObject *terms = terms_of(chars, len);
    if (terms == NULL) {
        return NULL;
    }
    /* terms_of allocates, and a collection it sets off can run code that uses the cache:
     * look for the slot again */
    if (2 * (cache_n + 1) > cache_slots && cache_grow() < 0) {
        return terms; /* not kept; still right */
    }
    mask = (size_t)cache_slots - 1;
    j = (size_t)hash & mask;
    while (cache[j].chars != NULL) {
        Cached *c = &cache[j];
        if (c->hash == hash && c->len == len && memcmp(c->chars, chars, (size_t)len) == 0) {
            Py_INCREF(c->terms);
            Py_DECREF(terms);
            return c->terms;
        }
        j = (j + 1) & mask;
    }
    char *copy = PyMem_Malloc((size_t)len + 1);
    if (copy == NULL) {
        return terms; /* not kept; still right */
    }
    memcpy(copy, chars, (size_t)len);
    cache[j].hash = hash;
    cache[j].len = len;
    cache[j].chars = copy;
    cache[j].terms = terms;
    cache_n++;
    Py_INCREF(terms);
    return terms;
}

/* Term counts of one text, by term object (terms are interned: one object per term), in order
 * of first appearance. Each entry holds a reference to its term. */
typedef struct {
    PyObject *term;
    Py_ssize_t count;
} Tally;

typedef struct {
    Tally *items;
    Py_ssize_t n, cap;
    Slots index;
} Tallies;

static inline size_t
pointer_hash(PyObject *p)
{
    return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ULL);
}

static size_t
tally_hash(const void *items, Py_ssize_t i)
{
    return pointer_hash(((const Tally *)items)[i].term);
}

static int
tallies_init(Tallies *t)
{
    t->n = 0;
    t->cap = 256;
    t->items = PyMem_Malloc(sizeof(Tally) * t->cap);
    return t->items == NULL || slots_init(&t->index, 2 * t->cap) < 0 ? -1 : 0;
}

static void
tallies_free(Tallies *t)
{
    for (Py_ssize_t i = 0; i < t->n; i++) {
        Py_DECREF(t->items[i].term);
    }
    PyMem_Free(t->items);
    PyMem_Free(t->index.at);
}

/* Add `times` to every term of the tuple (a term listed twice counts twice). */
static int
tallies_add(Tallies *t, PyObject *terms, Py_ssize_t times)
{
    Py_ssize_t m = PyTuple_GET_SIZE(terms);
    for (Py_ssize_t q = 0; q < m; q++) {
        PyObject *term = PyTuple_GET_ITEM(terms, q);
        if (t->n == t->cap && (grow_array((void **)&t->items, &t->cap, sizeof(Tally)) < 0 ||
                               slots_double(&t->index, t->n, tally_hash, t->items) < 0)) {
            PyErr_NoMemory();
            return -1;
        }
        size_t j = pointer_hash(term) & t->index.mask;
        for (;;) {
            Py_ssize_t k = t->index.at[j];
            if (k < 0) {
                Py_INCREF(term);
                t->items[t->n].term = term;
                t->items[t->n].count = times;
                t->index.at[j] = t->n++;
                break;
            }
            if (t->items[k].term == term) {
                t->items[k].count += times;
                break;
            }
            j = (j + 1) & t->index.mask;
        }
    }
    return 0;
}

PyDoc_STRVAR(count_terms_doc,
"count_terms(text, cap) -> dict\n\n"
"Term counts of `text`: every distinct run of [A-Za-z0-9_$] gives its terms (run_terms,\n"
"cached per process) once per occurrence of the run, or at most `cap` times per run when\n"
"cap > 0. Terms in order of first appearance.");

static PyObject *
count_terms(PyObject *self, PyObject *args)
{
    PyObject *text;
    Py_ssize_t cap;
    if (!PyArg_ParseTuple(args, "Un:count_terms", &text, &cap)) {
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "count_terms: call configure() first");
        return NULL;
    }
    if (cache_n >= cache_max) {
        cache_clear();
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const char *data = PyUnicode_DATA(text);
    PyObject *out = NULL;
    char *wide = NULL; /* a run of a 2- or 4-byte text, as bytes */
    Table t = {NULL, 0, 0, {NULL, 0}};
    Tallies tallies = {NULL, 0, 0, {NULL, 0}};
    if (table_init(&t) < 0 || tallies_init(&tallies) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    if (kind == PyUnicode_1BYTE_KIND) {
        SCAN(Py_UCS1);
    }
    else if (kind == PyUnicode_2BYTE_KIND) {
        SCAN(Py_UCS2);
    }
    else {
        SCAN(Py_UCS4);
    }
    for (Py_ssize_t k = 0; k < t.n; k++) {
        Run *r = &t.runs[k];
        const char *chars = data + r->start;
        if (kind != PyUnicode_1BYTE_KIND) {
            PyMem_Free(wide);
            wide = PyMem_Malloc((size_t)r->len + 1);
            if (wide == NULL) {
                PyErr_NoMemory();
                goto fail;
            }
            for (Py_ssize_t i = 0; i < r->len; i++) {
                wide[i] = (char)PyUnicode_READ(kind, data, r->start + i);
            }
            chars = wide;
        }
        PyObject *terms = cached_terms(chars, r->len, r->hash);
        if (terms == NULL) {
            goto fail;
        }
        Py_ssize_t times = (cap > 0 && r->count > cap) ? cap : r->count;
        int rc = tallies_add(&tallies, terms, times);
        Py_DECREF(terms);
        if (rc < 0) {
            goto fail;
        }
    }
    out = PyDict_New();
    if (out == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i < tallies.n; i++) {
        /* a term not interned (interning can fail without an error) may equal another */
        Py_ssize_t count = tallies.items[i].count;
        PyObject *before = PyDict_GetItemWithError(out, tallies.items[i].term); /* borrowed */
        if (before != NULL) {
            count += PyLong_AsSsize_t(before);
        }
        PyObject *value = PyErr_Occurred() ? NULL : PyLong_FromSsize_t(count);
        if (value == NULL || PyDict_SetItem(out, tallies.items[i].term, value) < 0) {
            Py_XDECREF(value);
            Py_CLEAR(out);
            goto fail;
        }
        Py_DECREF(value);
    }
    PyMem_Free(wide);
    tallies_free(&tallies);
    table_free(&t);
    return out;
fail:
    PyMem_Free(wide);
    tallies_free(&tallies);
    table_free(&t);
    return NULL;
}

PyDoc_STRVAR(body_text_doc,
"body_text(counts, cap) -> str\n\n"
"Each term of the dict repeated min(count, cap) times, in the dict's order, separated by\n"
"spaces: index._body_text without a string per term.");

static PyObject *
body_text(PyObject *self, PyObject *args)
{
    PyObject *counts;
    Py_ssize_t cap;
    if (!PyArg_ParseTuple(args, "O!n:body_text", &PyDict_Type, &counts, &cap)) {
        return NULL;
    }
    if (cap < 1) {
        PyErr_SetString(PyExc_ValueError, "body_text: cap must be at least 1");
        return NULL;
    }
    /* a snapshot (two lists, not a tuple per item): no code that runs meanwhile (a collection)
     * can change what is written */
    PyObject *terms = PyDict_Keys(counts), *values = PyDict_Values(counts);
    if (terms == NULL || values == NULL) {
        Py_XDECREF(terms);
        Py_XDECREF(values);
        return NULL;
    }
    Py_ssize_t nitems = PyList_GET_SIZE(terms), total = 0;
    Py_UCS4 maxchar = ' ';
    for (Py_ssize_t i = 0; i < nitems; i++) {
        PyObject *term = PyList_GET_ITEM(terms, i), *count = PyList_GET_ITEM(values, i);
        if (!PyUnicode_Check(term)) {
            Py_DECREF(terms);
            Py_DECREF(values);
            PyErr_SetString(PyExc_TypeError, "body_text: terms must be str");
            return NULL;
        }
        Py_ssize_t n = PyLong_AsSsize_t(count);
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(terms);
            Py_DECREF(values);
            return NULL;
        }
        if (n <= 0) {
            continue;
        }
        Py_ssize_t times = n < cap ? n : cap;
        Py_ssize_t len = PyUnicode_GET_LENGTH(term);
        if (len > (PY_SSIZE_T_MAX - total) / times - 1) {
            Py_DECREF(terms);
            Py_DECREF(values);
            return PyErr_NoMemory();
        }
        total += times * (len + 1);
        Py_UCS4 m = PyUnicode_MAX_CHAR_VALUE(term);
        if (m > maxchar) {
            maxchar = m;
        }
    }
    if (total == 0) {
        Py_DECREF(terms);
        Py_DECREF(values);
        return PyUnicode_New(0, 0);
    }
    PyObject *out = PyUnicode_New(total - 1, maxchar); /* no space after the last term */
    if (out == NULL) {
        Py_DECREF(terms);
        Py_DECREF(values);
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < nitems; i++) {
        PyObject *term = PyList_GET_ITEM(terms, i);
        Py_ssize_t n = PyLong_AsSsize_t(PyList_GET_ITEM(values, i));
        if (n <= 0) {
            continue;
        }
        Py_ssize_t times = n < cap ? n : cap, len = PyUnicode_GET_LENGTH(term);
        for (Py_ssize_t k = 0; k < times; k++) {
            /* bounds-checked: it raises rather than write past the end */
            if (PyUnicode_CopyCharacters(out, at, term, 0, len) < 0) {
                Py_DECREF(terms);
                Py_DECREF(values);
                Py_DECREF(out);
                return NULL;
            }
            at += len;
            if (at < total - 1) {
                PyUnicode_WRITE(PyUnicode_KIND(out), PyUnicode_DATA(out), at, ' ');
                at++;
            }
        }
    }
    Py_DECREF(terms);
    Py_DECREF(values);
    return out;
}

/* ---------------------------------------------------------------------------------------
 * run_terms: tokenize._run_terms for one run, as a tuple (computed once per distinct run and
 * process; a tree has hundreds of thousands). configure() gives it tokenize's constants, so
 * the stop words, suffixes and limits have one source.
 */

#define MAX_STOP 512
#define MAX_SUFFIXES 64
#define WORD_MAX 64

static char stop_words[MAX_STOP][WORD_MAX];
static Py_ssize_t stop_lens[MAX_STOP];
static int n_stop;
static char suffixes[MAX_SUFFIXES][WORD_MAX];
static Py_ssize_t suffix_lens[MAX_SUFFIXES];
static int n_suffixes;
static Py_ssize_t min_part, max_token, max_name, min_stem;
static int configured;

static int
is_stop(const char *w, Py_ssize_t n)
{
    for (int i = 0; i < n_stop; i++) {
        if (stop_lens[i] == n && stop_words[i][0] == w[0] &&
            memcmp(stop_words[i], w, (size_t)n) == 0) {
            return 1;
        }
    }
    return 0;
}

static int
copy_words(PyObject *words, char (*out)[WORD_MAX], Py_ssize_t *lens, int cap, int *count)
{
    PyObject *seq = PySequence_Fast(words, "configure: expected an iterable of words");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "configure: too many words");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len;
        const char *w = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(seq, i), &len);
        if (w == NULL || len >= WORD_MAX) {
            Py_DECREF(seq);
            if (w != NULL) {
                PyErr_SetString(PyExc_ValueError, "configure: word too long");
            }
            return -1;
        }
        memcpy(out[i], w, (size_t)len);
        lens[i] = len;
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 0;
}

PyDoc_STRVAR(configure_doc,
"configure(stop_words, suffixes, min_part, max_token, max_name, min_stem, cache_size)\n\n"
"tokenize's constants, for run_terms and count_terms; cache_size: runs kept per process.");

static PyObject *
configure(PyObject *self, PyObject *args)
{
    PyObject *stops, *sufs;
    Py_ssize_t part, token, name, stem, cache_size;
    if (!PyArg_ParseTuple(args, "OOnnnnn:configure", &stops, &sufs, &part, &token, &name,
                          &stem, &cache_size)) {
        return NULL;
    }
    /* the buffers of terms_of hold max_name characters; the stemmer reads w[n - 3] */
    if (part < 1 || token < 1 || token > 1024 || name < 1 || name > 1024 || stem < 2 ||
        cache_size < 1) {
        PyErr_SetString(PyExc_ValueError, "configure: a limit is out of range");
        return NULL;
    }
    configured = 0;
    if (cache != NULL) {
        cache_clear(); /* terms made with other constants */
    }
    if (copy_words(stops, stop_words, stop_lens, MAX_STOP, &n_stop) < 0 ||
        copy_words(sufs, suffixes, suffix_lens, MAX_SUFFIXES, &n_suffixes) < 0) {
        return NULL;
    }
    min_part = part;
    max_token = token;
    max_name = name;
    min_stem = stem;
    cache_max = cache_size;
    configured = 1;
    Py_RETURN_NONE;
}

#define IS_UPPER(c) ((c) >= 'A' && (c) <= 'Z')
#define IS_LOWER(c) ((c) >= 'a' && (c) <= 'z')
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_ALPHA(c) (IS_UPPER(c) || IS_LOWER(c))

/* tokenize._stem of a lower-case word, in place; returns the new length. */
static Py_ssize_t
stem_word(char *w, Py_ssize_t n)
{
    Py_ssize_t out = n;
    for (int i = 0; i < n_suffixes; i++) {
        Py_ssize_t k = suffix_lens[i];
        if (k > n || memcmp(w + n - k, suffixes[i], (size_t)k) != 0 || n - k < min_stem) {
            continue;
        }
        if (k == 1 && suffixes[i][0] == 's' && (w[n - 2] == 's' || w[n - 2] == 'u')) {
            continue;
        }
        if (k == 2 && suffixes[i][0] == 'e' && suffixes[i][1] == 's' &&
            !strchr("sxzhi", w[n - 3]) && !strchr("aeiou", w[n - 3])) {
            out = n - 1;
        }
        else {
            out = n - k;
        }
        /* a word that ends in -er loses it whatever suffix came after it */
        if (out - 2 >= min_stem && w[out - 2] == 'e' && w[out - 1] == 'r') {
            out -= 2;
        }
        break;
    }
    if (out > min_stem && (w[out - 1] == 'e' || w[out - 1] == 'y')) {
        out--;
    }
    return out;
}

/* Append the stemmed term of w[0:n] (lower case, n <= max_name) to the list. */
static int
append_stemmed(PyObject *list, const char *w, Py_ssize_t n)
{
    char buf[1100];
    memcpy(buf, w, (size_t)n);
    Py_ssize_t m = n <= min_stem ? n : stem_word(buf, n);
    PyObject *term = PyUnicode_FromStringAndSize(buf, m);
    if (term == NULL) {
        return -1;
    }
    PyUnicode_InternInPlace(&term); /* one object per term: count_terms adds by address */
    int rc = PyList_Append(list, term);
    Py_DECREF(term);
    return rc;
}

/* tokenize._name_terms of name[0:n] (an IDENT_RE match), appended to the list. */
static int
name_terms(PyObject *list, const char *name, Py_ssize_t n)
{
    if (n > max_name) {
        return 0;
    }
    char whole[1100];
    Py_ssize_t wn = 0, nparts = 0, i = 0;
    while (i < n) {
        /* _PARTS_RE: (?:[A-Z]{2,}(?=s(?![a-z]))|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+)
           [0-9]*|[0-9]+ */
        char c = name[i];
        Py_ssize_t j;
        if (IS_UPPER(c)) {
            Py_ssize_t u = i;
            while (u < n && IS_UPPER(name[u])) {
                u++;
            }
            if (u - i >= 2 && u < n && name[u] == 's' && (u + 1 >= n || !IS_LOWER(name[u + 1]))) {
                j = u; /* an acronym before its plural's s: URL|s */
            }
            else if (u - i >= 2 && u < n && IS_LOWER(name[u])) {
                j = u - 1; /* an acronym before a capitalised word: HTTP|Server */
            }
            else if (u - i == 1 && u < n && IS_LOWER(name[u])) {
                j = u;
                while (j < n && IS_LOWER(name[j])) {
                    j++;
                }
                while (j < n && IS_DIGIT(name[j])) {
                    j++;
                }
            }
            else {
                j = u;
                while (j < n && IS_DIGIT(name[j])) {
                    j++;
                }
            }
        }
        else if (IS_LOWER(c)) {
            j = i;
            while (j < n && IS_LOWER(name[j])) {
                j++;
            }
            while (j < n && IS_DIGIT(name[j])) {
                j++;
            }
        }
        else if (IS_DIGIT(c)) {
            j = i;
            while (j < n && IS_DIGIT(name[j])) {
                j++;
            }
        }
        else {
            i++; /* `_` and `$` separate parts */
            continue;
        }
        char part[1100];
        Py_ssize_t pn = j - i, digits = 1;
        for (Py_ssize_t k = 0; k < pn; k++) {
            char ch = name[i + k];
            part[k] = IS_UPPER(ch) ? (char)(ch + 32) : ch;
            if (!IS_DIGIT(ch)) {
                digits = 0;
            }
        }
        memcpy(whole + wn, part, (size_t)pn);
        wn += pn;
        nparts++;
        if (pn >= min_part && !digits && !is_stop(part, pn) &&
            append_stemmed(list, part, pn) < 0) {
            return -1;
        }
        i = j;
    }
    if (nparts > 1 && wn <= max_token) {
        /* the compound's whole goes through _stem directly, as in Python */
        Py_ssize_t m = stem_word(whole, wn);
        PyObject *term = PyUnicode_FromStringAndSize(whole, m);
        if (term == NULL) {
            return -1;
        }
        PyUnicode_InternInPlace(&term);
        int rc = PyList_Append(list, term);
        Py_DECREF(term);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(run_terms_doc,
"run_terms(run) -> tuple\n\n"
"tokenize._run_terms(run).split() for a run of [A-Za-z0-9_$] (ValueError for other text).");

static PyObject *
run_terms(PyObject *self, PyObject *arg)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "run_terms: call configure() first");
        return NULL;
    }
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "run_terms: expected a str");
        return NULL;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(arg, &n);
    if (s == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 128 || !RUN_CHAR[c]) {
            PyErr_SetString(PyExc_ValueError, "run_terms: not a run of [A-Za-z0-9_$]");
            return NULL;
        }
    }
    return terms_of(s, n);
}

/* The terms of the run s[0:n], every character in [A-Za-z0-9_$] (checked by the caller). */
static PyObject *
terms_of(const char *s, Py_ssize_t n)
{
    int all_digit = n > 0, all_alpha = n > 0, upper = 0, lower = 0, title = n > 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!IS_DIGIT(c)) {
            all_digit = 0;
        }
        if (!IS_ALPHA(c)) {
            all_alpha = 0;
        }
        if (IS_UPPER(c)) {
            upper++;
            if (i > 0) {
                title = 0;
            }
        }
        else if (IS_LOWER(c)) {
            lower++;
            if (i == 0) {
                title = 0;
            }
        }
    }
    if (n == 0 || all_digit) {
        return PyTuple_New(0); /* a number names nothing */
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    if (all_alpha && (upper == 0 || lower == 0 || title)) {
        /* one word (token, Token, TOKEN) */
        if (n >= min_part && n <= max_name) {
            char w[1100];
            for (Py_ssize_t i = 0; i < n; i++) {
                w[i] = IS_UPPER(s[i]) ? (char)(s[i] + 32) : s[i];
            }
            if (!is_stop(w, n) && append_stemmed(list, w, n) < 0) {
                goto fail;
            }
        }
    }
    else if (IS_DIGIT(s[0])) {
        /* IDENT_RE's matches: [A-Za-z_$][A-Za-z0-9_$]* | (?<![0-9])[0-9]++[A-Za-z_][A-Za-z0-9_]* */
        Py_ssize_t i = 0;
        while (i < n) {
            char c = s[i];
            if (IS_ALPHA(c) || c == '_' || c == '$') {
                if (name_terms(list, s + i, n - i) < 0) {
                    goto fail;
                }
                break;
            }
            if (i == 0 || !IS_DIGIT(s[i - 1])) {
                Py_ssize_t j = i;
                while (j < n && IS_DIGIT(s[j])) {
                    j++;
                }
                if (j < n && (IS_ALPHA(s[j]) || s[j] == '_')) {
                    Py_ssize_t k = j;
                    while (k < n && s[k] != '$') {
                        k++;
                    }
                    if (name_terms(list, s + i, k - i) < 0) {
                        goto fail;
                    }
                    i = k;
                    continue;
                }
            }
            i++;
        }
    }
    else if (name_terms(list, s, n) < 0) {
        goto fail;
    }
    PyObject *out = PyList_AsTuple(list);
    Py_DECREF(list);
    return out;
fail:
    Py_DECREF(list);
    return NULL;
}

static PyMethodDef methods[] = {
    {"count_terms", count_terms, METH_VARARGS, count_terms_doc},
    {"body_text", body_text, METH_VARARGS, body_text_doc},
    {"configure", configure, METH_VARARGS, configure_doc},
    {"run_terms", run_terms, METH_O, run_terms_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C paths of tokenize.py.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    const char *chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$";
    for (const char *c = chars; *c; c++) {
        RUN_CHAR[(unsigned char)*c] = 1;
    }
    return PyModule_Create(&module);
}
