// The socket calls glibc declares only under _GNU_SOURCE, which Swift's Glibc
// module is built without. InsetSocket wraps them; nothing else uses this.
// No system header here: the definitions live in calls.c, built with
// _GNU_SOURCE, so Swift never sees two versions of glibc's types.
#pragma once

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC, set in the same call: a child
// another thread starts meanwhile never inherits the connection.
int csocket_accept_nonblocking(int listener);
