/* addr.c - the listening address (addr.h): parsing --bind and the Host
 * allow-list that goes with it.
 * Must not open a socket or print: http.c binds, main.c reports. */
#define _GNU_SOURCE 1
#include "addr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int addr_parse(const char *bind, uint16_t port, struct addr *out, struct sz_error *err)
{
    memset(out, 0, sizeof *out);
    struct sockaddr_in *a4 = &out->u.in4;
    struct sockaddr_in6 *a6 = &out->u.in6;
    if (inet_pton(AF_INET, bind, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons(port);
        out->loopback = (ntohl(a4->sin_addr.s_addr) >> 24) == 127;
        out->wildcard = a4->sin_addr.s_addr == htonl(INADDR_ANY);
        snprintf(out->host, sizeof out->host, "%s", bind);
        return 0;
    }
    if (inet_pton(AF_INET6, bind, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons(port);
        out->ipv6 = 1;
        out->loopback = IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr);
        out->wildcard = IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr);
        snprintf(out->host, sizeof out->host, "[%s]", bind);
        return 0;
    }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "bind",
                   "'%s' is not a numeric IPv4 or IPv6 address", bind);
}

/* A page on another site can make the browser talk to 127.0.0.1 under its own
 * hostname (DNS rebinding).  Refusing every Host but the loopback names and
 * the bound address closes that door: such a page always sends its own name. */
int addr_host_allowed(const struct addr *a, uint16_t port, const char *host)
{
    if (host == NULL || *host == '\0')
        return 0;
    char name[300];
    size_t n = strlen(host);
    if (n >= sizeof name)
        return 0;
    memcpy(name, host, n + 1);
    /* split off ":port"; an IPv6 literal keeps its brackets */
    char *colon = strrchr(name, ':');
    char *bracket = strrchr(name, ']');
    if (colon && (!bracket || colon > bracket)) {
        *colon = '\0';
        const char *p = colon + 1;
        if (*p == '\0' || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 ||
            atoi(p) != port)
            return 0;
    }
    if (strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 ||
        strcmp(name, "[::1]") == 0 || strcmp(name, a->host) == 0)
        return 1;
    if (a->wildcard) {
        /* Bound to every interface: any IP literal is a direct peer, never a
         * rebound name, so it may stay; names still may not. */
        struct in6_addr a6;
        struct in_addr a4;
        size_t len = strlen(name);
        if (inet_pton(AF_INET, name, &a4) == 1)
            return 1;
        if (len > 2 && name[0] == '[' && name[len - 1] == ']') {
            name[len - 1] = '\0';
            return inet_pton(AF_INET6, name + 1, &a6) == 1;
        }
    }
    return 0;
}
