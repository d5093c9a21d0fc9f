#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

// Swift cannot call variadic open(2); this fixes the flags insetd needs.
static inline int insetd_open_evdev(const char *path) {
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}
