/*
 * libinsetd: the requests to insetd, encoded as JSON lines, and the state the
 * context keeps (window, subscriptions, views, focus) to restate it to insetd
 * after every welcome.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "insetd-private.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Encoding                                                            */

static struct json_object *message(const char *type)
{
	struct json_object *obj = json_object_new_object();
	if (obj)
		json_object_object_add(obj, "type", json_object_new_string(type));
	return obj;
}

static void add_num(struct json_object *obj, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		json_object_object_add(obj, key, json_object_new_int64((int64_t)v));
	else
		json_object_object_add(obj, key, json_object_new_double(v));
}

static struct json_object *rect_json(struct insetd_rect r)
{
	struct json_object *o = json_object_new_object();
	add_num(o, "x", r.x);
	add_num(o, "y", r.y);
	add_num(o, "width", r.width);
	add_num(o, "height", r.height);
	return o;
}

static struct json_object *size_json(struct insetd_size s)
{
	struct json_object *o = json_object_new_object();
	add_num(o, "width", s.width);
	add_num(o, "height", s.height);
	return o;
}

static struct json_object *insets_json(struct insetd_insets i)
{
	struct json_object *o = json_object_new_object();
	add_num(o, "top", i.top);
	add_num(o, "left", i.left);
	add_num(o, "bottom", i.bottom);
	add_num(o, "right", i.right);
	return o;
}

static int send_view(struct insetd *ctx, const char *type, const char *name, const struct insetd_view_desc *d)
{
	static const char *const behaviors[] = {"safeAreaInsets", "contentSize", "none"};
	static const char *const dismiss[] = {"none", "onDrag", "interactive"};
	struct json_object *m = message(type);
	if (!m)
		return -ENOMEM;
	json_object_object_add(m, "view", json_object_new_string(name));
	json_object_object_add(m, "frame", rect_json(d->frame));
	json_object_object_add(m, "contentSize", size_json(d->content_size));
	json_object_object_add(m, "safeArea", insets_json(d->safe_area));
	json_object_object_add(m, "contentInset", insets_json(d->content_inset));
	json_object_object_add(m, "indicatorInsets", insets_json(d->indicator_insets));
	add_num(m, "additionalBottomInset", d->additional_bottom_inset);
	struct json_object *offset = json_object_new_object();
	add_num(offset, "x", d->content_offset.x);
	add_num(offset, "y", d->content_offset.y);
	json_object_object_add(m, "contentOffset", offset);
	json_object_object_add(m, "behavior", json_object_new_string(behaviors[d->behavior]));
	json_object_object_add(m, "resizesContentForKeyboard", json_object_new_boolean(d->resizes_content_for_keyboard));
	add_num(m, "visibilityScrollMargin", d->visibility_scroll_margin);
	json_object_object_add(m, "keyboardDismissMode", json_object_new_string(dismiss[d->keyboard_dismiss_mode]));
	json_object_object_add(m, "alwaysBounceVertical", json_object_new_boolean(d->always_bounce_vertical));
	json_object_object_add(m, "contentStretches", json_object_new_boolean(d->content_stretches));
	if (d->has_minimum_content_size)
		json_object_object_add(m, "minimumContentSize", size_json(d->minimum_content_size));
	return send_object(ctx, m);
}

static int send_named(struct insetd *ctx, const char *type, const char *view)
{
	struct json_object *m = message(type);
	if (!m)
		return -ENOMEM;
	json_object_object_add(m, "view", json_object_new_string(view));
	return send_object(ctx, m);
}

static int send_focus(struct insetd *ctx)
{
	struct json_object *m = message("focus");
	if (!m)
		return -ENOMEM;
	json_object_object_add(m, "view", json_object_new_string(ctx->focus_view));
	json_object_object_add(m, "field", rect_json(ctx->focus_field));
	return send_object(ctx, m);
}

static int send_window(struct insetd *ctx)
{
	struct json_object *m = message("window");
	if (!m)
		return -ENOMEM;
	json_object_object_add(m, "frame", rect_json(ctx->window));
	if (ctx->has_toplevel)
		json_object_object_add(m, "toplevel", size_json(ctx->toplevel));
	return send_object(ctx, m);
}

static int send_subscribe(struct insetd *ctx)
{
	struct json_object *m = message("subscribe");
	if (!m)
		return -ENOMEM;
	struct json_object *topics = json_object_new_array();
	if (ctx->topics & INSETD_TOPIC_POLICY)
		json_object_array_add(topics, json_object_new_string("policy"));
	if (ctx->topics & INSETD_TOPIC_ROTATION)
		json_object_array_add(topics, json_object_new_string("rotation"));
	if (ctx->topics & INSETD_TOPIC_DEVICES)
		json_object_array_add(topics, json_object_new_string("devices"));
	json_object_object_add(m, "topics", topics);
	return send_object(ctx, m);
}

int send_hello(struct insetd *ctx)
{
	struct json_object *hello = message("hello");
	if (hello) {
		json_object_object_add(hello, "version", json_object_new_int(INSETD_PROTOCOL_VERSION));
		json_object_object_add(hello, "client", json_object_new_string(ctx->name));
	}
	return send_object(ctx, hello);
}

/* After a welcome: everything insetd must know again, in the Swift
 * client's order (window, subscriptions, views, focus). */
void resync(struct insetd *ctx)
{
	if (ctx->has_window)
		send_window(ctx);
	if (ctx->topics && ctx->sock >= 0)
		send_subscribe(ctx);
	for (struct view *v = ctx->views; v && ctx->sock >= 0; v = v->next)
		send_view(ctx, "register", v->name, &v->desc);
	if (ctx->focus_view && ctx->sock >= 0)
		send_focus(ctx);
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

void insetd_view_desc_init(struct insetd_view_desc *desc)
{
	memset(desc, 0, sizeof *desc);
	desc->content_stretches = true;
}

static bool valid_desc(const struct insetd_view_desc *d)
{
	return d && valid_rect(d->frame) && finite_size(d->content_size.width) &&
	       finite_size(d->content_size.height) && valid_insets(d->safe_area) && valid_insets(d->content_inset) &&
	       valid_insets(d->indicator_insets) && finite_coord(d->additional_bottom_inset) &&
	       finite_coord(d->content_offset.x) && finite_coord(d->content_offset.y) &&
	       (unsigned)d->behavior <= INSETD_BEHAVIOR_NONE && finite_coord(d->visibility_scroll_margin) &&
	       (unsigned)d->keyboard_dismiss_mode <= INSETD_DISMISS_INTERACTIVE &&
	       (!d->has_minimum_content_size ||
		(finite_size(d->minimum_content_size.width) && finite_size(d->minimum_content_size.height)));
}

static struct view *find_view(struct insetd *ctx, const char *name)
{
	for (struct view *v = ctx->views; v; v = v->next)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

static int store_view(struct insetd *ctx, const char *name, const struct insetd_view_desc *desc, const char *type)
{
	if (!valid_name(name) || !valid_desc(desc))
		return -EINVAL;
	struct view *v = find_view(ctx, name);
	if (!v) {
		v = calloc(1, sizeof *v);
		if (!v || !(v->name = strdup(name))) {
			free(v);
			return -ENOMEM;
		}
		struct view **tail = &ctx->views;
		while (*tail)
			tail = &(*tail)->next;
		*tail = v;
		type = "register";
	}
	v->desc = *desc;
	if (ctx->welcomed)
		send_view(ctx, type, name, desc);
	return 0;
}

int insetd_register_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc)
{
	if (!ctx)
		return -EINVAL;
	return store_view(ctx, view, desc, "register");
}

int insetd_update_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc)
{
	if (!ctx)
		return -EINVAL;
	return store_view(ctx, view, desc, "update");
}

int insetd_unregister_view(struct insetd *ctx, const char *view)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_name(view))
		return -EINVAL;
	struct view **link = &ctx->views;
	while (*link && strcmp((*link)->name, view) != 0)
		link = &(*link)->next;
	if (!*link)
		return -ENOENT;
	struct view *v = *link;
	*link = v->next;
	free(v->name);
	free(v);
	if (ctx->focus_view && strcmp(ctx->focus_view, view) == 0) {
		free(ctx->focus_view);
		ctx->focus_view = NULL;
	}
	if (ctx->welcomed)
		send_named(ctx, "unregister", view);
	return 0;
}

int insetd_focus(struct insetd *ctx, const char *view, struct insetd_rect field)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_name(view) || !valid_rect(field))
		return -EINVAL;
	char *copy = strdup(view);
	if (!copy)
		return -ENOMEM;
	free(ctx->focus_view);
	ctx->focus_view = copy;
	ctx->focus_field = field;
	if (ctx->welcomed)
		send_focus(ctx);
	return 0;
}

int insetd_blur(struct insetd *ctx, const char *view)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_name(view))
		return -EINVAL;
	if (ctx->focus_view && strcmp(ctx->focus_view, view) == 0) {
		free(ctx->focus_view);
		ctx->focus_view = NULL;
	}
	if (ctx->welcomed)
		send_named(ctx, "blur", view);
	return 0;
}

/* The window, and its size where the client cannot place it (NULL: it can). */
static int set_window(struct insetd *ctx, struct insetd_rect frame, const struct insetd_size *toplevel)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_rect(frame) || frame.width <= 0 || frame.height <= 0)
		return -EINVAL;
	if (toplevel) {
		struct insetd_rect size = {0, 0, toplevel->width, toplevel->height};
		if (!valid_rect(size) || toplevel->width <= 0 || toplevel->height <= 0)
			return -EINVAL;
		ctx->toplevel = *toplevel;
	}
	ctx->has_window = true;
	ctx->has_toplevel = toplevel != NULL;
	ctx->window = frame;
	if (ctx->welcomed)
		send_window(ctx);
	return 0;
}

int insetd_set_window(struct insetd *ctx, struct insetd_rect frame)
{
	return set_window(ctx, frame, NULL);
}

int insetd_set_unplaced_window(struct insetd *ctx, struct insetd_rect frame, struct insetd_size toplevel)
{
	return set_window(ctx, frame, &toplevel);
}

int insetd_subscribe(struct insetd *ctx, unsigned topics)
{
	if (!ctx)
		return -EINVAL;
	topics &= INSETD_TOPIC_POLICY | INSETD_TOPIC_ROTATION | INSETD_TOPIC_DEVICES;
	ctx->topics |= topics;
	if (ctx->welcomed && topics)
		send_subscribe(ctx);
	return 0;
}

int insetd_scroll(struct insetd *ctx, const char *view, struct insetd_rect rect, double margin)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_name(view) || !valid_rect(rect) || !isfinite(margin))
		return -EINVAL;
	if (!ctx->welcomed)
		return -ENOTCONN;
	struct json_object *m = message("scroll");
	if (!m)
		return -ENOMEM;
	json_object_object_add(m, "view", json_object_new_string(view));
	json_object_object_add(m, "rect", rect_json(rect));
	if (margin >= 0)
		add_num(m, "margin", margin);
	return send_object(ctx, m);
}

int insetd_transition(struct insetd *ctx, double duration, const struct insetd_size *screen)
{
	if (!ctx)
		return -EINVAL;
	if (!finite_size(duration) ||
	    (screen && (!finite_size(screen->width) || !finite_size(screen->height) || screen->width <= 0 ||
			screen->height <= 0)))
		return -EINVAL;
	if (!ctx->welcomed)
		return -ENOTCONN;
	struct json_object *m = message("transition");
	if (!m)
		return -ENOMEM;
	add_num(m, "duration", duration);
	if (screen)
		json_object_object_add(m, "screen", size_json(*screen));
	return send_object(ctx, m);
}

int insetd_dismiss(struct insetd *ctx, const char *view)
{
	if (!ctx)
		return -EINVAL;
	if (!valid_name(view))
		return -EINVAL;
	if (!ctx->welcomed)
		return -ENOTCONN;
	return send_named(ctx, "dismiss", view);
}
