#define _GNU_SOURCE
#include <stddef.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "CSocketCalls.h"

int csocket_accept_nonblocking(int listener) {
    return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csocket_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
