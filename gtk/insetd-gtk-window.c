// The window the focused field is in (docs/GTK.md): its size as the
// compositor sets it, seen in the frame that shows it; the output it is on,
// whose turn lays the views out anew; and the end of GTK's layout phase,
// where insetd's answer to a resize still makes that frame.
// SPDX-License-Identifier: Apache-2.0
#include "insetd-gtk-window.h"

#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

static struct {
	GtkWidget *window;
	GdkSurface *surface;
	gulong layout_id;
	GdkFrameClock *clock; /* the surface's, while it is tracked */
	gulong clock_layout_id;
	/* The compositor resized the window since GTK last laid it out. */
	gboolean resized;
	/* The frame whose layout last waited for insetd's answer. */
	gint64 answered_frame;
	GdkMonitor *monitor; /* the output the window is on, and its size as last seen */
	gulong monitor_id;
	int screen_w, screen_h;
	int win_w, win_h;
	int unshrunk_h; /* the window's height while no keyboard was shown */
} W;

GtkWidget *insetd_gtk_window_get(void)
{
	return W.window;
}

void insetd_gtk_window_size(int *width, int *height)
{
	*width = W.win_w;
	*height = W.win_h;
}

int insetd_gtk_window_unshrunk_height(void)
{
	return W.unshrunk_h;
}

struct insetd_size insetd_gtk_window_geometry(void)
{
#ifdef GDK_WINDOWING_WAYLAND
	// Before its first allocation the window is its surface's size.
	if (W.surface && GDK_IS_WAYLAND_SURFACE(W.surface) && W.window)
		return gtk_widget_get_height(W.window) > 0
			       ? (struct insetd_size){gtk_widget_get_width(W.window), gtk_widget_get_height(W.window)}
			       : (struct insetd_size){W.win_w, W.win_h};
#endif
	return (struct insetd_size){0, 0};
}

static void check_screen(void);

static void on_monitor_geometry(GObject *monitor, GParamSpec *pspec, gpointer data)
{
	(void)monitor, (void)pspec, (void)data;
	check_screen();
}

// The output the window is on turned (or the window moved to another). The
// output as first seen is the one insetd was configured with.
static void check_screen(void)
{
	if (!W.surface)
		return;
	GdkMonitor *monitor = gdk_display_get_monitor_at_surface(gdk_surface_get_display(W.surface), W.surface);
	if (monitor != W.monitor) {
		if (W.monitor) {
			g_signal_handler_disconnect(W.monitor, W.monitor_id);
			g_object_remove_weak_pointer(G_OBJECT(W.monitor), (gpointer *)&W.monitor);
		}
		W.monitor = monitor;
		if (monitor) {
			g_object_add_weak_pointer(G_OBJECT(monitor), (gpointer *)&W.monitor);
			W.monitor_id = g_signal_connect(monitor, "notify::geometry", G_CALLBACK(on_monitor_geometry), NULL);
		}
	}
	if (!monitor)
		return;
	GdkRectangle geometry;
	gdk_monitor_get_geometry(monitor, &geometry);
	if (geometry.width <= 0 || geometry.height <= 0 ||
	    (geometry.width == W.screen_w && geometry.height == W.screen_h))
		return;
	gboolean first = W.screen_w == 0;
	W.screen_w = geometry.width;
	W.screen_h = geometry.height;
	if (!first)
		insetd_gtk_screen_turned(geometry.width, geometry.height);
}

// The window's size as the compositor set it (sway shrinks a tiled window
// for the keyboard's zone): clamped at once, in the frame that shows it.
static void on_layout(GdkSurface *surface, int width, int height, gpointer data)
{
	(void)surface, (void)data;
	if (width == W.win_w && height == W.win_h)
		return;
	// A turned output first, then the window resized for it.
	check_screen();
	// A size that cannot be a shrink for the keyboard is the one to compare
	// with: any while the keyboard is down; while it is up, a new width (the
	// output turned: the window is laid out anew) or more height than before.
	gboolean turned = width != W.win_w;
	W.win_w = width;
	W.win_h = height;
	if (!insetd_gtk_keyboard_shown() || turned || height > W.unshrunk_h)
		W.unshrunk_h = height;
	W.resized = TRUE;
	insetd_gtk_window_resized();
}

// Connected after GTK's own handlers of the frame clock's layout phase, so
// run once GTK allocated the window at its new size and before it paints.
// GTK loops in that phase while layout is requested: a padding set from here
// is allocated in the same frame.
static void on_clock_layout(GdkFrameClock *clock, gpointer data)
{
	(void)data;
	if (!W.resized)
		return;
	W.resized = FALSE;
	// A window GTK sizes itself can grow again in a later round of the same
	// layout phase (the padding raised its minimum): one wait a frame.
	gint64 frame = gdk_frame_clock_get_frame_counter(clock);
	gboolean first = frame != W.answered_frame;
	W.answered_frame = frame;
	insetd_gtk_window_laid_out(first);
}

static void forget_window(void)
{
	if (W.surface) {
		g_signal_handler_disconnect(W.surface, W.layout_id);
		g_object_remove_weak_pointer(G_OBJECT(W.surface), (gpointer *)&W.surface);
	}
	if (W.clock) {
		g_signal_handler_disconnect(W.clock, W.clock_layout_id);
		g_object_remove_weak_pointer(G_OBJECT(W.clock), (gpointer *)&W.clock);
	}
	if (W.window)
		g_object_remove_weak_pointer(G_OBJECT(W.window), (gpointer *)&W.window);
	W.surface = NULL;
	W.clock = NULL;
	W.window = NULL;
	W.resized = FALSE;
}

void insetd_gtk_window_track(GtkWidget *widget)
{
	// The toplevel's surface, not a popover's the field may sit in.
	GtkRoot *root = gtk_widget_get_root(widget);
	GdkSurface *surface = GTK_IS_WINDOW(root) ? gtk_native_get_surface(GTK_NATIVE(root)) : NULL;
	if (!surface)
		return;
	if (W.window == GTK_WIDGET(root) && W.surface == surface)
		return;
	forget_window();
	W.window = GTK_WIDGET(root);
	W.surface = surface;
	g_object_add_weak_pointer(G_OBJECT(W.window), (gpointer *)&W.window);
	g_object_add_weak_pointer(G_OBJECT(W.surface), (gpointer *)&W.surface);
	W.layout_id = g_signal_connect(surface, "layout", G_CALLBACK(on_layout), NULL);
	W.clock = gdk_surface_get_frame_clock(surface);
	if (W.clock) {
		g_object_add_weak_pointer(G_OBJECT(W.clock), (gpointer *)&W.clock);
		W.clock_layout_id = g_signal_connect_after(W.clock, "layout", G_CALLBACK(on_clock_layout), NULL);
	}
	W.answered_frame = -1;
	W.win_w = gdk_surface_get_width(surface);
	W.win_h = gdk_surface_get_height(surface);
	W.unshrunk_h = insetd_gtk_keyboard_shown() ? 0 : W.win_h;
	check_screen();
}
