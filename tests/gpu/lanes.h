/* lanes.h - shorthands for 32 lane offsets in the C tests' tables of tool
 * input, so that a row shows what differs from a plain access: LIN = 4t,
 * ROWS = 16t (a JSON array, or bare for the line format), L31 / R31 = their
 * lanes 1..31 and NUL31 = 31 inactive lanes, each after a separator, to
 * follow a lane 0 of the row's own.  Test code only; header-only. */
#ifndef SZ_LANES_H
#define SZ_LANES_H

#include <stdio.h>
#include <string.h>

/* `s` with the shorthands expanded, as JSON (`json`) or the line format. */
static void lanes_expand(const char *s, int json, char *out, size_t cap)
{
    const char *sep = json ? "," : " ";
    char l31[200] = "", r31[200] = "", nul31[200] = "", lin[256], rows[256];
    for (int t = 1; t < 32; t++) {
        snprintf(l31 + strlen(l31), sizeof l31 - strlen(l31), "%s%d", sep, 4 * t);
        snprintf(r31 + strlen(r31), sizeof r31 - strlen(r31), "%s%d", sep, 16 * t);
        snprintf(nul31 + strlen(nul31), sizeof nul31 - strlen(nul31), "%s%s", sep,
                 json ? "null" : "-");
    }
    snprintf(lin, sizeof lin, json ? "[0%s]" : "0%s", l31);
    snprintf(rows, sizeof rows, json ? "[0%s]" : "0%s", r31);
    const char *from[] = {"LIN", "ROWS", "L31", "R31", "NUL31"};
    const char *to[] = {lin, rows, l31, r31, nul31};
    size_t n = 0;
    while (*s && n + 256 < cap) {
        int k = 0;
        while (k < 5 && strncmp(s, from[k], strlen(from[k])) != 0)
            k++;
        if (k < 5) {
            n += (size_t)snprintf(out + n, cap - n, "%s", to[k]);
            s += strlen(from[k]);
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
}

#endif
