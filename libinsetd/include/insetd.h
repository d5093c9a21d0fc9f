/*
 * libinsetd: a C client library for insetd, the on-screen keyboard authority.
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The shape is libinput's: a reference-counted context, one file descriptor
 * for the caller's own main loop, insetd_dispatch() when it is readable, and
 * events read one at a time with insetd_get_event().
 *
 *     struct insetd *ctx = insetd_new(NULL, "my-app");      // default socket
 *     struct insetd_view_desc view;
 *     insetd_view_desc_init(&view);
 *     view.frame = (struct insetd_rect){0, 0, 540, 960};
 *     view.content_size = (struct insetd_size){540, 2000};
 *     insetd_register_view(ctx, "form", &view);
 *     // in the main loop, when insetd_get_fd(ctx) is readable:
 *     insetd_dispatch(ctx);
 *     struct insetd_event *ev;
 *     while ((ev = insetd_get_event(ctx))) {
 *         if (insetd_event_get_type(ev) == INSETD_EVENT_ADJUSTMENT) { ... }
 *         insetd_event_destroy(ev);
 *     }
 *
 * Nothing blocks: the socket is non-blocking, and every connection attempt
 * happens in insetd_dispatch(), the first one at the first call (insetd_new()
 * makes the fd readable at once, so a caller's handlers and log priority are
 * in place before anything is tried). While insetd is not running, or after
 * it went away, the context retries with a back-off (50 ms doubling to 2 s,
 * starting over after a welcome) and says so once per outage through the
 * log handler. Views, the window, the focus and the subscriptions are kept
 * and restated after every reconnect, so insetd ends in the same state.
 *
 * Coordinates are points, origin top-left, y down. A client's views are in
 * its window's coordinates; the window (insetd_set_window()) and keyboard
 * frames are in screen coordinates (docs/PROTOCOL.md, "One coordinate space").
 * Durations are seconds.
 *
 * Passing NULL for the context is refused, not a crash: functions returning
 * an int return -EINVAL, others NULL, false, 0 or nothing.
 *
 * Exported symbols are versioned (LIBINSETD_1: the first interface;
 * LIBINSETD_1.1: the log priority, the socket path and the state's
 * protocol_version, client_id, osk_problem and frame_source); the SONAME is
 * libinsetd.so.1 and changes only when the ABI breaks.
 *
 * Not thread-safe: use one context from one thread (or lock around it).
 * Nothing keystroke-related passes through this library; it logs no field
 * contents, only connection state.
 */
#ifndef INSETD_H
#define INSETD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif


/** The protocol version this library speaks. */
#define INSETD_PROTOCOL_VERSION 1
/** Longest line accepted from insetd (the protocol's own limit); a longer
 *  line ends the connection, which is then re-established. */
#define INSETD_MAX_LINE 65536

struct insetd;
struct insetd_event;

struct insetd_point { double x, y; };
struct insetd_size { double width, height; };
struct insetd_rect { double x, y, width, height; };
struct insetd_insets { double top, left, bottom, right; };

/** What insetd_event_get_type() says. */
enum insetd_event_type {
	/** No event: what insetd_next_event_type() says when none is queued. */
	INSETD_EVENT_NONE = 0,
	/** A welcome: connected (again). The daemon's state at that moment is
	 *  read with insetd_event_get_state(). Everything the context keeps
	 *  has been restated before this event is delivered. */
	INSETD_EVENT_CONNECTED = 1,
	/** The connection is gone (insetd stopped, crashed, said bye, or sent
	 *  something this library refuses); the context reconnects by itself.
	 *  A front-end should restore its views: no keyboard is known now, and a
	 *  window insetd placed (INSETD_EVENT_PLACED) is at 0,0 again, with no
	 *  PLACED event to say so. */
	INSETD_EVENT_DISCONNECTED,
	/** A keyboard notification: phase, begin and end frames (screen
	 *  coordinates), animation duration and curve, is_local. */
	INSETD_EVENT_KEYBOARD,
	/** The complete state one of this client's views must take. */
	INSETD_EVENT_ADJUSTMENT,
	/** Another client's field took the focus from this view; the context
	 *  forgets its focus (a reconnect does not restore it). */
	INSETD_EVENT_FOCUS_LOST,
	/** Mode, tablet mode and hardware keyboard (subscribe to
	 *  INSETD_TOPIC_POLICY). */
	INSETD_EVENT_POLICY,
	/** An error insetd reported (code and message). */
	INSETD_EVENT_ERROR,
	/** insetd said bye (reason); a DISCONNECTED event follows. */
	INSETD_EVENT_BYE,
	/** The rotate key or command (subscribe to INSETD_TOPIC_ROTATION). */
	INSETD_EVENT_ROTATE,
	/** Since LIBINSETD_1.2, only after insetd_set_unplaced_window(): where
	 *  insetd measures the window now (insetd_event_placed_get_origin()). */
	INSETD_EVENT_PLACED,
};

enum insetd_keyboard_phase {
	INSETD_PHASE_WILL_SHOW = 1,
	INSETD_PHASE_DID_SHOW,
	INSETD_PHASE_WILL_HIDE,
	INSETD_PHASE_DID_HIDE,
	INSETD_PHASE_WILL_CHANGE_FRAME,
	INSETD_PHASE_DID_CHANGE_FRAME,
};

/** Animation curves (CSS/UIKit names: easeInOut, easeIn, easeOut, linear). */
enum insetd_curve {
	INSETD_CURVE_EASE_IN_OUT = 0,
	INSETD_CURVE_EASE_IN,
	INSETD_CURVE_EASE_OUT,
	INSETD_CURVE_LINEAR,
};

enum insetd_behavior {
	INSETD_BEHAVIOR_SAFE_AREA_INSETS = 0,
	INSETD_BEHAVIOR_CONTENT_SIZE,
	INSETD_BEHAVIOR_NONE,
};

enum insetd_dismiss_mode {
	INSETD_DISMISS_NONE = 0,
	INSETD_DISMISS_ON_DRAG,
	INSETD_DISMISS_INTERACTIVE,
};

/** Topics for insetd_subscribe(), or-ed. */
enum insetd_topic {
	INSETD_TOPIC_POLICY = 1 << 0,
	INSETD_TOPIC_ROTATION = 1 << 1,
	INSETD_TOPIC_DEVICES = 1 << 2, /* device events are read and dropped */
};

/** Log priorities in libinput's order: a higher value is more important, and
 *  insetd_log_set_priority() passes on messages of that priority and above.
 *  (Programs built against libinsetd 0.1.0, whose handlers expect ERROR 10
 *  and DEBUG 30, still get those values: their insetd_set_log_handler is the
 *  LIBINSETD_1 symbol, which keeps the old numbering and every priority.) */
enum insetd_log_priority {
	INSETD_LOG_DEBUG = 10,
	INSETD_LOG_INFO = 20,
	INSETD_LOG_ERROR = 30,
};

/**
 * A scroll view as the client describes it, *without* insetd's adjustments
 * (docs/PROTOCOL.md, "register"). Always start from insetd_view_desc_init():
 * it sets the protocol's defaults, and later versions may add fields at the
 * end (the reserved space keeps the size).
 */
struct insetd_view_desc {
	struct insetd_rect frame;          /**< in the window's coordinates */
	struct insetd_size content_size;   /**< natural content size */
	struct insetd_insets safe_area;
	struct insetd_insets content_inset;
	struct insetd_insets indicator_insets;
	double additional_bottom_inset;
	struct insetd_point content_offset;
	enum insetd_behavior behavior;
	bool resizes_content_for_keyboard;
	double visibility_scroll_margin;
	enum insetd_dismiss_mode keyboard_dismiss_mode;
	bool always_bounce_vertical;
	bool content_stretches;            /**< default true */
	bool has_minimum_content_size;
	struct insetd_size minimum_content_size;
	uint8_t reserved[64];
};

/** The daemon's state in a welcome (filled in by the library; later
 *  versions may use the reserved space). */
struct insetd_state {
	struct insetd_size screen;
	bool portrait;                /**< orientation "portrait" (else landscape) */
	bool keyboard_visible;        /**< state.keyboard present */
	struct insetd_rect keyboard;  /**< the keyboard's frame while visible */
	bool tablet_mode;
	bool hardware_keyboard;
	char mode[16];                /**< "auto", "always" or "never" */
	/** Since LIBINSETD_1.1, in what was reserved space (the struct keeps
	 *  its size, which the library checks when it is built; the rest stays
	 *  reserved for later fields). The strings belong to the library: from
	 *  insetd_get_state() valid until the next insetd_dispatch() or
	 *  insetd_unref(), from insetd_event_get_state() until
	 *  insetd_event_destroy(). They are as of the welcome (insetd restates
	 *  them only in welcome and status). */
	int protocol_version;         /**< the version insetd chose (welcome's version) */
	const char *client_id;        /**< the id insetd gave this connection ("c1") */
	const char *osk_problem;      /**< why the real keyboard is not on screen, as an OSK bridge reported it; NULL: none known */
	const char *frame_source;     /**< "configured", or "reported by BRIDGE"; NULL if insetd did not say */
	uint8_t reserved[64 - sizeof(int) - 3 * sizeof(const char *)];
};

typedef void (*insetd_log_handler)(struct insetd *ctx, enum insetd_log_priority priority,
				   const char *message, void *user_data);

/* ------------------------------------------------------------------ */
/* Context                                                             */

/**
 * A new context with one reference. It connects at the first
 * insetd_dispatch() (its fd is readable at once), never in here.
 * @p socket_path NULL or "" means the default, resolved at every connection
 * attempt by the rule every client follows (docs/PROTOCOL.md, "Which socket a
 * client connects to"): $INSETD_SOCKET unless empty, else
 * $XDG_RUNTIME_DIR/insetd.sock when stat() reaches it, else
 * /run/insetd/insetd.sock.
 * @p client_name is a name for insetd's logs (NULL: "libinsetd").
 * @return NULL only when out of memory or file descriptors (errno set).
 */
struct insetd *insetd_new(const char *socket_path, const char *client_name);
/** Adds a reference. @return @p ctx */
struct insetd *insetd_ref(struct insetd *ctx);
/** Drops a reference; the last one disconnects and frees the context (events
 *  still held keep it alive). @return @p ctx while references remain, NULL
 *  once it is freed (as libinput_unref()). */
struct insetd *insetd_unref(struct insetd *ctx);
void insetd_set_user_data(struct insetd *ctx, void *user_data);
void *insetd_get_user_data(struct insetd *ctx);
/** Replaces the log handler (default: one line on stderr). NULL silences
 *  the library. It gets messages of the context's priority and above. */
void insetd_set_log_handler(struct insetd *ctx, insetd_log_handler handler, void *user_data);
/** The least important messages passed to the handler (default
 *  INSETD_LOG_INFO). Other values than the enum's are ignored. @since LIBINSETD_1.1 */
void insetd_log_set_priority(struct insetd *ctx, enum insetd_log_priority priority);
/** @return the context's log priority (INSETD_LOG_INFO for NULL). @since LIBINSETD_1.1 */
enum insetd_log_priority insetd_log_get_priority(struct insetd *ctx);
/** The socket of the latest connection attempt (the rule's choice at that
 *  attempt), NULL before the first; valid until the next insetd_dispatch().
 *  For logs and for "cannot connect to PATH" messages. @since LIBINSETD_1.1 */
const char *insetd_get_socket_path(struct insetd *ctx);

/**
 * One file descriptor (an epoll set) for the caller's main loop: poll it for
 * reading, and call insetd_dispatch() when it is readable. It stays the same
 * across reconnects. Owned by the context: do not close it.
 */
int insetd_get_fd(struct insetd *ctx);
/**
 * Does whatever is due: reads and parses insetd's lines, writes what is
 * queued, (re)connects when the back-off ran out. Never blocks. Queues
 * events for insetd_get_event().
 * @return 0, or a negative errno on an internal failure (connection problems
 * are not failures: they become DISCONNECTED events and retries).
 */
int insetd_dispatch(struct insetd *ctx);
/**
 * Waits, up to @p timeout_ms, until insetd has answered everything sent so
 * far: a request with an id (`status`) goes after it, and insetd replies in
 * order, after everything each request caused at once (adjustments, keyboard
 * notifications). What it read is queued for insetd_get_event(): take it
 * after this returns (the fd may not be readable again for it). For a
 * toolkit that wants insetd's answer to a resize in the frame that shows the
 * new size, with a bound of a few milliseconds. Blocks the caller.
 * @return 0 when the answer came, -ETIMEDOUT when it did not in time,
 * -ENOTCONN when not connected (or the connection was lost meanwhile),
 * -EINVAL for a NULL context or a negative timeout. @since LIBINSETD_1.3
 */
int insetd_roundtrip(struct insetd *ctx, int timeout_ms);
/** The next event, or NULL when none is queued. Free it with
 *  insetd_event_destroy(). */
struct insetd_event *insetd_get_event(struct insetd *ctx);
/** The next event's type without taking it, INSETD_EVENT_NONE when none is
 *  queued. */
enum insetd_event_type insetd_next_event_type(struct insetd *ctx);
/** Whether the hello has been answered on the current connection. */
bool insetd_is_connected(struct insetd *ctx);
/** The last welcome's state, updated by keyboard and policy messages;
 *  false when not connected. */
bool insetd_get_state(struct insetd *ctx, struct insetd_state *state);

/* ------------------------------------------------------------------ */
/* Requests. Kept requests (views, window, focus, subscriptions) are     */
/* stored and restated after a reconnect; they return 0 while            */
/* disconnected too. One-shot requests (scroll, transition, dismiss)     */
/* return -ENOTCONN then. -EINVAL: a non-finite or out-of-range number,  */
/* a negative size, or an empty or over-long (256 bytes) view name.      */

/** Sets @p desc to the protocol's defaults (all zero, content_stretches true). */
void insetd_view_desc_init(struct insetd_view_desc *desc);
/** Registers @p view (or replaces its description if registered). */
int insetd_register_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc);
/** Replaces the whole description (not a patch: send the current content
 *  offset). Registers the view if it is not. */
int insetd_update_view(struct insetd *ctx, const char *view, const struct insetd_view_desc *desc);
/** Unregisters @p view (and forgets its focus). -ENOENT if not registered. */
int insetd_unregister_view(struct insetd *ctx, const char *view);
/** A field of @p view got the focus; @p field in the view's content
 *  coordinates. Again on the focused view: the field moved. */
int insetd_focus(struct insetd *ctx, const char *view, struct insetd_rect field);
/** The field of @p view lost the focus. */
int insetd_blur(struct insetd *ctx, const char *view);
/** Where this client's window is on the screen (screen points, width and
 *  height above 0). Without it the window is at 0,0 over the whole screen. */
int insetd_set_window(struct insetd *ctx, struct insetd_rect frame);
/** Since LIBINSETD_1.2. Where this client's window is, for a client that
 *  cannot know (Wayland tells no client): @p frame is where its views start
 *  if its window, @p toplevel in size as the compositor sizes it, is at the
 *  screen's top-left. insetd places the window where an OSK bridge says the
 *  compositor draws the focused window of that size, while this client holds
 *  the focus, and says so with INSETD_EVENT_PLACED. Restated after a
 *  reconnect, as insetd_set_window(), which it replaces (and which replaces
 *  it). -EINVAL for a size not above 0 or a frame insetd_set_window() refuses. */
int insetd_set_unplaced_window(struct insetd *ctx, struct insetd_rect frame, struct insetd_size toplevel);
/** Subscribes to @p topics (or-ed enum insetd_topic), kept across reconnects. */
int insetd_subscribe(struct insetd *ctx, unsigned topics);
/** Scrolls @p rect (content coordinates) of @p view into view; @p margin < 0: none. */
int insetd_scroll(struct insetd *ctx, const char *view, struct insetd_rect rect, double margin);
/** A transition: with @p screen a rotation to that output size, with NULL a
 *  navigation. */
int insetd_transition(struct insetd *ctx, double duration, const struct insetd_size *screen);
/** The user dragged the keyboard away from @p view. */
int insetd_dismiss(struct insetd *ctx, const char *view);

/* ------------------------------------------------------------------ */
/* Events                                                              */

void insetd_event_destroy(struct insetd_event *event);
enum insetd_event_type insetd_event_get_type(struct insetd_event *event);
struct insetd *insetd_event_get_context(struct insetd_event *event);

/** CONNECTED: the welcome's state; POLICY: tablet_mode, hardware_keyboard
 *  and mode filled in (the rest from the context's state). @return false
 *  for other events (a question, not a client bug).
 *
 *  The accessors below are for the event types they name: called on another
 *  type they log "client bug" at INSETD_LOG_ERROR and return 0, NULL or a
 *  zero struct (as libinput's do). */
bool insetd_event_get_state(struct insetd_event *event, struct insetd_state *state);

/** KEYBOARD accessors (0 / zero rects for other events). */
enum insetd_keyboard_phase insetd_event_keyboard_get_phase(struct insetd_event *event);
struct insetd_rect insetd_event_keyboard_get_begin(struct insetd_event *event);
struct insetd_rect insetd_event_keyboard_get_end(struct insetd_event *event);
bool insetd_event_keyboard_is_local(struct insetd_event *event);
/** KEYBOARD and ADJUSTMENT: the animation to use. */
double insetd_event_get_duration(struct insetd_event *event);
enum insetd_curve insetd_event_get_curve(struct insetd_event *event);

/** PLACED (since LIBINSETD_1.2): where the compositor draws the window
 *  insetd_set_unplaced_window() described, on the screen; 0,0: at the
 *  top-left, as the client took it. Views stay in the window's coordinates. */
struct insetd_point insetd_event_placed_get_origin(struct insetd_event *event);
/** ADJUSTMENT and FOCUS_LOST: the view's name (valid until destroy). */
const char *insetd_event_get_view(struct insetd_event *event);
/** ADJUSTMENT accessors. */
double insetd_event_adjustment_get_additional_bottom_inset(struct insetd_event *event);
struct insetd_insets insetd_event_adjustment_get_content_inset(struct insetd_event *event);
struct insetd_insets insetd_event_adjustment_get_indicator_insets(struct insetd_event *event);
struct insetd_insets insetd_event_adjustment_get_adjusted_content_inset(struct insetd_event *event);
struct insetd_size insetd_event_adjustment_get_content_size(struct insetd_event *event);
struct insetd_point insetd_event_adjustment_get_content_offset(struct insetd_event *event);
bool insetd_event_adjustment_get_always_bounce_vertical(struct insetd_event *event);

/** ERROR: the stable code (e.g. "unknown-view") and message; BYE: the reason
 *  (code) and NULL; ROTATE: the direction ("next", "left", "right") and NULL. */
const char *insetd_event_get_code(struct insetd_event *event);
const char *insetd_event_get_message(struct insetd_event *event);

/** Names for logs: "willShow", "easeInOut", ... */
const char *insetd_keyboard_phase_name(enum insetd_keyboard_phase phase);
const char *insetd_curve_name(enum insetd_curve curve);

#ifdef __cplusplus
}
#endif
#endif /* INSETD_H */
