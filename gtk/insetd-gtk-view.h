// One view insetd knows of, per container of a focused field: the field's
// GtkScrolledWindow (scrolled and padded), or its window when the field is in
// none (padded). Private to the module.
// SPDX-License-Identifier: Apache-2.0
#ifndef INSETD_GTK_VIEW_H
#define INSETD_GTK_VIEW_H

#include <gtk/gtk.h>
#include <insetd.h>

typedef struct InsetdGtkView InsetdGtkView;

InsetdGtkView *insetd_gtk_view_new(GtkWidget *container, const char *name);
void insetd_gtk_view_free(gpointer view);
/* The container is being destroyed: touch nothing of it from now on. */
void insetd_gtk_view_forget(InsetdGtkView *view);
const char *insetd_gtk_view_name(InsetdGtkView *view);
GtkWidget *insetd_gtk_view_container(InsetdGtkView *view);
/* The vertical scroll offset (0 for a window). */
double insetd_gtk_view_offset(InsetdGtkView *view);
gboolean insetd_gtk_view_frame(InsetdGtkView *view, GtkWidget *window, graphene_rect_t *frame);
/* Registers or updates the view with insetd when its description changed. */
void insetd_gtk_view_describe(InsetdGtkView *view, struct insetd *ctx, GtkWidget *window);
/* insetd's adjustment: the bottom padding and the scroll offset it wants. */
void insetd_gtk_view_apply(InsetdGtkView *view, double padding, double offset);
/* The padding held to what the keyboard covers of the view now. */
void insetd_gtk_view_clamp(InsetdGtkView *view);
/* The app's own margin back, exactly. */
void insetd_gtk_view_restore(InsetdGtkView *view);

/* From insetd-gtk.c: the keyboard's part over the view at this frame, and a
 * report of the focused field's state at the end of this main-loop turn. */
double insetd_gtk_covered(InsetdGtkView *view);
void insetd_gtk_schedule_update(void);

#endif
