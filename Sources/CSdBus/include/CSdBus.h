#include <systemd/sd-bus.h>

/* Non-variadic forms of the sd-bus calls this package needs: Swift cannot call
   C-variadic functions (sd_bus_message_append, sd_bus_message_read, ...). */

/* Appends one basic value of D-Bus type `type` ('b', 's', ...). */
static inline int csdbus_append_bool(sd_bus_message *m, int value) {
    int v = value ? 1 : 0;
    return sd_bus_message_append_basic(m, 'b', &v);
}

static inline int csdbus_append_string(sd_bus_message *m, const char *value) {
    return sd_bus_message_append_basic(m, 's', value);
}

/* Appends a variant holding one boolean ("v" with signature "b"). */
static inline int csdbus_append_variant_bool(sd_bus_message *m, int value) {
    int r = sd_bus_message_open_container(m, 'v', "b");
    if (r < 0) return r;
    r = csdbus_append_bool(m, value);
    if (r < 0) return r;
    return sd_bus_message_close_container(m);
}

/* Reads one boolean from the current position. */
static inline int csdbus_read_bool(sd_bus_message *m, int *value) {
    return sd_bus_message_read_basic(m, 'b', value);
}

/* Reads one string; the pointer is valid while the message lives. */
static inline int csdbus_read_string(sd_bus_message *m, const char **value) {
    return sd_bus_message_read_basic(m, 's', value);
}

/* Reads a property of type (iiii) (a rectangle: x, y, width, height). */
static inline int csdbus_get_property_int4(sd_bus *bus, const char *destination, const char *path,
                                           const char *interface, const char *member, sd_bus_error *error,
                                           int32_t value[4]) {
    sd_bus_message *reply = NULL;
    int r = sd_bus_get_property(bus, destination, path, interface, member, error, &reply, "(iiii)");
    if (r < 0) return r;
    r = sd_bus_message_enter_container(reply, 'r', "iiii");
    for (int i = 0; r >= 0 && i < 4; i++) r = sd_bus_message_read_basic(reply, 'i', &value[i]);
    if (r >= 0) r = sd_bus_message_exit_container(reply);
    sd_bus_message_unref(reply);
    return r < 0 ? r : 0;
}
