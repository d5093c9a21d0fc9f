// A focused field's container as an insetd view, and insetd's adjustments
// applied to it (docs/GTK.md): the offset to the GtkScrolledWindow's vertical
// adjustment, the padding as a bottom margin on the scrolled content (or on
// the window's child), never more than the keyboard covers of the view now.
// SPDX-License-Identifier: Apache-2.0
#include <math.h>
#include <string.h>

#include "insetd-gtk-view.h"

/* How long an offset insetd asked for is held while GTK grows the content
 * for the padding that makes it reachable. */
#define OFFSET_HOLD_US (300 * 1000)

struct InsetdGtkView {
	char name[32];
	GtkWidget *container; /* not a reference: insetd-gtk.c watches it */
	GtkWidget *padded;    /* weak pointer; NULL where nothing can be padded */
	GtkAdjustment *vadj;  /* a reference; NULL for a window */
	gulong changed_id, value_id;
	int own_margin, applied;
	double padding, offset;
	gint64 offset_until;
	guint realloc_idle;
	gboolean registered;
	struct insetd_view_desc sent;
};

static gboolean reallocate(gpointer data)
{
	InsetdGtkView *view = data;
	view->realloc_idle = 0;
	if (view->container)
		gtk_widget_queue_allocate(view->container);
	return G_SOURCE_REMOVE;
}

// Returns whether the value changed.
static gboolean hold_offset(InsetdGtkView *view)
{
	if (!view->vadj || g_get_monotonic_time() > view->offset_until)
		return FALSE;
	double upper = gtk_adjustment_get_upper(view->vadj), page = gtk_adjustment_get_page_size(view->vadj);
	double before = gtk_adjustment_get_value(view->vadj);
	gtk_adjustment_set_value(view->vadj, MIN(view->offset, MAX(0, upper - page)));
	if (upper - page >= view->offset - 0.5)
		view->offset_until = 0;
	return fabs(gtk_adjustment_get_value(view->vadj) - before) >= 0.5;
}

static void on_changed(GtkAdjustment *adj, gpointer data)
{
	(void)adj;
	InsetdGtkView *view = data;
	// Emitted while the viewport allocates: a value set now moves its child
	// only at the next allocation, which is asked for here.
	if (hold_offset(view) && !view->realloc_idle)
		view->realloc_idle = g_idle_add_full(G_PRIORITY_HIGH_IDLE, reallocate, view, NULL);
	insetd_gtk_schedule_update();
}

static void on_value_changed(GtkAdjustment *adj, gpointer data)
{
	(void)adj, (void)data;
	insetd_gtk_schedule_update();
}

InsetdGtkView *insetd_gtk_view_new(GtkWidget *container, const char *name)
{
	InsetdGtkView *view = g_new0(InsetdGtkView, 1);
	g_strlcpy(view->name, name, sizeof view->name);
	view->container = container;
	if (GTK_IS_SCROLLED_WINDOW(container)) {
		GtkWidget *child = gtk_scrolled_window_get_child(GTK_SCROLLED_WINDOW(container));
		// A plain widget scrolls inside a GtkViewport: its margin grows the
		// scrolled content. A scrollable of its own (a list, a text view)
		// is not padded.
		if (GTK_IS_VIEWPORT(child))
			view->padded = gtk_viewport_get_child(GTK_VIEWPORT(child));
		view->vadj = g_object_ref(gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(container)));
		view->changed_id = g_signal_connect(view->vadj, "changed", G_CALLBACK(on_changed), view);
		view->value_id = g_signal_connect(view->vadj, "value-changed", G_CALLBACK(on_value_changed), view);
	} else if (GTK_IS_WINDOW(container)) {
		view->padded = gtk_window_get_child(GTK_WINDOW(container));
	}
	if (view->padded)
		g_object_add_weak_pointer(G_OBJECT(view->padded), (gpointer *)&view->padded);
	return view;
}

void insetd_gtk_view_forget(InsetdGtkView *view)
{
	if (view->realloc_idle)
		g_source_remove(view->realloc_idle);
	view->realloc_idle = 0;
	if (view->vadj) {
		g_signal_handler_disconnect(view->vadj, view->changed_id);
		g_signal_handler_disconnect(view->vadj, view->value_id);
		g_clear_object(&view->vadj);
	}
	if (view->padded)
		g_object_remove_weak_pointer(G_OBJECT(view->padded), (gpointer *)&view->padded);
	view->padded = NULL;
	view->container = NULL;
}

void insetd_gtk_view_free(gpointer data)
{
	insetd_gtk_view_forget(data);
	g_free(data);
}

const char *insetd_gtk_view_name(InsetdGtkView *view)
{
	return view->name;
}

GtkWidget *insetd_gtk_view_container(InsetdGtkView *view)
{
	return view->container;
}

double insetd_gtk_view_offset(InsetdGtkView *view)
{
	return view->vadj ? gtk_adjustment_get_value(view->vadj) : 0;
}

gboolean insetd_gtk_view_frame(InsetdGtkView *view, GtkWidget *window, graphene_rect_t *frame)
{
	if (!view->container)
		return FALSE;
	if (view->container == window) {
		*frame = GRAPHENE_RECT_INIT(0, 0, gtk_widget_get_width(window), gtk_widget_get_height(window));
		return TRUE;
	}
	return gtk_widget_compute_bounds(view->container, window, frame);
}

void insetd_gtk_view_describe(InsetdGtkView *view, struct insetd *ctx, GtkWidget *window)
{
	graphene_rect_t frame;
	if (!window || !insetd_gtk_view_frame(view, window, &frame) || frame.size.width <= 0 || frame.size.height <= 0)
		return;
	struct insetd_view_desc desc;
	insetd_view_desc_init(&desc);
	desc.frame = (struct insetd_rect){frame.origin.x, frame.origin.y, frame.size.width, frame.size.height};
	desc.content_size = (struct insetd_size){frame.size.width, frame.size.height};
	if (view->vadj) {
		// The content as the app made it: without this module's padding.
		double upper = gtk_adjustment_get_upper(view->vadj) - view->applied;
		desc.content_size.height = MAX(upper, 0);
		// While an offset insetd asked for is still being reached, insetd's
		// own offset: what GTK shows meanwhile is no scroll of the user's.
		double offset = view->offset_until ? view->offset : gtk_adjustment_get_value(view->vadj);
		desc.content_offset = (struct insetd_point){0, offset};
	}
	// The app lays its content out itself: insetd must not stretch it.
	desc.content_stretches = false;
	desc.behavior = INSETD_BEHAVIOR_SAFE_AREA_INSETS;
	if (view->registered && memcmp(&desc, &view->sent, sizeof desc) == 0)
		return;
	int r = view->registered ? insetd_update_view(ctx, view->name, &desc)
				 : insetd_register_view(ctx, view->name, &desc);
	if (r == 0) {
		view->registered = TRUE;
		view->sent = desc;
	}
}

static void set_padding(InsetdGtkView *view, int px)
{
	if (!view->padded || px == view->applied)
		return;
	if (view->applied == 0)
		view->own_margin = gtk_widget_get_margin_bottom(view->padded);
	view->applied = px;
	gtk_widget_set_margin_bottom(view->padded, view->own_margin + px);
}

void insetd_gtk_view_clamp(InsetdGtkView *view)
{
	double covered = insetd_gtk_covered(view);
	set_padding(view, (int)floor(MIN(view->padding, covered) + 0.5));
}

void insetd_gtk_view_apply(InsetdGtkView *view, double padding, double offset)
{
	if (!view->container)
		return;
	view->padding = MAX(padding, 0);
	int before = view->applied;
	insetd_gtk_view_clamp(view);
	if (view->vadj && fabs(offset - gtk_adjustment_get_value(view->vadj)) >= 0.5) {
		view->offset = offset;
		view->offset_until = g_get_monotonic_time() + OFFSET_HOLD_US;
		// The padding grows the content at the next allocation: its range
		// grows now, so that padding and scroll land in the same frame.
		GtkAdjustment *a = view->vadj;
		double upper = gtk_adjustment_get_upper(a) + (view->applied - before);
		gtk_adjustment_configure(a, MIN(offset, MAX(0, upper - gtk_adjustment_get_page_size(a))),
					 gtk_adjustment_get_lower(a), upper, gtk_adjustment_get_step_increment(a),
					 gtk_adjustment_get_page_increment(a), gtk_adjustment_get_page_size(a));
		hold_offset(view);
	}
}

void insetd_gtk_view_restore(InsetdGtkView *view)
{
	view->padding = 0;
	view->offset_until = 0;
	set_padding(view, 0);
}
