// What the harness needs from libc that Swift's Glibc module leaves out.
#include <sys/epoll.h>
