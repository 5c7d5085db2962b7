/* JSON input and output for nsm: typed field readers with one-line errors naming the field. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

void cli_fail(cli_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

char *cli_read_all(const char *path, size_t *lenp, cli_err *e)
{
    FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (fp == NULL) {
        cli_fail(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + len, 1, cap - len - 1, fp);
        len += got;
        if (len + 1 < cap) {
            break;
        }
        if (cap > ((size_t)1 << 30)) {
            free(buf);
            buf = NULL;
            cli_fail(e, "%s: larger than 1 GiB", path);
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (nb == NULL) {
            free(buf);
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(fp);
    if (fp != stdin) {
        fclose(fp);
    }
    if (buf == NULL) {
        if (e->msg[0] == '\0') {
            cli_fail(e, "%s: out of memory", path);
        }
        return NULL;
    }
    if (bad) {
        free(buf);
        cli_fail(e, "%s: read error", path);
        return NULL;
    }
    buf[len] = '\0';
    *lenp = len;
    return buf;
}

const char *cli_quote(const char *s, char *buf, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t at = 0, i = 0;
    while (u[i] != '\0') {
        unsigned char c = u[i];
        /* one unit: an escaped control character (C0, DEL, or C1 as the UTF-8 pair C2 80..9F)
           or a whole UTF-8 sequence copied as it is, never cut in the middle */
        size_t take = 1, need;
        int esc = c < 0x20 || c == 0x7f || (c == 0xc2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f);
        if (esc) {
            take = c == 0xc2 ? 2 : 1;
            need = 4 * take;
        } else {
            size_t seq = c >= 0xf0 && c <= 0xf7 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
            while (take < seq && u[i + take] >= 0x80 && u[i + take] <= 0xbf) {
                take++;
            }
            need = take;
        }
        if (at + need + 4 > len) { /* room for "..." and the terminating NUL */
            memcpy(buf + at, "...", 4);
            return buf;
        }
        for (size_t k = 0; k < take; k++) {
            if (esc) {
                snprintf(buf + at, 5, "\\x%02x", u[i + k]);
                at += 4;
            } else {
                buf[at++] = (char)u[i + k];
            }
        }
        i += take;
    }
    buf[at] = '\0';
    return buf;
}

/*
 * Depth of brackets ([ and {) outside strings over text[0, off): the nesting level cJSON had
 * reached at offset off of a text it accepted up to there.
 */
static size_t depth_before(const char *text, size_t off)
{
    size_t depth = 0;
    int in_str = 0;
    for (size_t i = 0; i < off; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\' && i + 1 < off) {
                i++;
            } else if (c == '"') {
                in_str = 0;
            }
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return depth;
}

/* Where a key given twice is searched: one key of an object and its position there. */
typedef struct key_at {
    const char *key;
    size_t pos;
} key_at;

static int key_cmp(const void *a, const void *b)
{
    const key_at *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c != 0 ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* The path of the value being checked ("" for the document, then B[0].x ...). */
typedef struct json_path {
    char s[160];
    size_t len;
} json_path;

static void path_push(json_path *p, const char *fmt, const char *key, size_t idx)
{
    if (p->len < sizeof p->s) {
        int w = key != NULL ? snprintf(p->s + p->len, sizeof p->s - p->len, fmt, key)
                            : snprintf(p->s + p->len, sizeof p->s - p->len, fmt, idx);
        p->len = w < 0 ? p->len : p->len + (size_t)w;
    }
}

static void path_pop(json_path *p, size_t len)
{
    p->len = len;
    if (len < sizeof p->s) {
        p->s[len] = '\0';
    }
}

/*
 * Rejects an object of the tree under node that holds a key twice. When several keys are
 * repeated, names the one whose second occurrence comes first in the text.
 */
static int check_dups(const cJSON *node, json_path *path, cli_err *e)
{
    if (cJSON_IsObject(node)) {
        size_t n = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, node) {
            n++;
        }
        if (n > 1) {
            key_at *keys = malloc(n * sizeof *keys);
            if (keys == NULL) {
                cli_fail(e, "out of memory");
                return -1;
            }
            size_t i = 0;
            cJSON_ArrayForEach(it, node) {
                keys[i].key = it->string != NULL ? it->string : "";
                keys[i].pos = i;
                i++;
            }
            qsort(keys, n, sizeof *keys, key_cmp);
            size_t best = n; /* position of the first second occurrence */
            const char *dup = NULL;
            for (i = 1; i < n; i++) {
                if (strcmp(keys[i].key, keys[i - 1].key) == 0
                    && (i < 2 || strcmp(keys[i - 1].key, keys[i - 2].key) != 0)
                    && keys[i].pos < best) {
                    best = keys[i].pos;
                    dup = keys[i].key;
                }
            }
            if (dup != NULL) {
                char q[96];
                cli_quote(dup, q, sizeof q);
                if (path->len == 0) {
                    cli_fail(e, "duplicate field '%s'", q);
                } else {
                    char qp[200];
                    cli_quote(path->s, qp, sizeof qp);
                    cli_fail(e, "field '%s%s': duplicate field '%s' inside it", qp,
                             path->len >= sizeof path->s ? "..." : "", q);
                }
                free(keys);
                return -1;
            }
            free(keys);
        }
        cJSON_ArrayForEach(it, node) {
            if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
                size_t len = path->len;
                path_push(path, len == 0 ? "%s" : ".%s", it->string != NULL ? it->string : "",
                          0);
                int rc = check_dups(it, path, e);
                path_pop(path, len);
                if (rc != 0) {
                    return rc;
                }
            }
        }
    } else if (cJSON_IsArray(node)) {
        size_t i = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, node) {
            if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
                size_t len = path->len;
                path_push(path, "[%zu]", NULL, i);
                int rc = check_dups(it, path, e);
                path_pop(path, len);
                if (rc != 0) {
                    return rc;
                }
            }
            i++;
        }
    }
    return 0;
}

cJSON *cli_parse(const char *text, const char *path, cli_err *e)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (root == NULL) {
        size_t off = end != NULL && end >= text ? (size_t)(end - text) : 0;
        /* cJSON stops at the bracket that would open level CJSON_NESTING_LIMIT + 1 of a text
           that is well-formed up to there: then the text is too deep, not malformed. */
        if (end != NULL && (text[off] == '[' || text[off] == '{')
            && depth_before(text, off) >= (size_t)CJSON_NESTING_LIMIT) {
            cli_fail(e, "%s: JSON nested deeper than %d levels (near byte %zu)", path,
                     (int)CJSON_NESTING_LIMIT, off);
        } else {
            cli_fail(e, "%s: malformed JSON near byte %zu", path, off);
        }
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        cli_fail(e, "%s: the problem must be a JSON object", path);
        return NULL;
    }
    json_path jp;
    jp.s[0] = '\0';
    jp.len = 0;
    if (check_dups(root, &jp, e) != 0) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* A finite JSON number, or an error naming where it is. */
static int get_finite(const cJSON *it, const char *name, size_t i, size_t j, int is_mat,
                      double *x, cli_err *e)
{
    if (!cJSON_IsNumber(it)) {
        if (is_mat) {
            cli_fail(e, "field '%s': entry [%zu][%zu] is not a number", name, i, j);
        } else {
            cli_fail(e, "field '%s': entry [%zu] is not a number", name, i);
        }
        return -1;
    }
    double v = it->valuedouble;
    if (!isfinite(v)) {
        if (is_mat) {
            cli_fail(e, "field '%s': entry [%zu][%zu] is not finite", name, i, j);
        } else {
            cli_fail(e, "field '%s': entry [%zu] is not finite", name, i);
        }
        return -1;
    }
    *x = v;
    return 0;
}

double *cli_get_matrix(const cJSON *obj, const char *name, int required, size_t *rows,
                       size_t *cols, int *present, cli_err *e)
{
    *present = 0;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (a == NULL) {
        if (required) {
            cli_fail(e, "field '%s': missing", name);
        }
        return NULL;
    }
    if (!cJSON_IsArray(a)) {
        cli_fail(e, "field '%s': expected an array of rows", name);
        return NULL;
    }
    size_t nr = (size_t)cJSON_GetArraySize(a);
    if (*rows != CLI_ANY && nr != *rows) {
        cli_fail(e, "field '%s': expected %zu rows, got %zu", name, *rows, nr);
        return NULL;
    }
    if (nr > 1024) {
        cli_fail(e, "field '%s': %zu rows exceed the limit 1024", name, nr);
        return NULL;
    }
    size_t nc = *cols;
    if (nr > 0) {
        const cJSON *r0 = cJSON_GetArrayItem(a, 0);
        if (!cJSON_IsArray(r0)) {
            cli_fail(e, "field '%s': row 0 is not an array", name);
            return NULL;
        }
        size_t c0 = (size_t)cJSON_GetArraySize(r0);
        if (nc != CLI_ANY && c0 != nc) {
            cli_fail(e, "field '%s': expected %zu columns, got %zu", name, nc, c0);
            return NULL;
        }
        nc = c0;
        if (nc == 0 || nc > 1024) {
            cli_fail(e, "field '%s': %zu columns (must be 1 to 1024)", name, nc);
            return NULL;
        }
    }
    *present = 1;
    *rows = nr;
    *cols = nc;
    if (nr == 0) {
        return NULL;
    }
    double *x = malloc(nr * nc * sizeof *x);
    if (x == NULL) {
        cli_fail(e, "field '%s': out of memory", name);
        return NULL;
    }
    size_t i = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, a) {
        if (!cJSON_IsArray(row)) {
            cli_fail(e, "field '%s': row %zu is not an array", name, i);
            free(x);
            return NULL;
        }
        if ((size_t)cJSON_GetArraySize(row) != nc) {
            cli_fail(e, "field '%s': row %zu has %d entries, expected %zu", name, i,
                     cJSON_GetArraySize(row), nc);
            free(x);
            return NULL;
        }
        size_t j = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, row) {
            if (get_finite(it, name, i, j, 1, &x[i * nc + j], e) != 0) {
                free(x);
                return NULL;
            }
            j++;
        }
        i++;
    }
    return x;
}

double *cli_get_vector(const cJSON *obj, const char *name, int required, size_t *len,
                       int *present, cli_err *e)
{
    *present = 0;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (a == NULL) {
        if (required) {
            cli_fail(e, "field '%s': missing", name);
        }
        return NULL;
    }
    if (!cJSON_IsArray(a)) {
        cli_fail(e, "field '%s': expected an array of numbers", name);
        return NULL;
    }
    size_t n = (size_t)cJSON_GetArraySize(a);
    if (*len != CLI_ANY && n != *len) {
        cli_fail(e, "field '%s': expected %zu entries, got %zu", name, *len, n);
        return NULL;
    }
    if (n > 1024 * 1024) {
        cli_fail(e, "field '%s': too many entries (%zu)", name, n);
        return NULL;
    }
    *present = 1;
    *len = n;
    if (n == 0) {
        return NULL;
    }
    double *x = malloc(n * sizeof *x);
    if (x == NULL) {
        cli_fail(e, "field '%s': out of memory", name);
        return NULL;
    }
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, a) {
        if (get_finite(it, name, i, 0, 0, &x[i], e) != 0) {
            free(x);
            return NULL;
        }
        i++;
    }
    return x;
}

int cli_get_number(const cJSON *obj, const char *name, double *x, cli_err *e)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (it == NULL) {
        return 0;
    }
    if (!cJSON_IsNumber(it)) {
        cli_fail(e, "field '%s': expected a number", name);
        return -1;
    }
    if (!isfinite(it->valuedouble)) {
        cli_fail(e, "field '%s': not finite", name);
        return -1;
    }
    *x = it->valuedouble;
    return 1;
}

int cli_check_fields(const cJSON *obj, const char *const *known, cli_err *e)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        int ok = 0;
        for (const char *const *k = known; *k != NULL; k++) {
            if (it->string != NULL && strcmp(it->string, *k) == 0) {
                ok = 1;
                break;
            }
        }
        if (!ok) {
            char q[96];
            cli_fail(e, "field '%s': unknown field",
                     cli_quote(it->string != NULL ? it->string : "?", q, sizeof q));
            return -1;
        }
    }
    return 0;
}

cJSON *cli_vector_json(size_t n, const double *x)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a != NULL && i < n; i++) {
        cJSON_AddItemToArray(a, cJSON_CreateNumber(x[i]));
    }
    return a;
}

cJSON *cli_matrix_json(size_t rows, size_t cols, const double *x)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a != NULL && i < rows; i++) {
        cJSON_AddItemToArray(a, cli_vector_json(cols, x + i * cols));
    }
    return a;
}
