/*
 * libinsetd: the client context, connection, requests and events.
 * SPDX-License-Identifier: Apache-2.0
 *
 * One epoll set (the caller's fd) holds a timerfd (connection attempts and
 * their back-off) and, while connected, the non-blocking socket. Lines are
 * bounded by INSETD_MAX_LINE; every message is parsed with json-c and its
 * fields type-checked before anything reaches the caller.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "insetd.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#define TAG_TIMER 1u
#define TAG_SOCKET 2u
#define BACKOFF_FIRST_MS 50
#define BACKOFF_MAX_MS 2000
#define MAX_VIEW_NAME 256
#define MAX_TEXT 1024
#define MAX_QUEUED_EVENTS 4096
#define MAX_OUTBOUND (1u << 20)
#define MAX_READS_PER_DISPATCH 64
#define COORD_LIMIT 1000000.0

struct view {
	struct view *next;
	char *name;
	struct insetd_view_desc desc;
};

struct insetd_event {
	struct insetd_event *next;
	struct insetd *ctx;
	enum insetd_event_type type;
	bool has_state;
	struct insetd_state state;
	enum insetd_keyboard_phase phase;
	struct insetd_rect begin, end;
	bool is_local;
	double duration;
	enum insetd_curve curve;
	char *view;
	double additional_bottom_inset;
	struct insetd_insets content_inset, indicator_insets, adjusted_content_inset;
	struct insetd_size content_size;
	struct insetd_point content_offset;
	bool always_bounce_vertical;
	char *code;
	char *message;
};

struct insetd {
	int refcount;
	int epfd, timerfd, sock;
	char *explicit_path;
	char *name;
	void *user_data;
	insetd_log_handler log_handler;
	void *log_data;

	bool welcomed;
	bool outage_logged;
	bool dropped_logged;
	int backoff_ms;
	unsigned ignored_lines;

	char *rbuf;
	size_t rlen;
	char *wbuf;
	size_t wlen, wcap;
	bool want_out;

	struct view *views; /* in registration order */
	bool has_window;
	struct insetd_rect window;
	char *focus_view;
	struct insetd_rect focus_field;
	unsigned topics;

	struct insetd_event *head, *tail;
	size_t queued;

	bool state_valid;
	struct insetd_state state;
};

/* ------------------------------------------------------------------ */
/* Logging                                                             */

static void default_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)data;
	if (priority <= INSETD_LOG_INFO)
		fprintf(stderr, "libinsetd: %s\n", message);
}

__attribute__((format(printf, 3, 4))) static void logf_(struct insetd *ctx, enum insetd_log_priority priority,
							 const char *format, ...)
{
	if (!ctx->log_handler)
		return;
	char line[512];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof line, format, args);
	va_end(args);
	ctx->log_handler(ctx, priority, line, ctx->log_data);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static char *bounded_strdup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *copy = malloc(n + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	copy[n] = '\0';
	return copy;
}

static bool finite_coord(double v) { return isfinite(v) && v >= -COORD_LIMIT && v <= COORD_LIMIT; }
static bool finite_size(double v) { return finite_coord(v) && v >= 0; }
static bool valid_rect(struct insetd_rect r)
{
	return finite_coord(r.x) && finite_coord(r.y) && finite_size(r.width) && finite_size(r.height);
}
static bool valid_insets(struct insetd_insets i)
{
	return finite_coord(i.top) && finite_coord(i.left) && finite_coord(i.bottom) && finite_coord(i.right);
}
static bool valid_name(const char *view)
{
	return view && view[0] && strnlen(view, MAX_VIEW_NAME + 1) <= MAX_VIEW_NAME;
}

static const char *const phase_names[] = {NULL, "willShow", "didShow", "willHide", "didHide", "willChangeFrame",
					   "didChangeFrame"};
static const char *const curve_names[] = {"easeInOut", "easeIn", "easeOut", "linear"};

INSETD_EXPORT const char *insetd_keyboard_phase_name(enum insetd_keyboard_phase phase)
{
	return phase >= INSETD_PHASE_WILL_SHOW && phase <= INSETD_PHASE_DID_CHANGE_FRAME ? phase_names[phase] : "unknown";
}

INSETD_EXPORT const char *insetd_curve_name(enum insetd_curve curve)
{
	return curve <= INSETD_CURVE_LINEAR ? curve_names[curve] : "unknown";
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

static struct insetd_event *event_new(enum insetd_event_type type)
{
	struct insetd_event *event = calloc(1, sizeof *event);
	if (event)
		event->type = type;
	return event;
}

static void event_free(struct insetd_event *event)
{
	free(event->view);
	free(event->code);
	free(event->message);
	free(event);
}

static void queue_event(struct insetd *ctx, struct insetd_event *event)
{
	if (!event)
		return;
	if (ctx->queued >= MAX_QUEUED_EVENTS) {
		if (!ctx->dropped_logged)
			logf_(ctx, INSETD_LOG_ERROR, "%d events queued and not read; dropping new ones",
			      MAX_QUEUED_EVENTS);
		ctx->dropped_logged = true;
		event_free(event);
		return;
	}
	if (ctx->tail)
		ctx->tail->next = event;
	else
		ctx->head = event;
	ctx->tail = event;
	ctx->queued++;
}

INSETD_EXPORT struct insetd_event *insetd_get_event(struct insetd *ctx)
{
	struct insetd_event *event = ctx->head;
	if (!event)
		return NULL;
	ctx->head = event->next;
	if (!ctx->head)
		ctx->tail = NULL;
	ctx->queued--;
	event->next = NULL;
	event->ctx = insetd_ref(ctx);
	return event;
}

INSETD_EXPORT enum insetd_event_type insetd_next_event_type(struct insetd *ctx)
{
	return ctx->head ? ctx->head->type : 0;
}

INSETD_EXPORT void insetd_event_destroy(struct insetd_event *event)
{
	if (!event)
		return;
	struct insetd *ctx = event->ctx;
	event_free(event);
	if (ctx)
		insetd_unref(ctx);
}

INSETD_EXPORT enum insetd_event_type insetd_event_get_type(struct insetd_event *event) { return event->type; }
INSETD_EXPORT struct insetd *insetd_event_get_context(struct insetd_event *event) { return event->ctx; }

INSETD_EXPORT bool insetd_event_get_state(struct insetd_event *event, struct insetd_state *state)
{
	if (!event->has_state)
		return false;
	*state = event->state;
	return true;
}

INSETD_EXPORT enum insetd_keyboard_phase insetd_event_keyboard_get_phase(struct insetd_event *e)
{
	return e->type == INSETD_EVENT_KEYBOARD ? e->phase : 0;
}
INSETD_EXPORT struct insetd_rect insetd_event_keyboard_get_begin(struct insetd_event *e) { return e->begin; }
INSETD_EXPORT struct insetd_rect insetd_event_keyboard_get_end(struct insetd_event *e) { return e->end; }
INSETD_EXPORT bool insetd_event_keyboard_is_local(struct insetd_event *e) { return e->is_local; }
INSETD_EXPORT double insetd_event_get_duration(struct insetd_event *e) { return e->duration; }
INSETD_EXPORT enum insetd_curve insetd_event_get_curve(struct insetd_event *e) { return e->curve; }
INSETD_EXPORT const char *insetd_event_get_view(struct insetd_event *e) { return e->view; }
INSETD_EXPORT double insetd_event_adjustment_get_additional_bottom_inset(struct insetd_event *e)
{
	return e->additional_bottom_inset;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_content_inset(struct insetd_event *e)
{
	return e->content_inset;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_indicator_insets(struct insetd_event *e)
{
	return e->indicator_insets;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_adjusted_content_inset(struct insetd_event *e)
{
	return e->adjusted_content_inset;
}
INSETD_EXPORT struct insetd_size insetd_event_adjustment_get_content_size(struct insetd_event *e)
{
	return e->content_size;
}
INSETD_EXPORT struct insetd_point insetd_event_adjustment_get_content_offset(struct insetd_event *e)
{
	return e->content_offset;
}
INSETD_EXPORT bool insetd_event_adjustment_get_always_bounce_vertical(struct insetd_event *e)
{
	return e->always_bounce_vertical;
}
INSETD_EXPORT const char *insetd_event_get_code(struct insetd_event *e) { return e->code; }
INSETD_EXPORT const char *insetd_event_get_message(struct insetd_event *e) { return e->message; }

/* ------------------------------------------------------------------ */
/* Connection                                                          */

static void arm_timer_ns(struct insetd *ctx, long long ns)
{
	struct itimerspec spec = {0};
	spec.it_value.tv_sec = ns / 1000000000LL;
	spec.it_value.tv_nsec = ns % 1000000000LL;
	if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0)
		spec.it_value.tv_nsec = 1;
	timerfd_settime(ctx->timerfd, 0, &spec, NULL);
}

static void schedule_retry(struct insetd *ctx)
{
	arm_timer_ns(ctx, (long long)ctx->backoff_ms * 1000000LL);
	ctx->backoff_ms = ctx->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : ctx->backoff_ms * 2;
}

/* Where insetctl looks, in its order, at every attempt. */
static void resolve_path(struct insetd *ctx, char *out, size_t size)
{
	if (ctx->explicit_path) {
		snprintf(out, size, "%s", ctx->explicit_path);
		return;
	}
	const char *env = getenv("INSETD_SOCKET");
	if (env) {
		snprintf(out, size, "%s", env);
		return;
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime && runtime[0]) {
		snprintf(out, size, "%s/insetd.sock", runtime);
		struct stat st;
		if (stat(out, &st) == 0)
			return;
	}
	snprintf(out, size, "/run/insetd/insetd.sock");
}

static void update_epoll_out(struct insetd *ctx)
{
	if (ctx->sock < 0)
		return;
	bool want = ctx->wlen > 0;
	if (want == ctx->want_out)
		return;
	struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.u32 = TAG_SOCKET};
	epoll_ctl(ctx->epfd, EPOLL_CTL_MOD, ctx->sock, &ev);
	ctx->want_out = want;
}

static void disconnect(struct insetd *ctx, const char *why)
{
	if (ctx->sock < 0)
		return;
	epoll_ctl(ctx->epfd, EPOLL_CTL_DEL, ctx->sock, NULL);
	close(ctx->sock);
	ctx->sock = -1;
	ctx->rlen = 0;
	ctx->wlen = 0;
	ctx->want_out = false;
	bool was = ctx->welcomed;
	ctx->welcomed = false;
	ctx->state_valid = false;
	if (!ctx->outage_logged) {
		logf_(ctx, INSETD_LOG_INFO, "disconnected from insetd (%s); reconnecting in the background", why);
		ctx->outage_logged = true;
	}
	if (was)
		queue_event(ctx, event_new(INSETD_EVENT_DISCONNECTED));
	schedule_retry(ctx);
}

static int flush_out(struct insetd *ctx)
{
	while (ctx->wlen > 0) {
		ssize_t n = send(ctx->sock, ctx->wbuf, ctx->wlen, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		memmove(ctx->wbuf, ctx->wbuf + n, ctx->wlen - (size_t)n);
		ctx->wlen -= (size_t)n;
	}
	update_epoll_out(ctx);
	return 0;
}

/* Queues one JSON object as a line and tries to write it. Takes @p obj. */
static int send_object(struct insetd *ctx, struct json_object *obj)
{
	if (!obj)
		return -ENOMEM;
	if (ctx->sock < 0) {
		json_object_put(obj);
		return -ENOTCONN;
	}
	size_t len;
	const char *text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN, &len);
	if (!text) {
		json_object_put(obj);
		return -ENOMEM;
	}
	if (ctx->wlen + len + 1 > MAX_OUTBOUND) {
		json_object_put(obj);
		disconnect(ctx, "insetd does not read what is sent");
		return -ENOTCONN;
	}
	if (ctx->wlen + len + 1 > ctx->wcap) {
		size_t cap = ctx->wcap ? ctx->wcap : 4096;
		while (cap < ctx->wlen + len + 1)
			cap *= 2;
		char *buf = realloc(ctx->wbuf, cap);
		if (!buf) {
			json_object_put(obj);
			return -ENOMEM;
		}
		ctx->wbuf = buf;
		ctx->wcap = cap;
	}
	memcpy(ctx->wbuf + ctx->wlen, text, len);
	ctx->wbuf[ctx->wlen + len] = '\n';
	ctx->wlen += len + 1;
	json_object_put(obj);
	int r = flush_out(ctx);
	if (r < 0) {
		disconnect(ctx, strerror(-r));
		return -ENOTCONN;
	}
	return 0;
}

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

/* After a welcome: everything insetd must know again, in the Swift
 * client's order (window, subscriptions, views, focus). */
static void resync(struct insetd *ctx)
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

static void try_connect(struct insetd *ctx)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	resolve_path(ctx, path, sizeof path);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof addr.sun_path) {
		if (!ctx->outage_logged)
			logf_(ctx, INSETD_LOG_ERROR, "socket path too long: %s", path);
		ctx->outage_logged = true;
		schedule_retry(ctx);
		return;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		schedule_retry(ctx);
		return;
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		int err = errno;
		close(fd);
		if (!ctx->outage_logged)
			logf_(ctx, INSETD_LOG_INFO, "cannot connect to insetd at %s (%s); retrying in the background",
			      path, strerror(err));
		ctx->outage_logged = true;
		schedule_retry(ctx);
		return;
	}
	ctx->sock = fd;
	ctx->rlen = 0;
	ctx->wlen = 0;
	ctx->want_out = false;
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = TAG_SOCKET};
	if (epoll_ctl(ctx->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		ctx->sock = -1;
		schedule_retry(ctx);
		return;
	}
	logf_(ctx, INSETD_LOG_DEBUG, "connected to %s", path);
	struct json_object *hello = message("hello");
	if (hello) {
		json_object_object_add(hello, "version", json_object_new_int(INSETD_PROTOCOL_VERSION));
		json_object_object_add(hello, "client", json_object_new_string(ctx->name));
	}
	send_object(ctx, hello);
}

/* ------------------------------------------------------------------ */
/* Parsing insetd's messages (every field type-checked)                */

static bool get_number(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	double d = json_object_get_double(v);
	if (!isfinite(d))
		return false;
	*out = d;
	return true;
}

static bool get_bool(struct json_object *o, const char *key, bool *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_boolean))
		return false;
	*out = json_object_get_boolean(v);
	return true;
}

static const char *get_string(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *get_object(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static bool get_rect(struct json_object *o, const char *key, struct insetd_rect *r)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "x", &r->x) && get_number(v, "y", &r->y) && get_number(v, "width", &r->width) &&
	       get_number(v, "height", &r->height) && r->width >= 0 && r->height >= 0;
}

static bool get_size(struct json_object *o, const char *key, struct insetd_size *s)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "width", &s->width) && get_number(v, "height", &s->height) && s->width >= 0 &&
	       s->height >= 0;
}

static bool get_insets(struct json_object *o, const char *key, struct insetd_insets *i)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "top", &i->top) && get_number(v, "left", &i->left) &&
	       get_number(v, "bottom", &i->bottom) && get_number(v, "right", &i->right);
}

static enum insetd_curve parse_curve(const char *s)
{
	for (int i = 0; s && i <= INSETD_CURVE_LINEAR; i++)
		if (strcmp(s, curve_names[i]) == 0)
			return (enum insetd_curve)i;
	return INSETD_CURVE_EASE_IN_OUT;
}

static void parse_policy_fields(struct json_object *o, struct insetd_state *s)
{
	bool b;
	if (get_bool(o, "tabletMode", &b))
		s->tablet_mode = b;
	if (get_bool(o, "hardwareKeyboard", &b))
		s->hardware_keyboard = b;
	const char *mode = get_string(o, "mode");
	if (mode)
		snprintf(s->mode, sizeof s->mode, "%s", mode);
}

static bool handle_welcome(struct insetd *ctx, struct json_object *o)
{
	struct json_object *state = get_object(o, "state");
	struct insetd_state s = {0};
	if (!state || !get_size(state, "screen", &s.screen))
		return false;
	const char *orientation = get_string(state, "orientation");
	s.portrait = orientation ? strcmp(orientation, "portrait") == 0 : s.screen.height > s.screen.width;
	s.keyboard_visible = get_rect(state, "keyboard", &s.keyboard);
	parse_policy_fields(state, &s);
	if (ctx->welcomed)
		return true; /* a second welcome changes nothing */
	ctx->welcomed = true;
	ctx->outage_logged = false;
	ctx->backoff_ms = BACKOFF_FIRST_MS;
	ctx->state = s;
	ctx->state_valid = true;
	resync(ctx);
	if (ctx->sock < 0)
		return true; /* the restatement failed: already disconnected */
	struct insetd_event *event = event_new(INSETD_EVENT_CONNECTED);
	if (event) {
		event->has_state = true;
		event->state = s;
	}
	queue_event(ctx, event);
	return true;
}

static bool handle_keyboard(struct insetd *ctx, struct json_object *o)
{
	const char *phase = get_string(o, "phase");
	int p = 0;
	for (int i = INSETD_PHASE_WILL_SHOW; phase && i <= INSETD_PHASE_DID_CHANGE_FRAME; i++)
		if (strcmp(phase, phase_names[i]) == 0)
			p = i;
	struct insetd_event e = {.type = INSETD_EVENT_KEYBOARD, .phase = p};
	if (!p || !get_rect(o, "begin", &e.begin) || !get_rect(o, "end", &e.end) ||
	    !get_number(o, "duration", &e.duration) || e.duration < 0)
		return false;
	e.curve = parse_curve(get_string(o, "curve"));
	get_bool(o, "isLocal", &e.is_local);
	bool hides = p == INSETD_PHASE_WILL_HIDE || p == INSETD_PHASE_DID_HIDE;
	ctx->state.keyboard_visible = !hides;
	ctx->state.keyboard = hides ? (struct insetd_rect){0} : e.end;
	struct insetd_event *event = event_new(INSETD_EVENT_KEYBOARD);
	if (event) {
		*event = e;
		event->next = NULL;
	}
	queue_event(ctx, event);
	return true;
}

static bool handle_adjustment(struct insetd *ctx, struct json_object *o)
{
	struct insetd_event e = {.type = INSETD_EVENT_ADJUSTMENT};
	const char *view = get_string(o, "view");
	struct json_object *offset = get_object(o, "contentOffset");
	if (!valid_name(view) || !get_number(o, "additionalBottomInset", &e.additional_bottom_inset) ||
	    !get_insets(o, "contentInset", &e.content_inset) || !get_insets(o, "indicatorInsets", &e.indicator_insets) ||
	    !get_insets(o, "adjustedContentInset", &e.adjusted_content_inset) ||
	    !get_size(o, "contentSize", &e.content_size) || !offset || !get_number(offset, "x", &e.content_offset.x) ||
	    !get_number(offset, "y", &e.content_offset.y))
		return false;
	get_bool(o, "alwaysBounceVertical", &e.always_bounce_vertical);
	struct json_object *animation = get_object(o, "animation");
	if (animation) {
		if (!get_number(animation, "duration", &e.duration) || e.duration < 0)
			e.duration = 0;
		e.curve = parse_curve(get_string(animation, "curve"));
	}
	struct insetd_event *event = event_new(INSETD_EVENT_ADJUSTMENT);
	if (!event)
		return true;
	*event = e;
	event->view = bounded_strdup(view, MAX_VIEW_NAME);
	if (!event->view) {
		free(event);
		return true;
	}
	queue_event(ctx, event);
	return true;
}

static bool handle_text_event(struct insetd *ctx, enum insetd_event_type type, const char *code, const char *text)
{
	struct insetd_event *event = event_new(type);
	if (!event)
		return true;
	event->code = code ? bounded_strdup(code, MAX_TEXT) : NULL;
	event->message = text ? bounded_strdup(text, MAX_TEXT) : NULL;
	queue_event(ctx, event);
	return true;
}

/* One line from insetd. false: ignored as malformed. */
static bool handle_line(struct insetd *ctx, const char *line, size_t len)
{
	if (len == 0)
		return true;
	if (memchr(line, '\0', len))
		return false;
	struct json_tokener *tok = json_tokener_new_ex(32);
	if (!tok)
		return true;
	struct json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	bool complete = json_tokener_get_error(tok) == json_tokener_success && json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	if (!o || !complete || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return false;
	}
	bool ok = true;
	const char *type = get_string(o, "type");
	if (!type) {
		ok = false;
	} else if (strcmp(type, "welcome") == 0) {
		ok = handle_welcome(ctx, o);
	} else if (strcmp(type, "bye") == 0) {
		const char *reason = get_string(o, "reason");
		handle_text_event(ctx, INSETD_EVENT_BYE, reason ? reason : "", NULL);
		logf_(ctx, INSETD_LOG_DEBUG, "insetd said bye (%.64s)", reason ? reason : "");
		json_object_put(o);
		disconnect(ctx, "insetd said bye");
		return true;
	} else if (!ctx->welcomed) {
		ok = true; /* nothing but welcome and bye counts before the welcome */
	} else if (strcmp(type, "keyboard") == 0) {
		ok = handle_keyboard(ctx, o);
	} else if (strcmp(type, "adjustment") == 0) {
		ok = handle_adjustment(ctx, o);
	} else if (strcmp(type, "focusLost") == 0) {
		const char *view = get_string(o, "view");
		if (!valid_name(view)) {
			ok = false;
		} else {
			if (ctx->focus_view && strcmp(ctx->focus_view, view) == 0) {
				free(ctx->focus_view);
				ctx->focus_view = NULL;
			}
			struct insetd_event *event = event_new(INSETD_EVENT_FOCUS_LOST);
			if (event && (event->view = bounded_strdup(view, MAX_VIEW_NAME)))
				queue_event(ctx, event);
			else if (event)
				free(event);
		}
	} else if (strcmp(type, "policy") == 0) {
		parse_policy_fields(o, &ctx->state);
		struct insetd_event *event = event_new(INSETD_EVENT_POLICY);
		if (event) {
			event->has_state = true;
			event->state = ctx->state;
		}
		queue_event(ctx, event);
	} else if (strcmp(type, "error") == 0) {
		const char *code = get_string(o, "code");
		const char *text = get_string(o, "message");
		ok = code != NULL;
		if (ok) {
			logf_(ctx, INSETD_LOG_DEBUG, "insetd refused a request: %.64s", code);
			handle_text_event(ctx, INSETD_EVENT_ERROR, code, text ? text : "");
		}
	} else if (strcmp(type, "rotate") == 0) {
		const char *direction = get_string(o, "direction");
		ok = direction != NULL;
		if (ok)
			handle_text_event(ctx, INSETD_EVENT_ROTATE, direction, NULL);
	}
	/* ok, status, devices, device, event, reloaded and later types: ignored */
	json_object_put(o);
	return ok;
}

static void read_socket(struct insetd *ctx)
{
	for (int reads = 0; reads < MAX_READS_PER_DISPATCH && ctx->sock >= 0; reads++) {
		ssize_t n = read(ctx->sock, ctx->rbuf + ctx->rlen, INSETD_MAX_LINE + 1 - ctx->rlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				disconnect(ctx, strerror(errno));
			return;
		}
		if (n == 0) {
			disconnect(ctx, "insetd closed the connection");
			return;
		}
		ctx->rlen += (size_t)n;
		size_t start = 0;
		char *nl;
		while (ctx->sock >= 0 && (nl = memchr(ctx->rbuf + start, '\n', ctx->rlen - start))) {
			size_t len = (size_t)(nl - (ctx->rbuf + start));
			if (!handle_line(ctx, ctx->rbuf + start, len)) {
				if (ctx->ignored_lines++ == 0)
					logf_(ctx, INSETD_LOG_ERROR, "ignored a malformed message from insetd");
			}
			start += len + 1;
		}
		if (ctx->sock < 0)
			return;
		memmove(ctx->rbuf, ctx->rbuf + start, ctx->rlen - start);
		ctx->rlen -= start;
		if (ctx->rlen > INSETD_MAX_LINE) {
			logf_(ctx, INSETD_LOG_ERROR, "insetd sent a line over %d bytes", INSETD_MAX_LINE);
			ctx->outage_logged = true;
			disconnect(ctx, "line too long");
			return;
		}
	}
}

INSETD_EXPORT int insetd_dispatch(struct insetd *ctx)
{
	struct epoll_event events[4];
	int n = epoll_wait(ctx->epfd, events, 4, 0);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	insetd_ref(ctx);
	for (int i = 0; i < n; i++) {
		if (events[i].data.u32 == TAG_TIMER) {
			uint64_t expirations;
			if (read(ctx->timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
				continue;
			if (ctx->sock < 0)
				try_connect(ctx);
		} else if (events[i].data.u32 == TAG_SOCKET && ctx->sock >= 0) {
			if (events[i].events & EPOLLOUT) {
				int r = flush_out(ctx);
				if (r < 0)
					disconnect(ctx, strerror(-r));
			}
			if (ctx->sock >= 0 && (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
				read_socket(ctx);
		}
	}
	insetd_unref(ctx);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Context                                                             */

INSETD_EXPORT struct insetd *insetd_new(const char *socket_path, const char *client_name)
{
	struct insetd *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	ctx->refcount = 1;
	ctx->sock = -1;
	ctx->timerfd = -1;
	ctx->backoff_ms = BACKOFF_FIRST_MS;
	ctx->log_handler = default_log;
	ctx->epfd = epoll_create1(EPOLL_CLOEXEC);
	ctx->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	ctx->rbuf = malloc(INSETD_MAX_LINE + 1);
	ctx->name = bounded_strdup(client_name ? client_name : "libinsetd", MAX_VIEW_NAME);
	ctx->explicit_path = socket_path ? strdup(socket_path) : NULL;
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = TAG_TIMER};
	if (ctx->epfd < 0 || ctx->timerfd < 0 || !ctx->rbuf || !ctx->name || (socket_path && !ctx->explicit_path) ||
	    epoll_ctl(ctx->epfd, EPOLL_CTL_ADD, ctx->timerfd, &ev) < 0) {
		int err = errno ? errno : ENOMEM;
		insetd_unref(ctx);
		errno = err;
		return NULL;
	}
	/* The first attempt at the caller's first dispatch, after it set its
	 * log handler: the fd is readable at once. */
	arm_timer_ns(ctx, 0);
	return ctx;
}

INSETD_EXPORT struct insetd *insetd_ref(struct insetd *ctx)
{
	ctx->refcount++;
	return ctx;
}

INSETD_EXPORT struct insetd *insetd_unref(struct insetd *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return NULL;
	if (ctx->sock >= 0)
		close(ctx->sock);
	if (ctx->timerfd >= 0)
		close(ctx->timerfd);
	if (ctx->epfd >= 0)
		close(ctx->epfd);
	while (ctx->head) {
		struct insetd_event *e = ctx->head;
		ctx->head = e->next;
		event_free(e);
	}
	while (ctx->views) {
		struct view *v = ctx->views;
		ctx->views = v->next;
		free(v->name);
		free(v);
	}
	free(ctx->focus_view);
	free(ctx->rbuf);
	free(ctx->wbuf);
	free(ctx->name);
	free(ctx->explicit_path);
	free(ctx);
	return NULL;
}

INSETD_EXPORT void insetd_set_user_data(struct insetd *ctx, void *user_data) { ctx->user_data = user_data; }
INSETD_EXPORT void *insetd_get_user_data(struct insetd *ctx) { return ctx->user_data; }
INSETD_EXPORT void insetd_set_log_handler(struct insetd *ctx, insetd_log_handler handler, void *user_data)
{
	ctx->log_handler = handler;
	ctx->log_data = user_data;
}
INSETD_EXPORT int insetd_get_fd(struct insetd *ctx) { return ctx->epfd; }
INSETD_EXPORT bool insetd_is_connected(struct insetd *ctx) { return ctx->welcomed; }

INSETD_EXPORT bool insetd_get_state(struct insetd *ctx, struct insetd_state *state)
{
	if (!ctx->state_valid)
		return false;
	*state = ctx->state;
	return true;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

INSETD_EXPORT void insetd_view_desc_init(struct insetd_view_desc *desc)
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

INSETD_EXPORT int insetd_register_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc)
{
	return store_view(ctx, view, desc, "register");
}

INSETD_EXPORT int insetd_update_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc)
{
	return store_view(ctx, view, desc, "update");
}

INSETD_EXPORT int insetd_unregister_view(struct insetd *ctx, const char *view)
{
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

INSETD_EXPORT int insetd_focus(struct insetd *ctx, const char *view, struct insetd_rect field)
{
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

INSETD_EXPORT int insetd_blur(struct insetd *ctx, const char *view)
{
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

INSETD_EXPORT int insetd_set_window(struct insetd *ctx, struct insetd_rect frame)
{
	if (!valid_rect(frame) || frame.width <= 0 || frame.height <= 0)
		return -EINVAL;
	ctx->has_window = true;
	ctx->window = frame;
	if (ctx->welcomed)
		send_window(ctx);
	return 0;
}

INSETD_EXPORT int insetd_subscribe(struct insetd *ctx, unsigned topics)
{
	topics &= INSETD_TOPIC_POLICY | INSETD_TOPIC_ROTATION | INSETD_TOPIC_DEVICES;
	ctx->topics |= topics;
	if (ctx->welcomed && topics)
		send_subscribe(ctx);
	return 0;
}

INSETD_EXPORT int insetd_scroll(struct insetd *ctx, const char *view, struct insetd_rect rect, double margin)
{
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

INSETD_EXPORT int insetd_transition(struct insetd *ctx, double duration, const struct insetd_size *screen)
{
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

INSETD_EXPORT int insetd_dismiss(struct insetd *ctx, const char *view)
{
	if (!valid_name(view))
		return -EINVAL;
	if (!ctx->welcomed)
		return -ENOTCONN;
	return send_named(ctx, "dismiss", view);
}
