/* ttgir_attr.h - MLIR attribute text as TTGIR prints it: `#ttg.name<{key =
 * value, ...}>` (and padded_shared's `<[32:+4] {...}>`), arrays, integers,
 * booleans and `#alias` references, read into a tree of nodes that remember
 * their line and column; the alias lines of a dump (`#name = ...`) form a
 * table resolved on demand, with loop detection.  It knows no encoding's
 * meaning (triton_dist.c does).  Pure: no I/O, no allocation. */
#ifndef SZ_TTGIR_ATTR_H
#define SZ_TTGIR_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define TA_MAX_NODES 2048
#define TA_MAX_ALIASES 1024     /* `#loc` lines are not counted */
#define TA_ALIAS_BUCKETS 1024  /* the alias names' hash table (a power of two) */
#define TA_MAX_DEPTH 16         /* nesting of arrays, attributes and alias chains */

enum ta_kind { TA_INT, TA_BOOL, TA_ARRAY, TA_ATTR, TA_ALIAS, TA_ENTRY, TA_STRING };

/* A node: a value, or (TA_ENTRY) one `key = value` of an attribute's dictionary. */
struct ta_node {
    enum ta_kind kind;
    int src;                /* which text: 0 the layout, 1 the aliases */
    int pos;                /* byte offset of its first character there */
    int64_t v;              /* TA_INT, TA_BOOL */
    const char *name;       /* TA_ATTR: "ttg.blocked"; TA_ALIAS: "mma"; TA_ENTRY: the key */
    int name_len;
    int first, next;        /* children (-1: none): array items, or entries then `pad` */
    int pad;                /* TA_ATTR: the `[a:+b, ...]` list before its dictionary, or -1 */
    int busy;               /* a reader's mark: being interpreted (cycle detection) */
};

struct ta_alias {
    const char *name;
    int name_len, pos;      /* pos: the value's offset in the aliases text */
    int node, state;        /* state 0: not read, 1: being read (a loop), 2: node */
    int next;               /* the next alias in its hash bucket, or -1 */
};

struct ta_parser {
    const char *text[2];
    size_t len[2];
    const char *field[2];   /* what errors name: "layout", "aliases" */
    int line0[2];           /* the first line's number (1, or where a dump's op is) */
    struct ta_node *node;   /* the caller's storage (ta_use) */
    int nnodes, max_nodes;
    struct ta_alias *alias;
    int nalias, max_aliases;
    int bucket[TA_ALIAS_BUCKETS];   /* first alias of each hash bucket, or -1 */
    int lc_pos[2], lc_line[2], lc_col[2];   /* ta_line_col's last answer per text */
    struct ta_work {        /* what the parser has done since ta_init, for tests that */
        long lookups;       /* bound a dump's cost by counts, not a clock (issue 36): */
        long probes;        /* alias lookups, the alias names they compared, and the */
        long scanned;       /* text bytes stepped over to find errors' lines and columns */
    } work;
};

/* Storage for a whole dump (TA_MAX_NODES values, TA_MAX_ALIASES aliases):
 * too large for a request thread's stack, so callers allocate it. */
struct ta_space {
    struct ta_parser p;
    struct ta_node node[TA_MAX_NODES];
    struct ta_alias alias[TA_MAX_ALIASES];
};

/* Give p its storage: max_nodes nodes, max_aliases alias slots (0 when the
 * text has no alias lines).  Before ta_init. */
void ta_use(struct ta_parser *p, struct ta_node *node, int max_nodes, struct ta_alias *alias,
            int max_aliases);

/* ta_use with a ta_space's arrays; returns &s->p. */
struct ta_parser *ta_space_init(struct ta_space *s);

/* Start a parser over `text` (named `field`) and `aliases` (named
 * `aliases_field`; NULL for none): every line of `aliases` that starts with
 * `#name =` defines an alias; other lines are ignored (a whole dump may be
 * given).  Fails on a name defined twice or too many aliases. */
int ta_init(struct ta_parser *p, const char *text, const char *field, const char *aliases,
            const char *aliases_field, struct sz_error *err);

/* Parse the value at text[src] offset pos (leading `#name =` skipped when
 * skip_def) into *node; the text after it must be blank when `whole`. */
int ta_parse(struct ta_parser *p, int src, int pos, int skip_def, int whole, int *node,
             struct sz_error *err);

/* Drop every node made after `mark` (a count of nodes, from ta_mark), and
 * forget the aliases read since: a dump's ops reuse one parser. */
int ta_mark(const struct ta_parser *p);
void ta_reset(struct ta_parser *p, int mark);

/* Follow alias references from `node` to the attribute they name (*out =
 * node itself when it is none); unknown aliases and loops fail at the
 * reference. */
int ta_resolve(struct ta_parser *p, int node, int *out, struct sz_error *err);

/* The value of entry `key` of attribute `attr`, or -1. */
int ta_get(const struct ta_parser *p, int attr, const char *key);

/* Does the attribute's name equal `name` after a "ttg." or "triton_gpu." prefix? */
int ta_is(const struct ta_parser *p, int attr, const char *name);

/* Fail naming the node's text field with "line L, column C: " and the message. */
int ta_fail(const struct ta_parser *p, int node, struct sz_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The line and column (1-based) of offset pos in text src. */
void ta_line_col(const struct ta_parser *p, int src, int pos, int *line, int *col);

/* Set err's position ("at") to offset pos in text src (sz_text_pos, from line0);
 * returns -1.  Call it after sz_fail. */
int ta_fail_pos(const struct ta_parser *p, int src, int pos, struct sz_error *err);

/* ---- typed readers ------------------------------------------------------------ */

/* Refuse keys of `attr` not in `known` (NULL-terminated); `what` names it ("blocked"). */
int ta_check_keys(const struct ta_parser *p, int attr, const char *const *known, const char *what,
                  struct sz_error *err);

/* Entry `key`: a list of at most max integers in lo..hi (powers of two when
 * pow2) into v[0..*n); required. */
int ta_ints(const struct ta_parser *p, int attr, const char *key, const char *what, int lo, int hi,
            int pow2, int64_t *v, int max, int *n, struct sz_error *err);

/* Entry `key`: one integer in lo..hi (def when absent and not required). */
int ta_int(const struct ta_parser *p, int attr, const char *key, const char *what, int required,
           int64_t def, int64_t lo, int64_t hi, int64_t *v, struct sz_error *err);

/* Entry `key`: true or false (false when absent). */
int ta_bool(const struct ta_parser *p, int attr, const char *key, int *v, struct sz_error *err);

/* The encoding's rank `have` must be the tensor's `rank` (fails on "shape"). */
int ta_same_rank(const struct ta_parser *p, int attr, int have, int rank, const char *what,
                 struct sz_error *err);

/* Single CTA only: a non-empty CGALayout, or CTAsPerCGA other than ones, fails. */
int ta_single_cta(const struct ta_parser *p, int attr, struct sz_error *err);

/* A failure about the shape: field "shape", the message "<text> line L, column C: ...". */
int ta_shape_fail(const struct ta_parser *p, int node, struct sz_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;


#endif
