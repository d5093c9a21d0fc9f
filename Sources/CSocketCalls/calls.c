#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>

#include "CSocketCalls.h"

int csocket_accept_nonblocking(int listener) {
    return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
