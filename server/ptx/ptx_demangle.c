/* ptx_demangle.c - a mangled kernel name's parameter types (ptx_demangle.h).
 * A recursive reader over the Itanium ABI's <type> grammar, keeping the
 * substitution table (S_, S0_, ...) as the ABI fills it: every class name
 * and every qualified, pointer or reference type, in the order they end.
 * It must not guess: what it does not know ends the reading with -1. */
#include "ptx_demangle.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { SUBS = 32 };

struct dm {
    const char *p;
    char subs[SUBS][PTX_DEMANGLE_TYPE];
    int nsubs;
};

static const struct { char code; const char *name; } builtins[] = {
    {'v', "void"}, {'b', "bool"}, {'c', "char"}, {'a', "signed char"}, {'h', "unsigned char"},
    {'s', "short"}, {'t', "unsigned short"}, {'i', "int"}, {'j', "unsigned int"},
    {'l', "long"}, {'m', "unsigned long"}, {'x', "long long"}, {'y', "unsigned long long"},
    {'n', "__int128"}, {'o', "unsigned __int128"}, {'f', "float"}, {'d', "double"},
    {'e', "long double"}, {'w', "wchar_t"},
};

static int add_sub(struct dm *d, const char *s)
{
    if (d->nsubs < SUBS)
        snprintf(d->subs[d->nsubs++], PTX_DEMANGLE_TYPE, "%s", s);
    return 0;
}

/* <source-name> ::= <length> <identifier>, appended to out. */
static int source_name(struct dm *d, char *out, size_t cap)
{
    if (!isdigit((unsigned char)*d->p))
        return -1;
    unsigned len = 0;
    while (isdigit((unsigned char)*d->p) && len < 1000)
        len = len * 10 + (unsigned)(*d->p++ - '0');
    size_t have = strlen(out);
    if (len == 0 || memchr(d->p, '\0', len) || have + len + 1 > cap)
        return -1;
    memcpy(out + have, d->p, len);
    out[have + len] = '\0';
    d->p += len;
    return 0;
}

/* S_ (the first), S<base-36 seq>_ (seq + 2nd), St (std::, then a name). */
static int substitution(struct dm *d, char *out, size_t cap)
{
    d->p++;     /* 'S' */
    unsigned k = 0;
    if (*d->p == '_') {
        d->p++;
    } else {
        while (isdigit((unsigned char)*d->p) || isupper((unsigned char)*d->p))
            k = k * 36 + (unsigned)(isdigit((unsigned char)*d->p) ? *d->p - '0' : *d->p - 'A' + 10),
            d->p++;
        if (*d->p++ != '_')
            return -1;
        k++;
    }
    if ((int)k >= d->nsubs || strlen(d->subs[k]) + 1 > cap)
        return -1;
    snprintf(out, cap, "%s", d->subs[k]);
    return 0;
}

/* N <prefix>... E (no qualifiers, no template arguments): a::b::c; every
 * prefix is a substitution candidate (the last only when `is_type`). */
static int nested(struct dm *d, char *out, size_t cap, int is_type)
{
    d->p++;     /* 'N' */
    out[0] = '\0';
    while (*d->p && *d->p != 'E') {
        if (out[0] && strlen(out) + 3 > cap)
            return -1;
        char part[PTX_DEMANGLE_TYPE] = "";
        if (*d->p == 'S' && d->p[1] == 't') {
            d->p += 2;
            snprintf(part, sizeof part, "std");
        } else if (*d->p == 'S' && !out[0]) {
            if (substitution(d, part, sizeof part) < 0)    /* a known prefix: ns:: */
                return -1;
            snprintf(out, cap, "%s", part);
            continue;
        } else if (source_name(d, part, sizeof part) < 0) {
            return -1;
        }
        if (out[0])
            strcat(out, "::");
        if (strlen(out) + strlen(part) + 1 > cap)
            return -1;
        strcat(out, part);
        if (d->p[0] != 'E' || is_type)
            add_sub(d, out);
    }
    if (*d->p != 'E')
        return -1;
    d->p++;
    return 0;
}

static int type(struct dm *d, char *out, size_t cap)
{
    char inner[PTX_DEMANGLE_TYPE];
    char c = *d->p;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].code == c) {
            d->p++;
            snprintf(out, cap, "%s", builtins[i].name);
            return 0;
        }
    switch (c) {
    case 'P': case 'R': case 'O': case 'K': case 'V': case 'r':
        d->p++;
        inner[0] = '\0';
        if (type(d, inner, sizeof inner) < 0)
            return -1;
        const char *fmt = c == 'P' ? "%s *" : c == 'R' ? "%s &" : c == 'O' ? "%s &&"
                        : c == 'K' ? "const %s" : c == 'V' ? "volatile %s" : "%s __restrict__";
        /* a qualifier of a pointer goes after it: float *const */
        if ((c == 'K' || c == 'V') && inner[strlen(inner) - 1] == '*')
            fmt = c == 'K' ? "%s const" : "%s volatile";
        if (snprintf(out, cap, fmt, inner) >= (int)cap)
            return -1;
        return add_sub(d, out);
    case 'D':
        if (d->p[1] == 'h' || d->p[1] == 'n') {
            snprintf(out, cap, "%s", d->p[1] == 'h' ? "half" : "decltype(nullptr)");
            d->p += 2;
            return 0;
        }
        return -1;
    case 'S':
        if (d->p[1] == 't') {
            d->p += 2;
            snprintf(out, cap, "std::");
            if (source_name(d, out, cap) < 0)
                return -1;
            return add_sub(d, out);
        }
        return substitution(d, out, cap);
    case 'N':
        return nested(d, out, cap, 1);
    default:
        if (!isdigit((unsigned char)c))
            return -1;      /* template parameters, function types, arrays: not read */
        out[0] = '\0';
        if (source_name(d, out, cap) < 0 || *d->p == 'I')
            return -1;
        return add_sub(d, out);
    }
}

/* The name at d->p (a source name, or N...E) into name; the last part's start in *last. */
static int function_name(struct dm *d, char name[PTX_DEMANGLE_TYPE], const char **last)
{
    name[0] = '\0';
    if (*d->p == 'N' ? nested(d, name, PTX_DEMANGLE_TYPE, 0) < 0
                     : source_name(d, name, PTX_DEMANGLE_TYPE) < 0)
        return -1;
    const char *c = strrchr(name, ':');
    *last = c ? c + 1 : name;
    return 0;
}

int ptx_demangle_name(const char *mangled, char *out, size_t cap)
{
    static struct dm zero;
    struct dm d = zero;
    char name[PTX_DEMANGLE_TYPE];
    const char *last;
    if (strncmp(mangled, "_Z", 2) != 0)
        return -1;
    d.p = mangled + 2;
    if (function_name(&d, name, &last) < 0 || strlen(last) + 1 > cap)
        return -1;
    snprintf(out, cap, "%s", last);
    return 0;
}

int ptx_demangle_params(const char *mangled, char types[][PTX_DEMANGLE_TYPE], int max, int *n)
{
    static struct dm zero;
    struct dm d = zero;
    *n = 0;
    if (strncmp(mangled, "_Z", 2) != 0)
        return -1;
    d.p = mangled + 2;
    char name[PTX_DEMANGLE_TYPE];
    const char *last;
    if (function_name(&d, name, &last) < 0)
        return -1;
    if (*d.p == 'I')        /* a template's arguments (and then a return type): not read */
        return -1;
    if (d.p[0] == 'v' && d.p[1] == '\0')
        return 0;
    while (*d.p) {
        if (*n == max || type(&d, types[*n], PTX_DEMANGLE_TYPE) < 0)
            return -1;
        (*n)++;
    }
    return *n ? 0 : -1;
}
