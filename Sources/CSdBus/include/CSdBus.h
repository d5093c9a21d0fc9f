#include <systemd/sd-bus.h>
#include <errno.h>
#include <stdio.h>

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

/* Appends a 32-bit integer ('i'). */
static inline int csdbus_append_int32(sd_bus_message *m, int32_t value) {
    return sd_bus_message_append_basic(m, 'i', &value);
}

/* Reads a 32-bit integer ('i'), e.g. the id KWin's loadScript returns. */
static inline int csdbus_read_int32(sd_bus_message *m, int32_t *value) {
    return sd_bus_message_read_basic(m, 'i', value);
}

/* One argument of a received call, read by its own type: numbers of any
   width as a double, strings, booleans; anything else is skipped and only
   its type is told. Returns 1 when an argument was read, 0 at the end. */
static inline int csdbus_read_any(sd_bus_message *m, char *type, double *number, const char **string) {
    const char *contents = NULL;
    int r = sd_bus_message_peek_type(m, type, &contents);
    if (r <= 0) return r;
    union { int32_t i; uint32_t u; int64_t x; uint64_t t; int16_t n; uint16_t q; uint8_t y; double d; int b; } v;
    switch (*type) {
    case 'i': r = sd_bus_message_read_basic(m, 'i', &v.i); *number = v.i; break;
    case 'u': r = sd_bus_message_read_basic(m, 'u', &v.u); *number = v.u; break;
    case 'x': r = sd_bus_message_read_basic(m, 'x', &v.x); *number = (double)v.x; break;
    case 't': r = sd_bus_message_read_basic(m, 't', &v.t); *number = (double)v.t; break;
    case 'n': r = sd_bus_message_read_basic(m, 'n', &v.n); *number = v.n; break;
    case 'q': r = sd_bus_message_read_basic(m, 'q', &v.q); *number = v.q; break;
    case 'y': r = sd_bus_message_read_basic(m, 'y', &v.y); *number = v.y; break;
    case 'd': r = sd_bus_message_read_basic(m, 'd', &v.d); *number = v.d; break;
    case 'b': r = sd_bus_message_read_basic(m, 'b', &v.b); *number = v.b ? 1 : 0; break;
    case 's': r = sd_bus_message_read_basic(m, 's', string); break;
    default: {
        /* A container or a type not listed: skipped whole, by its signature. */
        char signature[256];
        if (*type == 'a' || *type == 'v') {
            r = snprintf(signature, sizeof signature, "%c%s", *type, contents ? contents : "");
        } else if (*type == 'r' || *type == 'e') {
            r = snprintf(signature, sizeof signature, "%c%s%c", *type == 'r' ? '(' : '{', contents ? contents : "",
                         *type == 'r' ? ')' : '}');
        } else {
            r = snprintf(signature, sizeof signature, "%c", *type);
        }
        if (r < 0 || (size_t)r >= sizeof signature) return -E2BIG;
        r = sd_bus_message_skip(m, signature);
    }
    }
    return r < 0 ? r : 1;
}

/* Answers a received call: an empty return, or the error `name` with `text`. */
static inline int csdbus_reply(sd_bus_message *call, const char *name, const char *text) {
    sd_bus_message *reply = NULL;
    int r;
    if (name) {
        sd_bus_error error = SD_BUS_ERROR_MAKE_CONST(name, text);
        r = sd_bus_message_new_method_error(call, &reply, &error);
    } else {
        r = sd_bus_message_new_method_return(call, &reply);
    }
    if (r < 0) return r;
    r = sd_bus_send(sd_bus_message_get_bus(call), reply, NULL);
    sd_bus_message_unref(reply);
    return r;
}
