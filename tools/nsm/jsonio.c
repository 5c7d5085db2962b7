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

char *cli_read_all(const char *path, cli_err *e)
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
    if (strlen(buf) != len) {
        free(buf);
        cli_fail(e, "%s: contains a NUL byte, not JSON text", path);
        return NULL;
    }
    return buf;
}

cJSON *cli_parse(const char *text, const char *path, cli_err *e)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (root == NULL) {
        size_t off = end != NULL && end >= text ? (size_t)(end - text) : 0;
        cli_fail(e, "%s: malformed JSON near byte %zu", path, off);
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        cli_fail(e, "%s: the problem must be a JSON object", path);
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
            cli_fail(e, "field '%s': unknown field", it->string != NULL ? it->string : "?");
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
