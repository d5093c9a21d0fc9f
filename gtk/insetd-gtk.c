// The GTK4 module's side facing insetd (docs/GTK.md): reports the focused
// field's view, the field and the window to insetd through libinsetd, and
// applies what insetd answers (a scroll offset, a bottom padding), never more
// padding than the keyboard covers of the view at this frame. insetd decides;
// this file only reports and applies. Without insetd nothing here changes the
// app: no view is padded or scrolled.
// SPDX-License-Identifier: Apache-2.0
#include <glib-unix.h>
#include <insetd.h>
#include <math.h>
#include <string.h>

#include "insetd-gtk.h"
#include "insetd-gtk-view.h"
#include "insetd-gtk-window.h"

/* The process's one link to insetd: the connection, the focused field, and
 * the keyboard as insetd last described it. */
static struct {
	struct insetd *ctx;
	GHashTable *views; /* container widget -> InsetdGtkView */
	GtkWidget *focused;
	InsetdGtkView *focused_view;
	GdkRectangle cursor;
	gboolean has_cursor;
	struct insetd_rect last_field;
	struct insetd_rect sent_window;
	struct insetd_size sent_toplevel;
	/* Where insetd placed the window on the screen (its PLACED event): the
	 * keyboard, in screen points, is in the window's coordinates there. */
	struct insetd_point origin;
	gboolean kb_visible;
	struct insetd_rect kb;
	/* The output turned since insetd last described the keyboard: that
	 * keyboard was laid out for the other orientation, and covers nothing
	 * until insetd's word for this one. */
	gboolean kb_turned;
	guint blur_idle, update_idle;
	unsigned next_view;
	/* No wait for insetd's answer to a resize before this time (µs). */
	gint64 late_until;
} L;

static void log_handler(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx, (void)data;
	// Connection state only (libinsetd passes nothing typed): quiet unless
	// G_MESSAGES_DEBUG=insetd-gtk.
	g_log("insetd-gtk", priority == INSETD_LOG_ERROR ? G_LOG_LEVEL_INFO : G_LOG_LEVEL_DEBUG, "%s", message);
}

/* The keyboard's part over the view now: the keyboard in the window as it
 * is at this frame (a shrink insetd has not heard of yet counts). A window
 * the compositor shrank while the keyboard is shown was shrunk for its
 * exclusive zone: the keyboard is below it, wherever insetd still places it
 * (the configured frame of a first show whose real frame is late). */
double insetd_gtk_covered(InsetdGtkView *view)
{
	GtkWidget *window = insetd_gtk_window_get();
	int win_w, win_h;
	insetd_gtk_window_size(&win_w, &win_h);
	if (!L.kb_visible || L.kb_turned || !window || win_h <= 0 || win_h < insetd_gtk_window_unshrunk_height())
		return 0;
	graphene_rect_t frame;
	if (!insetd_gtk_view_frame(view, window, &frame))
		return 0;
	double kx = L.kb.x - L.origin.x, ky = L.kb.y - L.origin.y;
	double top = MAX(MAX(frame.origin.y, 0), ky);
	double bottom = MIN(MIN(frame.origin.y + frame.size.height, win_h), ky + L.kb.height);
	double left = MAX(MAX(frame.origin.x, 0), kx);
	double right = MIN(MIN(frame.origin.x + frame.size.width, win_w), kx + L.kb.width);
	return (bottom > top && right > left) ? bottom - top : 0;
}

static void each_view(void (*apply)(InsetdGtkView *))
{
	GHashTableIter it;
	gpointer key, value;
	if (!L.views)
		return;
	g_hash_table_iter_init(&it, L.views);
	while (g_hash_table_iter_next(&it, &key, &value))
		apply(value);
}

static void clamp_all(void)
{
	each_view(insetd_gtk_view_clamp);
}

static void restore_all(void)
{
	each_view(insetd_gtk_view_restore);
}

static InsetdGtkView *view_named(const char *name)
{
	GHashTableIter it;
	gpointer key, value;
	g_hash_table_iter_init(&it, L.views);
	while (g_hash_table_iter_next(&it, &key, &value))
		if (g_strcmp0(insetd_gtk_view_name(value), name) == 0)
			return value;
	return NULL;
}

static void handle(struct insetd_event *event)
{
	struct insetd_state state;
	switch (insetd_event_get_type(event)) {
	case INSETD_EVENT_CONNECTED:
		insetd_event_get_state(event, &state);
		L.kb_visible = state.keyboard_visible;
		L.kb = state.keyboard;
		L.kb_turned = FALSE;
		clamp_all();
		break;
	case INSETD_EVENT_DISCONNECTED:
		// No keyboard is known: every view as the app made it. A new
		// insetd has placed the window nowhere yet.
		L.kb_visible = FALSE;
		L.origin = (struct insetd_point){0, 0};
		restore_all();
		break;
	case INSETD_EVENT_KEYBOARD: {
		enum insetd_keyboard_phase phase = insetd_event_keyboard_get_phase(event);
		L.kb_visible = phase != INSETD_PHASE_WILL_HIDE && phase != INSETD_PHASE_DID_HIDE;
		L.kb = insetd_event_keyboard_get_end(event);
		L.kb_turned = FALSE;
		clamp_all();
		break;
	}
	case INSETD_EVENT_ADJUSTMENT: {
		InsetdGtkView *view = view_named(insetd_event_get_view(event));
		GtkWidget *container = view ? insetd_gtk_view_container(view) : NULL;
		if (!container)
			break;
		// Held while the adjustment is applied: the app's own handlers of
		// the scroll it changes may destroy the view's widgets, which then
		// go (and the view with them) once this is done.
		g_object_ref(container);
		insetd_gtk_view_apply(view, insetd_event_adjustment_get_adjusted_content_inset(event).bottom,
				      insetd_event_adjustment_get_content_offset(event).y);
		g_object_unref(container);
		break;
	}
	case INSETD_EVENT_PLACED:
		// The same keyboard, measured from where the compositor draws the
		// window: clamped in the next frame, before insetd's adjustment for
		// the new place arrives.
		L.origin = insetd_event_placed_get_origin(event);
		clamp_all();
		break;
	default:
		break;
	}
}

static void deliver_queued(void)
{
	struct insetd_event *event;
	while ((event = insetd_get_event(L.ctx))) {
		handle(event);
		insetd_event_destroy(event);
	}
}

static gboolean on_readable(int fd, GIOCondition condition, gpointer data)
{
	(void)fd, (void)condition, (void)data;
	insetd_dispatch(L.ctx);
	deliver_queued();
	return G_SOURCE_CONTINUE;
}

// Where libinsetd looks for insetd (docs/CLIENTS.md), to know whether insetd
// is there at all.
static gboolean socket_exists(void)
{
	const char *env = g_getenv("INSETD_SOCKET");
	if (env && *env)
		return g_file_test(env, G_FILE_TEST_EXISTS);
	g_autofree char *user = g_build_filename(g_get_user_runtime_dir(), "insetd.sock", NULL);
	return g_file_test(user, G_FILE_TEST_EXISTS) || g_file_test("/run/insetd/insetd.sock", G_FILE_TEST_EXISTS);
}

// The connection is made at the first focus of a text field while insetd's
// socket exists, not when GTK loads the module: an app that never focuses a
// text field, or runs where insetd is not, never talks to insetd nor retries
// in the background. Once made, libinsetd keeps it (never blocking; across
// insetd's restarts it reconnects and restates everything).
static gboolean ensure_ctx(void)
{
	if (L.ctx)
		return TRUE;
	if (!socket_exists())
		return FALSE;
	const char *name = g_get_prgname();
	L.ctx = insetd_new(NULL, name && *name ? name : "gtk");
	if (!L.ctx)
		return FALSE;
	insetd_set_log_handler(L.ctx, log_handler, NULL);
	g_unix_fd_add(insetd_get_fd(L.ctx), G_IO_IN, on_readable, NULL);
	L.views = g_hash_table_new_full(NULL, NULL, NULL, insetd_gtk_view_free);
	return TRUE;
}

// The field in the view's content coordinates; a tall one (a text view) is
// its cursor's line.
static struct insetd_rect field_rect(InsetdGtkView *view, GtkWidget *widget)
{
	graphene_rect_t b;
	GtkWidget *container = insetd_gtk_view_container(view);
	// The field the user sees: the GtkEntry or Adw.EntryRow around the
	// GtkText that has the input focus, frame and all.
	GtkWidget *parent = gtk_widget_get_parent(widget);
	GtkWidget *editable = parent ? gtk_widget_get_ancestor(parent, GTK_TYPE_EDITABLE) : NULL;
	GtkWidget *field = editable && gtk_widget_is_ancestor(editable, container) ? editable : widget;
	if (!gtk_widget_compute_bounds(field, container, &b))
		return (struct insetd_rect){0, 0, 0, 0};
	double height = gtk_widget_get_height(container);
	if (L.has_cursor && b.size.height > height / 2) {
		graphene_point_t p = GRAPHENE_POINT_INIT(L.cursor.x, L.cursor.y), q;
		if (gtk_widget_compute_point(widget, container, &p, &q))
			b = GRAPHENE_RECT_INIT(q.x, q.y, MAX(L.cursor.width, 1), MAX(L.cursor.height, 1));
	}
	return (struct insetd_rect){b.origin.x, b.origin.y + insetd_gtk_view_offset(view), b.size.width,
				    b.size.height};
}

// Everything insetd needs for the focused field, sent only when it changed.
static gboolean send_state(gpointer data)
{
	(void)data;
	L.update_idle = 0;
	int win_w, win_h;
	insetd_gtk_window_size(&win_w, &win_h);
	if (!L.focused || !L.focused_view || !L.ctx || win_w <= 0 || win_h <= 0)
		return G_SOURCE_REMOVE;
	// Wayland tells a client nothing of its place: the window is taken to be
	// at the output's top-left (a kiosk's or phone's maximized window), and
	// insetd is told the window's size, so that it places the window where
	// an OSK bridge says the compositor draws it (GNOME Shell's maximized
	// window under its top bar).
	struct insetd_rect window = {0, 0, win_w, win_h};
	struct insetd_size toplevel = insetd_gtk_window_geometry();
	if (memcmp(&window, &L.sent_window, sizeof window) != 0 ||
	    memcmp(&toplevel, &L.sent_toplevel, sizeof toplevel) != 0) {
		if (toplevel.width > 0)
			insetd_set_unplaced_window(L.ctx, window, toplevel);
		else
			insetd_set_window(L.ctx, window);
		L.sent_window = window;
		L.sent_toplevel = toplevel;
	}
	insetd_gtk_view_describe(L.focused_view, L.ctx, insetd_gtk_window_get());
	struct insetd_rect field = field_rect(L.focused_view, L.focused);
	if (memcmp(&field, &L.last_field, sizeof field) != 0) {
		insetd_focus(L.ctx, insetd_gtk_view_name(L.focused_view), field);
		L.last_field = field;
	}
	return G_SOURCE_REMOVE;
}

void insetd_gtk_schedule_update(void)
{
	if (!L.update_idle && L.focused)
		L.update_idle = g_idle_add_full(G_PRIORITY_HIGH_IDLE + 30, send_state, NULL, NULL);
}

gboolean insetd_gtk_keyboard_shown(void)
{
	return L.kb_visible;
}

void insetd_gtk_window_resized(void)
{
	clamp_all();
	insetd_gtk_schedule_update();
}

// insetd lays the views out anew with the keyboard of the turned output. A
// turn of no duration, as insetd.js and the Qt modules say: the compositor
// turns the window at once, and the OSK's report for the turned screen moves
// the views as the keyboard moves.
void insetd_gtk_screen_turned(int width, int height)
{
	if (!L.ctx)
		return;
	L.kb_turned = TRUE;
	clamp_all();
	g_log("insetd-gtk", G_LOG_LEVEL_DEBUG, "screen %dx%d", width, height);
	struct insetd_size turned = {width, height};
	insetd_transition(L.ctx, 0, &turned);
}

/* How long a frame waits at most for insetd's answer to a resize: a busy
 * insetd costs the frame this much, and its answer then arrives as usual.
 * The Qt modules wait as long (qt/shared/insetdanswer.h). */
#define ANSWER_WAIT_MS 8
/* After an answer that came late, how long resizes are not waited on: a
 * stalled insetd must not cost every frame of a drag-resize its wait. */
#define LATE_ANSWER_PAUSE_US (1000 * 1000)

// The compositor resized the window with a field focused in it (made room
// for the keyboard, or took it back), and GTK allocated the new size: the
// window, the view and the field go to insetd now, and its answer (the field
// scrolled into the new size, the padding) is applied before this frame
// paints, not in the next one, as Android hands an app the end state before
// its layout.
void insetd_gtk_window_laid_out(gboolean may_wait)
{
	GtkWidget *window = insetd_gtk_window_get();
	if (!L.ctx || !L.focused || !L.focused_view || !window || GTK_WIDGET(gtk_widget_get_root(L.focused)) != window)
		return;
	if (L.update_idle) {
		g_source_remove(L.update_idle);
		L.update_idle = 0;
	}
	send_state(NULL);
	gint64 start = g_get_monotonic_time();
	if (!may_wait || start < L.late_until)
		return;
	int answered = insetd_roundtrip(L.ctx, ANSWER_WAIT_MS);
	gint64 end = g_get_monotonic_time();
	L.late_until = answered == 0 ? 0 : end + LATE_ANSWER_PAUSE_US;
	g_log("insetd-gtk", G_LOG_LEVEL_DEBUG, "insetd's answer before the frame: %s after %lld us",
	      answered == 0 ? "in" : "late", (long long)(end - start));
	deliver_queued();
}

static void on_view_gone(gpointer data, GObject *container)
{
	(void)data;
	InsetdGtkView *view = g_hash_table_lookup(L.views, container);
	if (!view)
		return;
	if (L.focused_view == view)
		L.focused_view = NULL;
	insetd_gtk_view_forget(view);
	if (L.ctx)
		insetd_unregister_view(L.ctx, insetd_gtk_view_name(view));
	g_hash_table_remove(L.views, container);
}

static InsetdGtkView *view_for(GtkWidget *widget)
{
	GtkWidget *container = gtk_widget_get_ancestor(widget, GTK_TYPE_SCROLLED_WINDOW);
	if (!container)
		container = insetd_gtk_window_get();
	if (!container)
		return NULL;
	InsetdGtkView *view = g_hash_table_lookup(L.views, container);
	if (!view) {
		char name[32];
		g_snprintf(name, sizeof name, "gtk-%u", ++L.next_view);
		view = insetd_gtk_view_new(container, name);
		g_hash_table_insert(L.views, container, view);
		g_object_weak_ref(G_OBJECT(container), on_view_gone, NULL);
	}
	return view;
}

static void forget_focused(void)
{
	if (L.focused)
		g_object_remove_weak_pointer(G_OBJECT(L.focused), (gpointer *)&L.focused);
	L.focused = NULL;
	L.focused_view = NULL;
	L.has_cursor = FALSE;
	memset(&L.last_field, 0, sizeof L.last_field);
}

void insetd_gtk_focus(GtkWidget *widget)
{
	if (L.blur_idle) {
		g_source_remove(L.blur_idle);
		L.blur_idle = 0;
	}
	if (!ensure_ctx())
		return;
	if (L.focused != widget) {
		forget_focused();
		L.focused = widget;
		g_object_add_weak_pointer(G_OBJECT(widget), (gpointer *)&L.focused);
	}
	insetd_gtk_window_track(widget);
	L.focused_view = view_for(widget);
	// A focus moved within the app is one `focus`, never a blur first.
	memset(&L.last_field, 0, sizeof L.last_field);
	send_state(NULL);
}

static gboolean send_blur(gpointer data)
{
	(void)data;
	L.blur_idle = 0;
	if (L.ctx && L.focused_view) {
		insetd_blur(L.ctx, insetd_gtk_view_name(L.focused_view));
		// The blur hides the keyboard (insetd tells the OSK at once): the
		// padding goes now, in the app's next frame, not after insetd's
		// answer, which a busy app may read after the keyboard is gone.
		// Less padding than the keyboard covers is never a wrong frame, and
		// no field of this view needs it now.
		insetd_gtk_view_restore(L.focused_view);
	}
	forget_focused();
	return G_SOURCE_REMOVE;
}

// Held to the end of this main-loop turn: GTK takes the focus from one field
// before giving it to the next. A focused field already destroyed (L.focused
// cleared) is blurred by its context's last word.
void insetd_gtk_blur(GtkWidget *widget)
{
	if ((L.focused && widget != L.focused) || !L.focused_view || L.blur_idle)
		return;
	L.blur_idle = g_idle_add_full(G_PRIORITY_HIGH_IDLE, send_blur, NULL, NULL);
}

void insetd_gtk_cursor(GtkWidget *widget, const GdkRectangle *area)
{
	if (widget != L.focused)
		return;
	L.cursor = *area;
	L.has_cursor = TRUE;
	insetd_gtk_schedule_update();
}
