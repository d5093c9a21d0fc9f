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

/* ------------------------------------------------------------------ */
/* Logging                                                             */

static void default_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)data;
	if (priority <= INSETD_LOG_INFO)
		fprintf(stderr, "libinsetd: %s\n", message);
}

void logf_(struct insetd *ctx, enum insetd_log_priority priority, const char *format, ...)
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
