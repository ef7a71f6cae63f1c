/* addr.h - the address the server listens on: parsed from --bind, whether it
 * is loopback or every interface, and which Host headers name it (the DNS
 * rebinding defence).
 *
 * Pure: no socket is opened here (http.c binds), nothing is printed. */
#ifndef SZ_ADDR_H
#define SZ_ADDR_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>

#include "base/error.h"

struct addr {
    union {
        struct sockaddr sa;
        struct sockaddr_in in4;
        struct sockaddr_in6 in6;
    } u;                            /* to bind, port included */
    int ipv6, loopback, wildcard;
    char host[INET6_ADDRSTRLEN + 2];    /* as a Host header spells it ("[::1]") */
};

/* Parse the numeric IPv4 or IPv6 address `bind` with `port`.  Fails with
 * SZ_INVALID_ARGUMENT, field "bind", for anything else (names included). */
int addr_parse(const char *bind, uint16_t port, struct addr *out, struct sz_error *err);

/* Whether a Host header names this server: localhost, 127.0.0.1, [::1] or the
 * bound address, with no port or `port` (the one really bound); when bound to
 * every interface, any IP literal too.  NULL or "" is not allowed. */
int addr_host_allowed(const struct addr *a, uint16_t port, const char *host);

#endif
