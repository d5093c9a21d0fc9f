// What the input-method wrapper tells insetd-gtk.c: which text widget has the
// focus and where its cursor is. Everything else (the connection to insetd,
// the views, applying insetd's adjustments) lives behind these three calls.
// SPDX-License-Identifier: Apache-2.0
#ifndef INSETD_GTK_H
#define INSETD_GTK_H

#include <gtk/gtk.h>

void insetd_gtk_focus(GtkWidget *widget);
void insetd_gtk_blur(GtkWidget *widget);
/* The cursor's rectangle in the widget's coordinates (GtkIMContext's). */
void insetd_gtk_cursor(GtkWidget *widget, const GdkRectangle *area);

#endif
