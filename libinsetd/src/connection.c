/*
 * libinsetd: the connection to insetd.
 * SPDX-License-Identifier: Apache-2.0
 *
 * One epoll set (the caller's fd) holds a timerfd (connection attempts and
 * their back-off) and, while connected, the non-blocking socket. What is sent
 * waits in a bounded buffer while the socket cannot take it.
 */
#include "insetd-private.h"

#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define BACKOFF_MAX_MS 2000
#define MAX_OUTBOUND (1u << 20)

void arm_timer_ns(struct insetd *ctx, long long ns)
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

/* The rule every client follows (docs/PROTOCOL.md, "Which socket a client
 * connects to"), at every attempt: the given path, $INSETD_SOCKET, a user's
 * own insetd when stat() (which follows links, as connect() does) reaches
 * it, the system one; an empty value counts as unset. */
static void resolve_path(struct insetd *ctx, char *out, size_t size)
{
	if (ctx->explicit_path) {
		snprintf(out, size, "%s", ctx->explicit_path);
		return;
	}
	const char *env = getenv("INSETD_SOCKET");
	if (env && env[0]) {
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

void disconnect(struct insetd *ctx, const char *why)
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

int send_object(struct insetd *ctx, struct json_object *obj)
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

static void try_connect(struct insetd *ctx)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	resolve_path(ctx, path, sizeof path);
	snprintf(ctx->socket_path, sizeof ctx->socket_path, "%s", path);
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
	send_hello(ctx);
}

int insetd_dispatch(struct insetd *ctx)
{
	if (!ctx)
		return -EINVAL;
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
	insetd_unref_1_1(ctx);
	return 0;
}

static long long monotonic_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int insetd_roundtrip(struct insetd *ctx, int timeout_ms)
{
	if (!ctx || timeout_ms < 0)
		return -EINVAL;
	if (ctx->sock < 0 || !ctx->welcomed)
		return -ENOTCONN;
	unsigned long long number = ++ctx->roundtrip_sent;
	char id[64];
	snprintf(id, sizeof id, ROUNDTRIP_ID "%llu", number);
	struct json_object *request = json_object_new_object();
	if (request) {
		json_object_object_add(request, "type", json_object_new_string("status"));
		json_object_object_add(request, "id", json_object_new_string(id));
	}
	int r = send_object(ctx, request);
	if (r < 0)
		return r;
	long long deadline = monotonic_ms() + timeout_ms;
	insetd_ref(ctx);
	int result = -ETIMEDOUT;
	for (;;) {
		if (ctx->roundtrip_answered >= number) {
			result = 0;
			break;
		}
		if (ctx->sock < 0) {
			result = -ENOTCONN;
			break;
		}
		long long left = deadline - monotonic_ms();
		if (left <= 0)
			break;
		if (ctx->wlen > 0 && (r = flush_out(ctx)) < 0) {
			disconnect(ctx, strerror(-r));
			result = -ENOTCONN;
			break;
		}
		struct pollfd fd = {.fd = ctx->sock, .events = POLLIN | (ctx->wlen > 0 ? POLLOUT : 0)};
		int n = poll(&fd, 1, (int)left);
		if (n < 0 && errno != EINTR) {
			result = -errno;
			break;
		}
		if (n > 0 && (fd.revents & (POLLIN | POLLHUP | POLLERR)))
			read_socket(ctx);
	}
	insetd_unref_1_1(ctx);
	return result;
}
