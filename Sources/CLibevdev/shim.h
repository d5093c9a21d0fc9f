#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

// Swift cannot call variadic open(2); this fixes the flags insetd needs.
static inline int insetd_open_evdev(const char *path) {
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

#include <sys/ioctl.h>

// The kernel's key and switch state, for the resync after SYN_DROPPED when
// insetd parses the events itself (EvdevLoopReader). The sizes are libevdev's
// (96 and 8 bytes on x86_64), which umockdev's ioctl records are made for.
static inline int insetd_evdev_key_state(int fd, unsigned char *bits, unsigned int size) {
    return ioctl(fd, EVIOCGKEY(size), bits);
}
static inline int insetd_evdev_switch_state(int fd, unsigned char *bits, unsigned int size) {
    return ioctl(fd, EVIOCGSW(size), bits);
}
