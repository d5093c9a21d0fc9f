// The GTK4 input-method module `insetd` (docs/GTK.md): GTK loads it into
// every GTK4 app from its immodules directory. Its context is a wrapper: all
// input-method work is done by the module the user would have had (GTK's
// `wayland` text-input, or ibus / fcitx), and the wrapper only tells
// insetd-gtk.c which text widget has the focus and where its cursor is.
// SPDX-License-Identifier: Apache-2.0
#include <gio/gio.h>
#include <gtk/gtk.h>
#include <gtk/gtkimmodule.h>
#include <string.h>

#include "insetd-gtk.h"

// Above GTK's own `wayland` (100): installed, the module is every app's
// default without any setting. GTK_IM_MODULE or the GSettings key
// org.gnome.desktop.interface gtk-im-module (a name) still choose first.
#define INSETD_IM_PRIORITY 110
#define INSETD_IM_NAME "insetd"

/* InsetdIMContext: a GtkIMContext forwarding everything to a delegate
 * context, so that insetd learns focus, blur and the field's place without
 * taking the user's input method away. */
typedef struct {
	GtkIMContext parent;
	GtkIMContext *delegate;
	GtkWidget *widget; /* the client widget (not a reference) */
	gboolean focused;
} InsetdIMContext;

typedef struct {
	GtkIMContextClass parent;
} InsetdIMContextClass;

G_DEFINE_DYNAMIC_TYPE(InsetdIMContext, insetd_im_context, GTK_TYPE_IM_CONTEXT)

#define INSETD_IM(o) ((InsetdIMContext *)(o))

static gboolean usable_here(const char *name)
{
	GdkDisplay *display = gdk_display_get_default();
	const char *type = display ? G_OBJECT_TYPE_NAME(display) : "";
	// GTK's own backend-bound modules work only on their backend.
	if (strcmp(name, "wayland") == 0)
		return strstr(type, "Wayland") != NULL;
	if (strcmp(name, "broadway") == 0)
		return strstr(type, "Broadway") != NULL;
	return strcmp(name, INSETD_IM_NAME) != 0;
}

// The module the user would have had without this one: the next name after
// `insetd` in GTK_IM_MODULE (`GTK_IM_MODULE=insetd:ibus`), else the
// registered module of the highest priority usable on this display.
static GType delegate_type(void)
{
	GIOExtensionPoint *point = g_io_extension_point_lookup(GTK_IM_MODULE_EXTENSION_POINT_NAME);
	const char *env = g_getenv("GTK_IM_MODULE");
	if (env) {
		g_auto(GStrv) names = g_strsplit(env, ":", -1);
		gboolean after = FALSE;
		for (char **n = names; *n; n++) {
			if (strcmp(*n, INSETD_IM_NAME) == 0) {
				after = TRUE;
				continue;
			}
			GIOExtension *ext = after ? g_io_extension_point_get_extension_by_name(point, *n) : NULL;
			if (ext)
				return g_io_extension_get_type(ext);
		}
	}
	// The list is sorted by priority, highest first.
	for (GList *l = g_io_extension_point_get_extensions(point); l; l = l->next) {
		GIOExtension *ext = l->data;
		if (usable_here(g_io_extension_get_name(ext)))
			return g_io_extension_get_type(ext);
	}
	return GTK_TYPE_IM_CONTEXT_SIMPLE;
}

/* The delegate's signals, re-emitted as this context's: the text passes
 * through and is never looked at. */
static void on_preedit_start(GtkIMContext *d, gpointer self) { (void)d; g_signal_emit_by_name(self, "preedit-start"); }
static void on_preedit_end(GtkIMContext *d, gpointer self) { (void)d; g_signal_emit_by_name(self, "preedit-end"); }
static void on_preedit_changed(GtkIMContext *d, gpointer self) { (void)d; g_signal_emit_by_name(self, "preedit-changed"); }
static void on_commit(GtkIMContext *d, const char *text, gpointer self) { (void)d; g_signal_emit_by_name(self, "commit", text); }

static gboolean on_retrieve_surrounding(GtkIMContext *d, gpointer self)
{
	(void)d;
	gboolean handled = FALSE;
	g_signal_emit_by_name(self, "retrieve-surrounding", &handled);
	return handled;
}

static gboolean on_delete_surrounding(GtkIMContext *d, int offset, int n_chars, gpointer self)
{
	(void)d;
	gboolean handled = FALSE;
	g_signal_emit_by_name(self, "delete-surrounding", offset, n_chars, &handled);
	return handled;
}

static void insetd_im_context_init(InsetdIMContext *self)
{
	self->delegate = g_object_new(delegate_type(), NULL);
	g_signal_connect(self->delegate, "preedit-start", G_CALLBACK(on_preedit_start), self);
	g_signal_connect(self->delegate, "preedit-end", G_CALLBACK(on_preedit_end), self);
	g_signal_connect(self->delegate, "preedit-changed", G_CALLBACK(on_preedit_changed), self);
	g_signal_connect(self->delegate, "commit", G_CALLBACK(on_commit), self);
	g_signal_connect(self->delegate, "retrieve-surrounding", G_CALLBACK(on_retrieve_surrounding), self);
	g_signal_connect(self->delegate, "delete-surrounding", G_CALLBACK(on_delete_surrounding), self);
	// The widget's purpose and hints (a number field, a password) are the
	// delegate's to act on.
	g_object_bind_property(self, "input-purpose", self->delegate, "input-purpose", G_BINDING_SYNC_CREATE);
	g_object_bind_property(self, "input-hints", self->delegate, "input-hints", G_BINDING_SYNC_CREATE);
}

static void insetd_im_context_dispose(GObject *object)
{
	InsetdIMContext *self = INSETD_IM(object);
	if (self->focused && self->widget)
		insetd_gtk_blur(self->widget);
	self->focused = FALSE;
	self->widget = NULL;
	if (self->delegate) {
		g_signal_handlers_disconnect_by_data(self->delegate, self);
		g_clear_object(&self->delegate);
	}
	G_OBJECT_CLASS(insetd_im_context_parent_class)->dispose(object);
}

static void set_client_widget(GtkIMContext *context, GtkWidget *widget)
{
	InsetdIMContext *self = INSETD_IM(context);
	if (self->focused && self->widget && self->widget != widget) {
		insetd_gtk_blur(self->widget);
		self->focused = FALSE;
	}
	self->widget = widget;
	gtk_im_context_set_client_widget(self->delegate, widget);
}

static void focus_in(GtkIMContext *context)
{
	InsetdIMContext *self = INSETD_IM(context);
	gtk_im_context_focus_in(self->delegate);
	if (self->widget) {
		self->focused = TRUE;
		insetd_gtk_focus(self->widget);
	}
}

static void focus_out(GtkIMContext *context)
{
	InsetdIMContext *self = INSETD_IM(context);
	gtk_im_context_focus_out(self->delegate);
	if (self->focused && self->widget)
		insetd_gtk_blur(self->widget);
	self->focused = FALSE;
}

static void set_cursor_location(GtkIMContext *context, GdkRectangle *area)
{
	InsetdIMContext *self = INSETD_IM(context);
	gtk_im_context_set_cursor_location(self->delegate, area);
	if (self->focused && self->widget && area)
		insetd_gtk_cursor(self->widget, area);
}

static void get_preedit_string(GtkIMContext *context, char **str, PangoAttrList **attrs, int *cursor_pos)
{
	gtk_im_context_get_preedit_string(INSETD_IM(context)->delegate, str, attrs, cursor_pos);
}

static gboolean filter_keypress(GtkIMContext *context, GdkEvent *event)
{
	return gtk_im_context_filter_keypress(INSETD_IM(context)->delegate, event);
}

static void reset(GtkIMContext *context)
{
	gtk_im_context_reset(INSETD_IM(context)->delegate);
}

static void set_use_preedit(GtkIMContext *context, gboolean use_preedit)
{
	gtk_im_context_set_use_preedit(INSETD_IM(context)->delegate, use_preedit);
}

static void set_surrounding_with_selection(GtkIMContext *context, const char *text, int len, int cursor, int anchor)
{
	gtk_im_context_set_surrounding_with_selection(INSETD_IM(context)->delegate, text, len, cursor, anchor);
}

static gboolean get_surrounding_with_selection(GtkIMContext *context, char **text, int *cursor, int *anchor)
{
	return gtk_im_context_get_surrounding_with_selection(INSETD_IM(context)->delegate, text, cursor, anchor);
}

static void insetd_im_context_class_init(InsetdIMContextClass *klass)
{
	GtkIMContextClass *im = GTK_IM_CONTEXT_CLASS(klass);
	G_OBJECT_CLASS(klass)->dispose = insetd_im_context_dispose;
	im->set_client_widget = set_client_widget;
	im->focus_in = focus_in;
	im->focus_out = focus_out;
	im->set_cursor_location = set_cursor_location;
	im->get_preedit_string = get_preedit_string;
	im->filter_keypress = filter_keypress;
	im->reset = reset;
	im->set_use_preedit = set_use_preedit;
	im->set_surrounding_with_selection = set_surrounding_with_selection;
	im->get_surrounding_with_selection = get_surrounding_with_selection;
}

static void insetd_im_context_class_finalize(InsetdIMContextClass *klass)
{
	(void)klass;
}

G_MODULE_EXPORT void g_io_module_load(GIOModule *module)
{
	// Kept loaded: GTK's contexts of this type live as long as their widgets.
	g_type_module_use(G_TYPE_MODULE(module));
	insetd_im_context_register_type(G_TYPE_MODULE(module));
	g_io_extension_point_implement(GTK_IM_MODULE_EXTENSION_POINT_NAME, insetd_im_context_get_type(), INSETD_IM_NAME,
				       INSETD_IM_PRIORITY);
}

G_MODULE_EXPORT void g_io_module_unload(GIOModule *module)
{
	(void)module;
}

G_MODULE_EXPORT char **g_io_module_query(void)
{
	char *points[] = {GTK_IM_MODULE_EXTENSION_POINT_NAME, NULL};
	return g_strdupv(points);
}
