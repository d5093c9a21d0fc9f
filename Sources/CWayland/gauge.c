// The layer-shell gauge (CWayland.h), on libwayland-client opened with dlopen.
// The requests and events used are wl_display's, wl_registry's,
// wl_compositor's, wl_surface's and wl_output's core ones, and two of
// zwlr_layer_shell_v1 (wlr-protocols' layer shell, version 1 is enough):
// their interface tables are written out below, with the opcodes and
// signatures the protocol defines, since no wayland-protocols package ships
// the layer shell's XML.
#include "CWayland.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-util.h>

struct wl_display;
struct wl_proxy;

#define MARSHAL_DESTROY 1u

// The libwayland-client functions and interfaces the gauge uses.
static struct {
    struct wl_display *(*connect)(const char *);
    void (*disconnect)(struct wl_display *);
    int (*get_fd)(struct wl_display *);
    int (*roundtrip)(struct wl_display *);
    int (*dispatch_pending)(struct wl_display *);
    int (*prepare_read)(struct wl_display *);
    int (*read_events)(struct wl_display *);
    void (*cancel_read)(struct wl_display *);
    int (*flush)(struct wl_display *);
    int (*get_error)(struct wl_display *);
    struct wl_proxy *(*marshal)(struct wl_proxy *, uint32_t, const struct wl_interface *, uint32_t, uint32_t, ...);
    int (*add_listener)(struct wl_proxy *, void (**)(void), void *);
    uint32_t (*get_version)(struct wl_proxy *);
    void (*destroy)(struct wl_proxy *);
    const struct wl_interface *registry, *compositor, *surface, *output;
} wl;

static int load_libwayland(void) {
    static int loaded; // 1: loaded, -1: missing
    if (loaded) return loaded > 0;
    void *lib = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
    loaded = -1;
    if (!lib) return 0;
#define SYM(field, name) if (!(*(void **)&wl.field = dlsym(lib, name))) return 0
    SYM(connect, "wl_display_connect");
    SYM(disconnect, "wl_display_disconnect");
    SYM(get_fd, "wl_display_get_fd");
    SYM(roundtrip, "wl_display_roundtrip");
    SYM(dispatch_pending, "wl_display_dispatch_pending");
    SYM(prepare_read, "wl_display_prepare_read");
    SYM(read_events, "wl_display_read_events");
    SYM(cancel_read, "wl_display_cancel_read");
    SYM(flush, "wl_display_flush");
    SYM(get_error, "wl_display_get_error");
    SYM(marshal, "wl_proxy_marshal_flags");
    SYM(add_listener, "wl_proxy_add_listener");
    SYM(get_version, "wl_proxy_get_version");
    SYM(destroy, "wl_proxy_destroy");
    SYM(registry, "wl_registry_interface");
    SYM(compositor, "wl_compositor_interface");
    SYM(surface, "wl_surface_interface");
    SYM(output, "wl_output_interface");
#undef SYM
    loaded = 1;
    return 1;
}

// zwlr_layer_shell_v1 and zwlr_layer_surface_v1, version 1.
static const struct wl_interface *no_types[4];
static const struct wl_interface *get_layer_surface_types[5]; // filled in by layer_shell_interfaces()
static const struct wl_message layer_shell_requests[] = {
    {"get_layer_surface", "no?ous", get_layer_surface_types},
};
static const struct wl_message layer_surface_requests[] = {
    {"set_size", "uu", no_types},         {"set_anchor", "u", no_types},
    {"set_exclusive_zone", "i", no_types}, {"set_margin", "iiii", no_types},
    {"set_keyboard_interactivity", "u", no_types}, {"get_popup", "o", no_types},
    {"ack_configure", "u", no_types},     {"destroy", "", no_types},
};
static const struct wl_message layer_surface_events[] = {
    {"configure", "uuu", no_types},
    {"closed", "", no_types},
};
static struct wl_interface layer_shell_interface = {"zwlr_layer_shell_v1", 1, 1, layer_shell_requests, 0, NULL};
static struct wl_interface layer_surface_interface = {
    "zwlr_layer_surface_v1", 1, 8, layer_surface_requests, 2, layer_surface_events};

enum { SHELL_GET_LAYER_SURFACE = 0 };
enum { LAYER_SET_SIZE = 0, LAYER_SET_ANCHOR = 1, LAYER_SET_EXCLUSIVE_ZONE = 2, LAYER_ACK_CONFIGURE = 6, LAYER_DESTROY = 7 };
enum { ANCHOR_ALL = 1 | 2 | 4 | 8, LAYER_BACKGROUND = 0 };
enum { DISPLAY_GET_REGISTRY = 1, REGISTRY_BIND = 0, COMPOSITOR_CREATE_SURFACE = 0, SURFACE_DESTROY = 0, SURFACE_COMMIT = 6 };

static void layer_shell_interfaces(void) {
    get_layer_surface_types[0] = &layer_surface_interface;
    get_layer_surface_types[1] = wl.surface;
    get_layer_surface_types[2] = wl.output;
}

struct cwayland_gauge {
    struct wl_display *display;
    struct wl_proxy *registry, *compositor, *shell, *output, *surface, *layer;
    uint32_t output_name;
    // The output as it says: its current mode, scale and transform.
    int32_t mode_width, mode_height, scale, transform;
    uint32_t usable_width, usable_height;
    int configured, closed;
};

// MARK: - Events

static void (*output_listener[4])(void);

static void registry_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    struct cwayland_gauge *g = data;
    if (!strcmp(interface, "wl_compositor") && !g->compositor) {
        g->compositor = wl.marshal(registry, REGISTRY_BIND, wl.compositor, 1, 0, name, wl.compositor->name, 1u, NULL);
    } else if (!strcmp(interface, "zwlr_layer_shell_v1") && !g->shell) {
        g->shell = wl.marshal(registry, REGISTRY_BIND, &layer_shell_interface, 1, 0, name,
                              layer_shell_interface.name, 1u, NULL);
    } else if (!strcmp(interface, "wl_output") && !g->output) {
        uint32_t bound = version < 2 ? version : 2; // scale comes with version 2
        g->output = wl.marshal(registry, REGISTRY_BIND, wl.output, bound, 0, name, wl.output->name, bound, NULL);
        g->output_name = name;
        g->scale = 1;
        // At once: the output's events follow the bind in this roundtrip.
        wl.add_listener(g->output, output_listener, g);
    }
}

static void registry_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    struct cwayland_gauge *g = data;
    (void)registry;
    if (g->output && name == g->output_name) g->closed = 1;
}

static void output_geometry(void *data, struct wl_proxy *output, int32_t x, int32_t y, int32_t physical_width,
                            int32_t physical_height, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
    (void)output, (void)x, (void)y, (void)physical_width, (void)physical_height, (void)subpixel, (void)make,
        (void)model;
    ((struct cwayland_gauge *)data)->transform = transform;
}

static void output_mode(void *data, struct wl_proxy *output, uint32_t flags, int32_t width, int32_t height,
                        int32_t refresh) {
    (void)output, (void)refresh;
    struct cwayland_gauge *g = data;
    if (flags & 1u) { // the current mode
        g->mode_width = width;
        g->mode_height = height;
    }
}

static void output_done(void *data, struct wl_proxy *output) { (void)data, (void)output; }

static void output_scale(void *data, struct wl_proxy *output, int32_t factor) {
    (void)output;
    if (factor > 0) ((struct cwayland_gauge *)data)->scale = factor;
}

static void layer_configure(void *data, struct wl_proxy *layer, uint32_t serial, uint32_t width, uint32_t height) {
    struct cwayland_gauge *g = data;
    g->usable_width = width;
    g->usable_height = height;
    g->configured = 1;
    wl.marshal(layer, LAYER_ACK_CONFIGURE, NULL, wl.get_version(layer), 0, serial);
    wl.marshal(g->surface, SURFACE_COMMIT, NULL, wl.get_version(g->surface), 0);
}

static void layer_closed(void *data, struct wl_proxy *layer) {
    (void)layer;
    ((struct cwayland_gauge *)data)->closed = 1;
}

static void (*registry_listener[])(void) = {(void (*)(void))registry_global, (void (*)(void))registry_global_remove};
static void (*output_listener[4])(void) = {(void (*)(void))output_geometry, (void (*)(void))output_mode,
                                          (void (*)(void))output_done, (void (*)(void))output_scale};
static void (*layer_listener[])(void) = {(void (*)(void))layer_configure, (void (*)(void))layer_closed};

// MARK: - The gauge

static int display_error(struct wl_display *display) {
    int error = wl.get_error(display);
    return error > 0 ? error : EPIPE;
}

cwayland_gauge *cwayland_gauge_open(const char *display, int *error) {
    if (!load_libwayland()) {
        *error = CWAYLAND_NO_LIBRARY;
        return NULL;
    }
    layer_shell_interfaces();
    struct cwayland_gauge *g = calloc(1, sizeof *g);
    if (!g) {
        *error = ENOMEM;
        return NULL;
    }
    errno = 0;
    g->display = wl.connect(display);
    if (!g->display) {
        *error = errno > 0 ? errno : ECONNREFUSED;
        free(g);
        return NULL;
    }
    struct wl_proxy *proxy = (struct wl_proxy *)g->display;
    g->registry = wl.marshal(proxy, DISPLAY_GET_REGISTRY, wl.registry, wl.get_version(proxy), 0, NULL);
    wl.add_listener(g->registry, registry_listener, g);
    if (wl.roundtrip(g->display) < 0) goto lost;
    if (!g->compositor || !g->shell) {
        *error = CWAYLAND_NO_LAYER_SHELL;
        cwayland_gauge_close(g);
        return NULL;
    }
    if (!g->output) {
        *error = CWAYLAND_NO_OUTPUT;
        cwayland_gauge_close(g);
        return NULL;
    }
    g->surface = wl.marshal(g->compositor, COMPOSITOR_CREATE_SURFACE, wl.surface, wl.get_version(g->compositor), 0,
                            NULL);
    g->layer = wl.marshal(g->shell, SHELL_GET_LAYER_SURFACE, &layer_surface_interface, wl.get_version(g->shell), 0,
                          NULL, g->surface, g->output, (uint32_t)LAYER_BACKGROUND, "insetd-gauge");
    wl.add_listener(g->layer, layer_listener, g);
    uint32_t version = wl.get_version(g->layer);
    wl.marshal(g->layer, LAYER_SET_ANCHOR, NULL, version, 0, (uint32_t)ANCHOR_ALL);
    wl.marshal(g->layer, LAYER_SET_EXCLUSIVE_ZONE, NULL, version, 0, (int32_t)0);
    wl.marshal(g->layer, LAYER_SET_SIZE, NULL, version, 0, 0u, 0u);
    wl.marshal(g->surface, SURFACE_COMMIT, NULL, wl.get_version(g->surface), 0);
    // The output's events and the first configure; a compositor may send a
    // default size first and the arranged one right after.
    for (int i = 0; i < 3 && !(g->configured && g->mode_width > 0); i++)
        if (wl.roundtrip(g->display) < 0) goto lost;
    if (wl.roundtrip(g->display) < 0) goto lost;
    if (g->mode_width <= 0 || g->mode_height <= 0) {
        *error = CWAYLAND_NO_OUTPUT;
        cwayland_gauge_close(g);
        return NULL;
    }
    if (!g->configured) {
        *error = g->closed ? CWAYLAND_CLOSED : CWAYLAND_NO_CONFIGURE;
        cwayland_gauge_close(g);
        return NULL;
    }
    return g;
lost:
    *error = display_error(g->display);
    cwayland_gauge_close(g);
    return NULL;
}

int cwayland_gauge_update(cwayland_gauge *g) {
    while (wl.prepare_read(g->display) != 0)
        if (wl.dispatch_pending(g->display) < 0) return display_error(g->display);
    wl.flush(g->display);
    struct pollfd fd = {.fd = wl.get_fd(g->display), .events = POLLIN};
    if (poll(&fd, 1, 0) > 0) {
        if (wl.read_events(g->display) < 0) return display_error(g->display);
    } else {
        wl.cancel_read(g->display);
    }
    if (wl.dispatch_pending(g->display) < 0) return display_error(g->display);
    return g->closed ? CWAYLAND_CLOSED : 0;
}

void cwayland_gauge_sizes(const cwayland_gauge *g, double *output_width, double *output_height, double *usable_width,
                          double *usable_height) {
    double width = (double)g->mode_width / g->scale, height = (double)g->mode_height / g->scale;
    // Transforms 1, 3, 5 and 7 turn the output a quarter.
    int turned = g->transform & 1;
    *output_width = turned ? height : width;
    *output_height = turned ? width : height;
    *usable_width = g->usable_width;
    *usable_height = g->usable_height;
}

void cwayland_gauge_close(cwayland_gauge *g) {
    if (!g) return;
    if (g->layer) wl.marshal(g->layer, LAYER_DESTROY, NULL, wl.get_version(g->layer), MARSHAL_DESTROY);
    if (g->surface) wl.marshal(g->surface, SURFACE_DESTROY, NULL, wl.get_version(g->surface), MARSHAL_DESTROY);
    if (g->output) wl.destroy(g->output);
    if (g->shell) wl.destroy(g->shell);
    if (g->compositor) wl.destroy(g->compositor);
    if (g->registry) wl.destroy(g->registry);
    if (g->display) {
        wl.flush(g->display);
        wl.disconnect(g->display);
    }
    free(g);
}
