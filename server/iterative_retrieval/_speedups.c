/* Optional accelerator for tokenize.py: the term counts of a text, as the pure-Python path
 * (tokenize._py_counts) makes them, in one C pass.
 *
 * Counting is most of an index's CPU that is not the outline: the Python path splits the text
 * into runs of identifier characters (one string object per occurrence), counts them, then
 * builds and re-counts a stream of their terms. Here the runs are counted in a hash table over
 * the text itself; only each distinct run becomes a string, for the memo look-up that turns it
 * into terms (computed in Python on a miss, through the memo's __missing__).
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

typedef struct {
    Py_ssize_t start, len, count;
    uint64_t hash;
} Run;

/* Distinct runs in order of first appearance, with an open-addressing index over them. */
typedef struct {
    Run *runs;
    Py_ssize_t n, cap;
    Py_ssize_t *slots; /* index into runs, -1 when empty; a power of two, at most half full */
    Py_ssize_t nslots;
} Table;

static int
table_init(Table *t)
{
    t->n = 0;
    t->cap = 256;
    t->nslots = 512;
    t->runs = PyMem_Malloc(sizeof(Run) * t->cap);
    t->slots = PyMem_Malloc(sizeof(Py_ssize_t) * t->nslots);
    if (t->runs == NULL || t->slots == NULL) {
        return -1;
    }
    memset(t->slots, 0xff, sizeof(Py_ssize_t) * t->nslots);
    return 0;
}

static void
table_free(Table *t)
{
    PyMem_Free(t->runs);
    PyMem_Free(t->slots);
}

static int
table_grow(Table *t)
{
    if (t->cap > PY_SSIZE_T_MAX / (Py_ssize_t)(4 * sizeof(Run))) {
        return -1;
    }
    Py_ssize_t cap = t->cap * 2, nslots = t->nslots * 2;
    Run *runs = PyMem_Realloc(t->runs, sizeof(Run) * cap);
    if (runs == NULL) {
        return -1;
    }
    t->runs = runs;
    t->cap = cap;
    Py_ssize_t *slots = PyMem_Malloc(sizeof(Py_ssize_t) * nslots);
    if (slots == NULL) {
        return -1;
    }
    memset(slots, 0xff, sizeof(Py_ssize_t) * nslots);
    size_t mask = (size_t)nslots - 1;
    for (Py_ssize_t i = 0; i < t->n; i++) {
        size_t j = (size_t)t->runs[i].hash & mask;
        while (slots[j] >= 0) {
            j = (j + 1) & mask;
        }
        slots[j] = i;
    }
    PyMem_Free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* Count the run at [start, start + len) of `data`, whose code units are `kind` bytes wide. */
static int
table_add(Table *t, const char *data, int kind, Py_ssize_t start, Py_ssize_t len, uint64_t hash)
{
    if (t->n == t->cap && table_grow(t) < 0) {
        return -1;
    }
    size_t mask = (size_t)t->nslots - 1, j = (size_t)hash & mask;
    for (;;) {
        Py_ssize_t k = t->slots[j];
        if (k < 0) {
            break;
        }
        Run *r = &t->runs[k];
        if (r->hash == hash && r->len == len &&
            memcmp(data + r->start * kind, data + start * kind, (size_t)len * kind) == 0) {
            r->count++;
            return 0;
        }
        j = (j + 1) & mask;
    }
    Run *r = &t->runs[t->n];
    r->start = start;
    r->len = len;
    r->count = 1;
    r->hash = hash;
    t->slots[j] = t->n++;
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

/* Add `times` to the count of every term in the tuple (a term listed twice counts twice). */
static int
add_terms(PyObject *out, PyObject *terms, Py_ssize_t times)
{
    Py_ssize_t m = PyTuple_GET_SIZE(terms);
    for (Py_ssize_t q = 0; q < m; q++) {
        PyObject *term = PyTuple_GET_ITEM(terms, q);
        PyObject *old = PyDict_GetItemWithError(out, term); /* borrowed */
        Py_ssize_t v = times;
        if (old != NULL) {
            Py_ssize_t before = PyLong_AsSsize_t(old);
            if (before == -1 && PyErr_Occurred()) {
                return -1;
            }
            v += before;
        }
        else if (PyErr_Occurred()) {
            return -1;
        }
        PyObject *value = PyLong_FromSsize_t(v);
        if (value == NULL) {
            return -1;
        }
        int rc = PyDict_SetItem(out, term, value);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

PyDoc_STRVAR(count_terms_doc,
"count_terms(text, memo, cap) -> dict\n\n"
"Term counts of `text`: every distinct run of [A-Za-z0-9_$] is looked up in `memo`\n"
"(run -> tuple of terms) and each of its terms counted once per occurrence of the run,\n"
"or at most `cap` times per run when cap > 0. Terms in order of first appearance.");

static PyObject *
count_terms(PyObject *self, PyObject *args)
{
    PyObject *text, *memo;
    Py_ssize_t cap;
    if (!PyArg_ParseTuple(args, "UOn:count_terms", &text, &memo, &cap)) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const char *data = PyUnicode_DATA(text);
    PyObject *out = NULL;
    Table t;
    if (table_init(&t) < 0) {
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
    out = PyDict_New();
    if (out == NULL) {
        goto fail;
    }
    for (Py_ssize_t k = 0; k < t.n; k++) {
        Run *r = &t.runs[k];
        PyObject *run = PyUnicode_FromKindAndData(kind, data + r->start * kind, r->len);
        if (run == NULL) {
            goto fail;
        }
        PyObject *terms = PyObject_GetItem(memo, run);
        Py_DECREF(run);
        if (terms == NULL) {
            goto fail;
        }
        if (!PyTuple_Check(terms)) {
            Py_DECREF(terms);
            PyErr_SetString(PyExc_TypeError, "count_terms: the memo must give tuples of terms");
            goto fail;
        }
        Py_ssize_t times = (cap > 0 && r->count > cap) ? cap : r->count;
        int rc = add_terms(out, terms, times);
        Py_DECREF(terms);
        if (rc < 0) {
            goto fail;
        }
    }
    table_free(&t);
    return out;
fail:
    Py_XDECREF(out);
    table_free(&t);
    return NULL;
}

static PyMethodDef methods[] = {
    {"count_terms", count_terms, METH_VARARGS, count_terms_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C paths of tokenize.py.", -1, methods,
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
