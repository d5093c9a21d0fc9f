// The window the focused field is in, as the compositor sizes it, and the
// output it is on (docs/GTK.md). Private to the module: insetd-gtk.c asks it
// where the field's window is, and it tells insetd-gtk.c when the window was
// resized or the output turned.
// SPDX-License-Identifier: Apache-2.0
#ifndef INSETD_GTK_WINDOW_H
#define INSETD_GTK_WINDOW_H

#include <gtk/gtk.h>
#include <insetd.h>

/* Follows the toplevel window of @widget (not a popover's): its size, its
 * output, its frame clock. Another window forgets the last one. */
void insetd_gtk_window_track(GtkWidget *widget);
/* The tracked window; NULL before the first focus or once it is gone. */
GtkWidget *insetd_gtk_window_get(void);
/* The window's size as the compositor set it last; 0 x 0 when unknown. */
void insetd_gtk_window_size(int *width, int *height);
/* Its height while no keyboard was shown: a smaller one was shrunk for the
 * keyboard's zone. */
int insetd_gtk_window_unshrunk_height(void);
/* On Wayland, the window's geometry (the GtkWindow without the shadows GTK
 * draws around a floating client-decorated window); 0 x 0 elsewhere. */
struct insetd_size insetd_gtk_window_geometry(void);

/* From insetd-gtk.c. Whether a keyboard is shown, as insetd said. */
gboolean insetd_gtk_keyboard_shown(void);
/* The window's size changed: the views are held to what the keyboard covers
 * of it now, and the state goes to insetd. */
void insetd_gtk_window_resized(void);
/* GTK has allocated the resized window and is about to paint it: insetd's
 * answer to the new size belongs in this frame. @may_wait: the first resize
 * of this frame (a later one sends without waiting again). */
void insetd_gtk_window_laid_out(gboolean may_wait);
/* The output turned (@width x @height): the keyboard insetd described was
 * laid out for the other orientation. */
void insetd_gtk_screen_turned(int width, int height);

#endif
