/*
 * libinsetd's contracts as libinput's: NULL contexts refused, references
 * counted and reported, log priorities in libinput's order with a setter
 * (and 0.1.0's numbering kept for programs built against it), the first
 * connection attempt at the first dispatch, the welcome's state (protocol
 * version, client id, OSK problem, frame source), and wrong-type accessors
 * logged as client bugs. Against fake servers in this process.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void test_null_contexts(void)
{
	current_test = "null";
	int before = passed;
	struct insetd_view_desc d = full_view(10, 10, 10);
	struct insetd_rect r = {0, 0, 1, 1};
	struct insetd_state s;
	CHECK(insetd_dispatch(NULL) == -EINVAL, "dispatch");
	CHECK(insetd_get_fd(NULL) == -EINVAL, "get_fd");
	CHECK(insetd_register_view(NULL, "v", &d) == -EINVAL, "register_view");
	CHECK(insetd_update_view(NULL, "v", &d) == -EINVAL, "update_view");
	CHECK(insetd_unregister_view(NULL, "v") == -EINVAL, "unregister_view");
	CHECK(insetd_focus(NULL, "v", r) == -EINVAL, "focus");
	CHECK(insetd_blur(NULL, "v") == -EINVAL, "blur");
	CHECK(insetd_set_window(NULL, r) == -EINVAL, "set_window");
	CHECK(insetd_set_unplaced_window(NULL, r, (struct insetd_size){1, 1}) == -EINVAL, "set_unplaced_window");
	CHECK(insetd_subscribe(NULL, INSETD_TOPIC_POLICY) == -EINVAL, "subscribe");
	CHECK(insetd_scroll(NULL, "v", r, 0) == -EINVAL, "scroll");
	CHECK(insetd_transition(NULL, 0.3, NULL) == -EINVAL, "transition");
	CHECK(insetd_dismiss(NULL, "v") == -EINVAL, "dismiss");
	CHECK(insetd_get_event(NULL) == NULL, "get_event");
	CHECK(insetd_next_event_type(NULL) == INSETD_EVENT_NONE, "next_event_type");
	CHECK(!insetd_is_connected(NULL), "is_connected");
	CHECK(!insetd_get_state(NULL, &s), "get_state");
	CHECK(insetd_ref(NULL) == NULL, "ref");
	CHECK(insetd_unref(NULL) == NULL, "unref");
	insetd_set_user_data(NULL, &d);
	CHECK(insetd_get_user_data(NULL) == NULL, "get_user_data");
	insetd_set_log_handler(NULL, counting_log, NULL);
	insetd_log_set_priority(NULL, INSETD_LOG_DEBUG);
	CHECK(insetd_log_get_priority(NULL) == INSETD_LOG_INFO, "log_get_priority");
	CHECK(insetd_get_socket_path(NULL) == NULL, "get_socket_path");
	/* No event either: zero answers, no crash. */
	CHECK(insetd_event_get_type(NULL) == INSETD_EVENT_NONE, "event_get_type");
	CHECK(insetd_event_get_context(NULL) == NULL, "event_get_context");
	CHECK(!insetd_event_get_state(NULL, &s), "event_get_state");
	CHECK(insetd_event_get_view(NULL) == NULL, "event_get_view");
	CHECK(insetd_event_placed_get_origin(NULL).y == 0, "event_placed_get_origin");
	CHECK(insetd_event_keyboard_get_end(NULL).height == 0, "keyboard_get_end");
	insetd_event_destroy(NULL);
	printf("ok NULL contexts: -EINVAL, NULL, false or nothing, never a crash (%d checks)\n", passed - before);
}

void test_references(void)
{
	current_test = "references";
	char path[300];
	snprintf(path, sizeof path, "%s/nobody.sock", dir);
	struct insetd *ctx = insetd_new(path, "c-test-refs");
	CHECK(ctx != NULL, "insetd_new");
	insetd_set_log_handler(ctx, NULL, NULL);
	CHECK(insetd_next_event_type(ctx) == INSETD_EVENT_NONE, "an event queued at once");
	CHECK(insetd_ref(ctx) == ctx, "ref");
	CHECK(insetd_unref(ctx) == ctx, "unref with a reference left: the context");
	CHECK(insetd_get_fd(ctx) >= 0, "the context died with a reference left");
	CHECK(insetd_unref(ctx) == NULL, "the last unref: NULL");
	/* Programs built against 0.1.0 bind insetd_unref@LIBINSETD_1, which
	 * returned NULL every time; it still does. */
	struct insetd *(*unref_1_0)(struct insetd *) = dlvsym(RTLD_DEFAULT, "insetd_unref", "LIBINSETD_1");
	CHECK(unref_1_0 != NULL, "no insetd_unref@LIBINSETD_1");
	ctx = insetd_new(path, "c-test-refs");
	insetd_set_log_handler(ctx, NULL, NULL);
	insetd_ref(ctx);
	CHECK(unref_1_0(ctx) == NULL, "LIBINSETD_1's unref returns NULL");
	CHECK(insetd_get_fd(ctx) >= 0, "the context died with a reference left");
	CHECK(unref_1_0(ctx) == NULL, "LIBINSETD_1's last unref");
	printf("ok references: unref returns the context while one remains (LIBINSETD_1's: NULL)\n");
}

/* What a log handler was told, by priority. */
static struct {
	int count[4];
	enum insetd_log_priority last;
	char message[512];
} heard;

static void hearing_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)data;
	int slot = priority == 10 ? 1 : priority == 20 ? 2 : priority == 30 ? 3 : 0;
	heard.count[slot]++;
	heard.last = priority;
	snprintf(heard.message, sizeof heard.message, "%s", message);
}

/* Dispatches until the context's fd has nothing more within @p ms. */
static void dispatch_for(struct insetd *ctx, int ms)
{
	struct pollfd pfd = {.fd = insetd_get_fd(ctx), .events = POLLIN};
	while (poll(&pfd, 1, ms) > 0)
		CHECK(insetd_dispatch(ctx) == 0, "dispatch");
}

static const char fake_welcome[] =
	"{\"type\":\"welcome\",\"id\":1,\"version\":1,\"client\":\"c42\",\"state\":{\"screen\":{\"width\":540,"
	"\"height\":960},\"orientation\":\"portrait\",\"mode\":\"auto\",\"tabletMode\":false,\"hardwareKeyboard\":false,"
	"\"frameSource\":\"reported by squeekboard\",\"oskProblem\":\"squeekboard did not show after 4 attempts\"}}\n";

/* A context welcomed by a fake server in this process; *@p server is the
 * server's end. Checks that nothing connects before the first dispatch. */
static struct insetd *welcomed(const char *path, int *server, struct insetd_event **connected)
{
	int listener = listen_at(path, true);
	struct insetd *ctx = insetd_new(path, "c-test-api");
	insetd_set_log_handler(ctx, hearing_log, NULL);
	insetd_log_set_priority(ctx, INSETD_LOG_DEBUG);
	usleep(50000);
	CHECK(accept(listener, NULL, NULL) < 0 && errno == EAGAIN, "a connection before the first dispatch");
	CHECK(insetd_get_socket_path(ctx) == NULL, "a socket path before any attempt");
	struct pollfd pfd = {.fd = insetd_get_fd(ctx), .events = POLLIN};
	CHECK(poll(&pfd, 1, 0) == 1, "the fd is not readable at once after insetd_new");
	CHECK(insetd_dispatch(ctx) == 0, "first dispatch");
	*server = accept(listener, NULL, NULL);
	CHECK(*server >= 0, "no connection after the first dispatch: %s", strerror(errno));
	close(listener);
	CHECK(strcmp(insetd_get_socket_path(ctx), path) == 0, "socket path %s", insetd_get_socket_path(ctx));
	CHECK(read_line_starting(*server, "{\"type\":\"hello\""), "no hello");
	SEND(*server, fake_welcome);
	*connected = wait_for(ctx, INSETD_EVENT_CONNECTED, NULL, 0, 3000);
	return ctx;
}

void test_first_connect_and_state(void)
{
	current_test = "state";
	char path[300];
	snprintf(path, sizeof path, "%s/state.sock", dir);
	int server;
	struct insetd_event *e;
	struct insetd *ctx = welcomed(path, &server, &e);
	printf("ok first connect at the first dispatch, not in insetd_new\n");
	struct insetd_state s;
	CHECK(insetd_event_get_state(e, &s), "CONNECTED without a state");
	CHECK(s.protocol_version == 1, "protocol_version %d", s.protocol_version);
	CHECK(s.client_id && strcmp(s.client_id, "c42") == 0, "client_id %s", s.client_id);
	CHECK(s.frame_source && strcmp(s.frame_source, "reported by squeekboard") == 0, "frame_source %s", s.frame_source);
	CHECK(s.osk_problem && strcmp(s.osk_problem, "squeekboard did not show after 4 attempts") == 0, "osk_problem %s",
	      s.osk_problem);
	/* A wrong-type accessor: zero, and a client bug logged as an error. */
	heard.count[3] = 0;
	struct insetd_rect end = insetd_event_keyboard_get_end(e);
	CHECK(end.x == 0 && end.y == 0 && end.width == 0 && end.height == 0, "keyboard end of a CONNECTED event");
	CHECK(insetd_event_get_view(e) == NULL, "view of a CONNECTED event");
	CHECK(heard.count[3] == 2 && heard.last == INSETD_LOG_ERROR, "%d error lines", heard.count[3]);
	CHECK(strcmp(heard.message, "client bug: insetd_event_get_view: invalid event type CONNECTED") == 0, "said: %s",
	      heard.message);
	insetd_event_destroy(e);
	/* The context's copy outlives the event's. */
	CHECK(insetd_get_state(ctx, &s) && s.protocol_version == 1 && strcmp(s.client_id, "c42") == 0 &&
		      strcmp(s.osk_problem, "squeekboard did not show after 4 attempts") == 0 &&
		      strcmp(s.frame_source, "reported by squeekboard") == 0,
	      "insetd_get_state");
	printf("ok state: protocol 1, client c42, OSK problem and frame source; wrong type -> client bug, zero\n");
	close(server);
	dispatch_for(ctx, 200);
	insetd_unref(ctx);
}

void test_log_priorities(void)
{
	current_test = "log";
	CHECK(INSETD_LOG_DEBUG < INSETD_LOG_INFO && INSETD_LOG_INFO < INSETD_LOG_ERROR, "libinput's order");
	char path[300];
	snprintf(path, sizeof path, "%s/log.sock", dir);
	memset(&heard, 0, sizeof heard);
	int server;
	struct insetd_event *e;
	struct insetd *ctx = welcomed(path, &server, &e);
	/* At DEBUG the connection itself is told, as DEBUG. */
	CHECK(heard.count[1] >= 1, "no debug line at priority DEBUG");
	CHECK(insetd_log_get_priority(ctx) == INSETD_LOG_DEBUG, "priority");
	insetd_log_set_priority(ctx, (enum insetd_log_priority)5);
	CHECK(insetd_log_get_priority(ctx) == INSETD_LOG_DEBUG, "an unknown priority was taken");
	/* At ERROR, the disconnection (INFO) is not told; a client bug is. */
	insetd_log_set_priority(ctx, INSETD_LOG_ERROR);
	memset(&heard, 0, sizeof heard);
	close(server);
	unlink(path);
	dispatch_for(ctx, 200);
	CHECK(heard.count[1] + heard.count[2] == 0, "%d lines below ERROR", heard.count[1] + heard.count[2]);
	insetd_event_get_code(e);
	CHECK(heard.count[3] == 1 && heard.last == INSETD_LOG_ERROR, "the client bug at ERROR");
	/* A handler set through LIBINSETD_1 (a program built against 0.1.0)
	 * hears 0.1.0's numbers (ERROR 10) and every priority. */
	void (*set_handler_1_0)(struct insetd *, insetd_log_handler, void *) =
		dlvsym(RTLD_DEFAULT, "insetd_set_log_handler", "LIBINSETD_1");
	CHECK(set_handler_1_0 != NULL, "no insetd_set_log_handler@LIBINSETD_1");
	set_handler_1_0(ctx, hearing_log, NULL);
	memset(&heard, 0, sizeof heard);
	insetd_event_get_code(e);
	CHECK(heard.count[1] == 1 && heard.last == 10, "LIBINSETD_1's handler heard %d for an error", heard.last);
	CHECK(insetd_log_get_priority(ctx) == INSETD_LOG_DEBUG, "LIBINSETD_1's handler hears every priority");
	insetd_event_destroy(e);
	insetd_unref(ctx);
	printf("ok log priorities: DEBUG 10 < INFO 20 < ERROR 30, filtered by the setter; LIBINSETD_1 keeps 0.1.0's\n");
}
