// libsystemd, opened on the first D-Bus call instead of linked: only the OSK
// bridge (insetd-osk) talks D-Bus, and insetd is the same multi-call binary,
// so a link dependency had every insetd load libsystemd and the six libraries
// it needs (libgcrypt, libgpg-error, liblz4, liblzma, libzstd, libcap): about
// 0.8 MiB of an idle daemon's resident set (docs/PERFORMANCE.md, "Stop 45").
// Each sd-bus function the bridge calls is defined here with sd-bus.h's own
// signature and forwards to libsystemd's; without libsystemd the calls fail
// with -ENOSYS (sd_bus_open_user first, so the bridge reports it and stops).
#include "CSdBus.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

static void *libsystemd_symbol(const char *name) {
    static void *handle;
    void *library = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
    if (!library) {
        library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!library) return NULL;
        __atomic_store_n(&handle, library, __ATOMIC_RELEASE);
    }
    return dlsym(library, name);
}

#define FORWARD(result, name, parameters, arguments, failure)                  \
    __attribute__((visibility("hidden"))) result name parameters {             \
        static result(*real) parameters;                                       \
        result(*function) parameters = __atomic_load_n(&real, __ATOMIC_ACQUIRE); \
        if (!function) {                                                       \
            function = (result(*) parameters)libsystemd_symbol(#name);         \
            if (!function) return failure;                                     \
            __atomic_store_n(&real, function, __ATOMIC_RELEASE);               \
        }                                                                      \
        return function arguments;                                             \
    }

FORWARD(int, sd_bus_open_user, (sd_bus **bus), (bus), -ENOSYS)
FORWARD(sd_bus *, sd_bus_flush_close_unref, (sd_bus *bus), (bus), NULL)
FORWARD(sd_bus_slot *, sd_bus_slot_unref, (sd_bus_slot *slot), (slot), NULL)
FORWARD(int, sd_bus_get_fd, (sd_bus *bus), (bus), -ENOSYS)
FORWARD(int, sd_bus_get_events, (sd_bus *bus), (bus), -ENOSYS)
FORWARD(int, sd_bus_get_timeout, (sd_bus *bus, uint64_t *usec), (bus, usec), -ENOSYS)
FORWARD(int, sd_bus_process, (sd_bus *bus, sd_bus_message **ret), (bus, ret), -ENOSYS)
FORWARD(sd_bus_message *, sd_bus_message_unref, (sd_bus_message *m), (m), NULL)
FORWARD(int, sd_bus_get_property_trivial,
        (sd_bus *bus, const char *destination, const char *path, const char *interface, const char *member,
         sd_bus_error *ret_error, char type, void *ret_ptr),
        (bus, destination, path, interface, member, ret_error, type, ret_ptr), -ENOSYS)
FORWARD(int, sd_bus_get_property,
        (sd_bus *bus, const char *destination, const char *path, const char *interface, const char *member,
         sd_bus_error *ret_error, sd_bus_message **reply, const char *type),
        (bus, destination, path, interface, member, ret_error, reply, type), -ENOSYS)
FORWARD(int, sd_bus_add_match,
        (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata),
        (bus, slot, match, callback, userdata), -ENOSYS)
FORWARD(int, sd_bus_message_new_method_call,
        (sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface,
         const char *member),
        (bus, m, destination, path, interface, member), -ENOSYS)
FORWARD(int, sd_bus_call,
        (sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply),
        (bus, m, usec, ret_error, reply), -ENOSYS)
FORWARD(int, sd_bus_message_append_basic, (sd_bus_message *m, char type, const void *p), (m, type, p), -ENOSYS)
FORWARD(int, sd_bus_message_open_container, (sd_bus_message *m, char type, const char *contents),
        (m, type, contents), -ENOSYS)
FORWARD(int, sd_bus_message_close_container, (sd_bus_message *m), (m), -ENOSYS)
FORWARD(int, sd_bus_message_enter_container, (sd_bus_message *m, char type, const char *contents),
        (m, type, contents), -ENOSYS)
FORWARD(int, sd_bus_message_exit_container, (sd_bus_message *m), (m), -ENOSYS)
FORWARD(int, sd_bus_message_read_basic, (sd_bus_message *m, char type, void *p), (m, type, p), -ENOSYS)

// Receiving method calls (insetd-osk's KWin script calls back over the bus).
FORWARD(int, sd_bus_add_object,
        (sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata),
        (bus, slot, path, callback, userdata), -ENOSYS)
FORWARD(int, sd_bus_get_unique_name, (sd_bus *bus, const char **unique), (bus, unique), -ENOSYS)
FORWARD(const char *, sd_bus_message_get_sender, (sd_bus_message *m), (m), NULL)
FORWARD(const char *, sd_bus_message_get_interface, (sd_bus_message *m), (m), NULL)
FORWARD(const char *, sd_bus_message_get_member, (sd_bus_message *m), (m), NULL)
FORWARD(int, sd_bus_message_peek_type, (sd_bus_message *m, char *type, const char **contents), (m, type, contents),
        -ENOSYS)
FORWARD(int, sd_bus_message_skip, (sd_bus_message *m, const char *types), (m, types), -ENOSYS)
FORWARD(int, sd_bus_message_new_method_return, (sd_bus_message *call, sd_bus_message **m), (call, m), -ENOSYS)
FORWARD(int, sd_bus_message_new_method_error, (sd_bus_message *call, sd_bus_message **m, const sd_bus_error *e),
        (call, m, e), -ENOSYS)
FORWARD(int, sd_bus_send, (sd_bus *bus, sd_bus_message *m, uint64_t *cookie), (bus, m, cookie), -ENOSYS)
FORWARD(sd_bus *, sd_bus_message_get_bus, (sd_bus_message *m), (m), NULL)

// sd_bus_error_free returns nothing: it has a form of its own.
__attribute__((visibility("hidden"))) void sd_bus_error_free(sd_bus_error *e) {
    static void (*real)(sd_bus_error *);
    void (*function)(sd_bus_error *) = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!function) {
        function = (void (*)(sd_bus_error *))libsystemd_symbol("sd_bus_error_free");
        if (!function) return;
        __atomic_store_n(&real, function, __ATOMIC_RELEASE);
    }
    function(e);
}
