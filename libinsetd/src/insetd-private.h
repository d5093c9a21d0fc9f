/*
 * libinsetd's internals, shared by its source files and never installed:
 * the context and event structures and the functions one file calls in
 * another. The library is built with -fvisibility=hidden and insetd.h is
 * included here with default visibility, so what insetd.h declares is what
 * can be exported; libinsetd.map (the version script) then names each
 * exported symbol and its version, and hides everything else.
 *
 *   context.c     the context: creation, reference counting, accessors, logging
 *   connection.c  the socket: connecting, back-off, writing, dispatch
 *   receive.c     reading insetd's lines and decoding them into events
 *   requests.c    encoding requests, and the kept state restated after a reconnect
 *   event.c       the event queue and the events' accessors
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef INSETD_PRIVATE_H
#define INSETD_PRIVATE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#pragma GCC visibility push(default)
#include "insetd.h"
#pragma GCC visibility pop

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define INSETD_INTERNAL __attribute__((visibility("hidden")))
/* For the implementations behind versioned names (.symver), which are no
 * declaration of insetd.h: in the shared library (INSETD_SHARED) exported,
 * then renamed by the version script; compiled into a program or plugin,
 * hidden like the rest. */
#ifdef INSETD_SHARED
#define INSETD_VERSIONED __attribute__((visibility("default")))
#else
#define INSETD_VERSIONED INSETD_INTERNAL
#endif

/* epoll data of the timerfd and of the socket in the context's epoll set. */
#define TAG_TIMER 1u
#define TAG_SOCKET 2u
#define BACKOFF_FIRST_MS 50
#define MAX_VIEW_NAME 256
#define COORD_LIMIT 1000000.0

struct json_object;

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
	struct insetd_point placed_origin;
	bool always_bounce_vertical;
	char *code;
	char *message;
	/* The strings has_state's state points to (owned by the event). */
	char *client_id, *osk_problem, *frame_source;
};

struct insetd {
	int refcount;
	int epfd, timerfd, sock;
	char *explicit_path;
	char *name;
	void *user_data;
	insetd_log_handler log_handler;
	void *log_data;
	enum insetd_log_priority log_priority;
	/* The handler was set through LIBINSETD_1's insetd_set_log_handler: it
	 * expects 0.1.0's numbering (ERROR 10 ... DEBUG 30). */
	bool log_compat;
	/* The latest attempt's path; empty before the first. */
	char socket_path[109];

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
	bool has_toplevel; /* the window was set with insetd_set_unplaced_window() */
	struct insetd_size toplevel;
	char *focus_view;
	struct insetd_rect focus_field;
	unsigned topics;

	struct insetd_event *head, *tail;
	size_t queued;

	/* insetd_roundtrip(): the latest request's number, and the latest one
	 * insetd answered. */
	unsigned long long roundtrip_sent, roundtrip_answered;

	bool state_valid;
	struct insetd_state state;
	/* The strings state points to (owned by the context; NULL: absent). */
	char *client_id, *osk_problem, *frame_source;
};

/* The id of insetd_roundtrip()'s requests, before their number. */
#define ROUNDTRIP_ID "libinsetd-roundtrip-"

/* ------------------------------------------------------------------ */
/* Validation of what callers pass and insetd sends                     */

static inline bool finite_coord(double v) { return isfinite(v) && v >= -COORD_LIMIT && v <= COORD_LIMIT; }
static inline bool finite_size(double v) { return finite_coord(v) && v >= 0; }
static inline bool valid_rect(struct insetd_rect r)
{
	return finite_coord(r.x) && finite_coord(r.y) && finite_size(r.width) && finite_size(r.height);
}
static inline bool valid_insets(struct insetd_insets i)
{
	return finite_coord(i.top) && finite_coord(i.left) && finite_coord(i.bottom) && finite_coord(i.right);
}
static inline bool valid_name(const char *view)
{
	return view && view[0] && strnlen(view, MAX_VIEW_NAME + 1) <= MAX_VIEW_NAME;
}

/* ------------------------------------------------------------------ */
/* context.c                                                           */

/* Formats a line and passes it to the context's log handler, if any. */
INSETD_INTERNAL __attribute__((format(printf, 3, 4))) void logf_(struct insetd *ctx,
								 enum insetd_log_priority priority,
								 const char *format, ...);
/* Whether @p event is of one of the types in @p mask (1 << type); if not,
 * logs a client bug naming @p function, as libinput's accessors do. */
INSETD_INTERNAL bool require_type(struct insetd_event *event, const char *function, unsigned mask);
/* insetd_unref as LIBINSETD_1.1 has it (the library's own calls). */
INSETD_VERSIONED struct insetd *insetd_unref_1_1(struct insetd *ctx);
/* A copy of at most @p max bytes of @p s, NUL-terminated; NULL without memory. */
INSETD_INTERNAL char *bounded_strdup(const char *s, size_t max);

/* ------------------------------------------------------------------ */
/* connection.c                                                        */

/* Arms the timerfd to fire once after @p ns (at once for 0). */
INSETD_INTERNAL void arm_timer_ns(struct insetd *ctx, long long ns);
/* Closes the socket, queues DISCONNECTED if insetd had welcomed the context,
 * and schedules the next attempt. */
INSETD_INTERNAL void disconnect(struct insetd *ctx, const char *why);
/* Queues one JSON object as a line and tries to write it. Takes @p obj. */
INSETD_INTERNAL int send_object(struct insetd *ctx, struct json_object *obj);

/* ------------------------------------------------------------------ */
/* receive.c                                                           */

/* Reads what the socket holds and handles every complete line. */
INSETD_INTERNAL void read_socket(struct insetd *ctx);

/* ------------------------------------------------------------------ */
/* requests.c                                                          */

/* The hello that opens a connection. */
INSETD_INTERNAL int send_hello(struct insetd *ctx);
/* After a welcome: everything insetd must know again. */
INSETD_INTERNAL void resync(struct insetd *ctx);

/* ------------------------------------------------------------------ */
/* event.c                                                             */

/* insetd's names of the phases (indexed by enum insetd_keyboard_phase,
 * from INSETD_PHASE_WILL_SHOW) and of the curves (by enum insetd_curve). */
INSETD_INTERNAL extern const char *const phase_names[];
INSETD_INTERNAL extern const char *const curve_names[];

/* A zeroed event of @p type; NULL without memory. */
INSETD_INTERNAL struct insetd_event *event_new(enum insetd_event_type type);
/* Frees the event and its strings (not its context reference). */
INSETD_INTERNAL void event_free(struct insetd_event *event);
/* Gives @p event a copy of @p state whose strings the event owns. */
INSETD_INTERNAL void event_set_state(struct insetd_event *event, const struct insetd_state *state);
/* Appends @p event (NULL: nothing) to the queue, or drops it when full. */
INSETD_INTERNAL void queue_event(struct insetd *ctx, struct insetd_event *event);

#endif
