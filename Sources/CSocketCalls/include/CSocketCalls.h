// The socket calls glibc declares only under _GNU_SOURCE, which Swift's Glibc
// module is built without (accept4, pipe2). InsetSocket wraps them; nothing
// else uses this.
// No system header here: the definitions live in calls.c, built with
// _GNU_SOURCE, so Swift never sees two versions of glibc's types.
#pragma once

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC, set in the same call: a child
// another thread starts meanwhile never inherits the connection.
int csocket_accept_nonblocking(int listener);

// pipe2(2) with O_CLOEXEC: both ends are close-on-exec from the start, for the
// same reason.
int csocket_pipe_cloexec(int ends[2]);
