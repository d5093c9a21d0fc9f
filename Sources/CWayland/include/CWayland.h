/* The compositor's usable area, as a Wayland client measures it: an unmapped
   layer-shell surface anchored to every edge of an output with exclusive zone
   0 is configured to the output less every other surface's exclusive zone (an
   on-screen keyboard's among them), and configured again when one changes.
   insetd-osk reads it where the compositor has no IPC that says it (Mir, phoc).

   libwayland-client is opened on the first call, not linked: insetd and
   insetd-osk are one multi-call binary, and the daemon never talks Wayland. */
#ifndef CWAYLAND_H
#define CWAYLAND_H

/* Why `cwayland_gauge_open` failed, beside a positive errno. */
enum {
    CWAYLAND_NO_LIBRARY = -1,     /* libwayland-client.so.0 is not installed */
    CWAYLAND_NO_LAYER_SHELL = -2, /* the compositor offers no zwlr_layer_shell_v1 */
    CWAYLAND_NO_OUTPUT = -3,      /* no output, or none said its size */
    CWAYLAND_NO_CONFIGURE = -4,   /* the compositor never configured the surface */
    CWAYLAND_CLOSED = -5,         /* the compositor closed the surface (its output went) */
};

typedef struct cwayland_gauge cwayland_gauge;

/* Connects to `display` (a $WAYLAND_DISPLAY name or path; NULL: libwayland's
   default) and sets the gauge up on the first output. NULL on failure, with
   *error a positive errno or one of the values above. */
cwayland_gauge *cwayland_gauge_open(const char *display, int *error);

/* Takes in what the compositor sent since, without blocking. 0, or a positive
   errno or CWAYLAND_CLOSED once the gauge no longer measures. */
int cwayland_gauge_update(cwayland_gauge *gauge);

/* The output's logical size (its current mode over its scale, turned by its
   transform) and the usable area's size, as last configured. */
void cwayland_gauge_sizes(const cwayland_gauge *gauge, double *output_width, double *output_height,
                          double *usable_width, double *usable_height);

void cwayland_gauge_close(cwayland_gauge *gauge);

#endif
