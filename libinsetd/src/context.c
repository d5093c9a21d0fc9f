/*
 * libinsetd: the client context, its reference counting and accessors, and
 * logging through the caller's handler.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "insetd-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* struct insetd_state as 0.1.0 had it: its size is part of the ABI, and
 * the fields added since live in what was its reserved space. */
struct state_0_1_0 {
	struct insetd_size screen;
	bool portrait, keyboard_visible;
	struct insetd_rect keyboard;
	bool tablet_mode, hardware_keyboard;
	char mode[16];
	uint8_t reserved[64];
};
_Static_assert(sizeof(struct insetd_state) == sizeof(struct state_0_1_0), "struct insetd_state changed size");
_Static_assert(offsetof(struct insetd_state, protocol_version) >= offsetof(struct state_0_1_0, reserved),
	       "a field added to struct insetd_state moved an old one");

/* ------------------------------------------------------------------ */
/* Logging                                                             */

static void default_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)priority;
	(void)data;
	fprintf(stderr, "libinsetd: %s\n", message);
}

void logf_(struct insetd *ctx, enum insetd_log_priority priority, const char *format, ...)
{
	if (!ctx->log_handler || priority < ctx->log_priority)
		return;
	char line[512];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof line, format, args);
	va_end(args);
	/* 0.1.0's handlers read ERROR as 10 and DEBUG as 30: the reverse. */
	enum insetd_log_priority told = ctx->log_compat ? (enum insetd_log_priority)(40 - priority) : priority;
	ctx->log_handler(ctx, told, line, ctx->log_data);
}

static bool known_priority(enum insetd_log_priority p)
{
	return p == INSETD_LOG_DEBUG || p == INSETD_LOG_INFO || p == INSETD_LOG_ERROR;
}

/* Two insetd_set_log_handler: LIBINSETD_1's, which programs built against
 * 0.1.0 bind to (their handlers expect its numbering and got every
 * message), and LIBINSETD_1.1's, the default for programs built now. */
INSETD_VERSIONED void insetd_set_log_handler_1_0(struct insetd *ctx, insetd_log_handler handler, void *user_data);
INSETD_VERSIONED void insetd_set_log_handler_1_1(struct insetd *ctx, insetd_log_handler handler, void *user_data);
#ifdef INSETD_SHARED
__asm__(".symver insetd_set_log_handler_1_0, insetd_set_log_handler@LIBINSETD_1");
__asm__(".symver insetd_set_log_handler_1_1, insetd_set_log_handler@@LIBINSETD_1.1");
#else
/* Compiled into a program or plugin (the QML module, the IM modules): one
 * version, the current one. */
void insetd_set_log_handler(struct insetd *ctx, insetd_log_handler handler, void *user_data)
{
	insetd_set_log_handler_1_1(ctx, handler, user_data);
}
#endif

void insetd_set_log_handler_1_0(struct insetd *ctx, insetd_log_handler handler, void *user_data)
{
	if (!ctx)
		return;
	ctx->log_handler = handler;
	ctx->log_data = user_data;
	ctx->log_compat = true;
	ctx->log_priority = INSETD_LOG_DEBUG;
}

void insetd_set_log_handler_1_1(struct insetd *ctx, insetd_log_handler handler, void *user_data)
{
	if (!ctx)
		return;
	ctx->log_handler = handler;
	ctx->log_data = user_data;
	ctx->log_compat = false;
}

void insetd_log_set_priority(struct insetd *ctx, enum insetd_log_priority priority)
{
	if (ctx && known_priority(priority))
		ctx->log_priority = priority;
}

enum insetd_log_priority insetd_log_get_priority(struct insetd *ctx)
{
	return ctx ? ctx->log_priority : INSETD_LOG_INFO;
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

char *bounded_strdup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *copy = malloc(n + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	copy[n] = '\0';
	return copy;
}

/* ------------------------------------------------------------------ */
/* Context                                                             */

struct insetd *insetd_new(const char *socket_path, const char *client_name)
{
	struct insetd *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return NULL;
	ctx->refcount = 1;
	ctx->sock = -1;
	ctx->timerfd = -1;
	ctx->backoff_ms = BACKOFF_FIRST_MS;
	ctx->log_handler = default_log;
	ctx->log_priority = INSETD_LOG_INFO;
	ctx->epfd = epoll_create1(EPOLL_CLOEXEC);
	ctx->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	ctx->rbuf = malloc(INSETD_MAX_LINE + 1);
	ctx->name = bounded_strdup(client_name ? client_name : "libinsetd", MAX_VIEW_NAME);
	/* An empty path is no path: the default rule applies. */
	bool given = socket_path && socket_path[0];
	ctx->explicit_path = given ? strdup(socket_path) : NULL;
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = TAG_TIMER};
	if (ctx->epfd < 0 || ctx->timerfd < 0 || !ctx->rbuf || !ctx->name || (given && !ctx->explicit_path) ||
	    epoll_ctl(ctx->epfd, EPOLL_CTL_ADD, ctx->timerfd, &ev) < 0) {
		int err = errno ? errno : ENOMEM;
		insetd_unref_1_1(ctx);
		errno = err;
		return NULL;
	}
	/* The first attempt at the caller's first dispatch, after it set its
	 * log handler: the fd is readable at once. */
	arm_timer_ns(ctx, 0);
	return ctx;
}

struct insetd *insetd_ref(struct insetd *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

/* Two insetd_unref: LIBINSETD_1's always returns NULL, as 0.1.0 promised
 * its callers; LIBINSETD_1.1's returns the context while references remain,
 * as libinput_unref() does. */
INSETD_VERSIONED struct insetd *insetd_unref_1_0(struct insetd *ctx);
INSETD_VERSIONED struct insetd *insetd_unref_1_1(struct insetd *ctx);
#ifdef INSETD_SHARED
__asm__(".symver insetd_unref_1_0, insetd_unref@LIBINSETD_1");
__asm__(".symver insetd_unref_1_1, insetd_unref@@LIBINSETD_1.1");
#else
struct insetd *insetd_unref(struct insetd *ctx)
{
	return insetd_unref_1_1(ctx);
}
#endif

struct insetd *insetd_unref_1_0(struct insetd *ctx)
{
	insetd_unref_1_1(ctx);
	return NULL;
}

struct insetd *insetd_unref_1_1(struct insetd *ctx)
{
	if (!ctx)
		return NULL;
	if (--ctx->refcount > 0)
		return ctx;
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
	free(ctx->client_id);
	free(ctx->osk_problem);
	free(ctx->frame_source);
	free(ctx);
	return NULL;
}

void insetd_set_user_data(struct insetd *ctx, void *user_data)
{
	if (ctx)
		ctx->user_data = user_data;
}
void *insetd_get_user_data(struct insetd *ctx) { return ctx ? ctx->user_data : NULL; }
int insetd_get_fd(struct insetd *ctx) { return ctx ? ctx->epfd : -EINVAL; }
bool insetd_is_connected(struct insetd *ctx) { return ctx && ctx->welcomed; }
const char *insetd_get_socket_path(struct insetd *ctx)
{
	return ctx && ctx->socket_path[0] ? ctx->socket_path : NULL;
}

bool insetd_get_state(struct insetd *ctx, struct insetd_state *state)
{
	if (!ctx || !state || !ctx->state_valid)
		return false;
	*state = ctx->state;
	return true;
}
