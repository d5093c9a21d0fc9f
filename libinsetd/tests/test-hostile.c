/*
 * libinsetd without insetd (nothing blocks, one log line per outage) and
 * against a fake insetd that sends garbage (ignored, bounded, reconnected).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

void test_missing(void)
{
	current_test = "missing";
	char path[300];
	snprintf(path, sizeof path, "%s/nobody.sock", dir);
	log_lines = 0;
	struct insetd *ctx = insetd_new(path, "c-test-missing");
	insetd_set_log_handler(ctx, counting_log, NULL);
	struct insetd_view_desc d = full_view(540, 960, 2000);
	CHECK(insetd_register_view(ctx, "v", &d) == 0, "register while away is kept");
	CHECK(insetd_focus(ctx, "v", (struct insetd_rect){0, 0, 10, 10}) == 0, "focus while away is kept");
	struct insetd_event *e = next_event(ctx, 1000);
	CHECK(e == NULL, "an event from nowhere: %s", type_name(insetd_event_get_type(e)));
	CHECK(log_lines == 1, "%d log lines for one outage", log_lines);
	insetd_unref(ctx);
	printf("ok no insetd: nothing blocks, no events, one log line in 1 s of retries\n");
}

/* A fake insetd that sends garbage. */
static const char welcome[] =
	"{\"type\":\"welcome\",\"version\":1,\"client\":\"c1\",\"state\":{\"screen\":{\"width\":540,\"height\":960},"
	"\"orientation\":\"portrait\",\"mode\":\"auto\",\"tabletMode\":false,\"hardwareKeyboard\":false}}\n";

static void fake_server(int listener)
{
	/* Connection 1: garbage among valid lines, then an endless line. */
	int c = accept(listener, NULL, NULL);
	if (c < 0 || !read_line_starting(c, "{\"type\":\"hello\""))
		_exit(10);
	SEND(c, "not json at all\n");
	SEND(c, "[1,2,3]\n");
	SEND(c, "{\"type\":5}\n");
	SEND(c, "{\"type\":\"welcome\",\"state\":{\"screen\":\"big\"}}\n");
	SEND(c, "{\"type\":\"keyboard\",\"phase\":\"willShow\"}\n"); /* before the welcome: not counted */
	SEND(c, welcome);
	if (!read_line_starting(c, "{\"type\":\"register\",\"view\":\"v\""))
		_exit(11);
	SEND(c, "{\"type\":\"adjustment\",\"view\":\"v\",\"additionalBottomInset\":\"336\"}\n");
	SEND(c, "{\"type\":\"adjustment\",\"view\":42}\n");
	SEND(c, "{\"type\":\"keyboard\",\"phase\":\"willShow\",\"begin\":{\"x\":0,\"y\":1e999,\"width\":1,\"height\":1},"
		"\"end\":{\"x\":0,\"y\":624,\"width\":540,\"height\":336},\"duration\":0.25}\n");
	SEND(c, "{\"type\":\"keyboard\",\"phase\":\"sideways\",\"begin\":{\"x\":0,\"y\":960,\"width\":540,\"height\":336},"
		"\"end\":{\"x\":0,\"y\":624,\"width\":540,\"height\":336},\"duration\":0.25}\n");
	SEND(c, "{\"type\":\"keyboard\",\"phase\":\"willShow\",\"begin\":{\"x\":0,\"y\":960,\"width\":540,\"height\":-3},"
		"\"end\":{\"x\":0,\"y\":624,\"width\":540,\"height\":336},\"duration\":0.25}\n");
	SEND(c, "{\"type\":\"focusLost\",\"view\":\"\"}\n");
	SEND(c, "{\"type\":\"error\",\"code\":[]}\n");
	char deep[4200];
	memset(deep, '[', 2000);
	memset(deep + 2000, ']', 2000);
	deep[4000] = '\n';
	write_all(c, deep, 4001);
	write_all(c, "{\"type\":\"bye\",\0\"reason\":\"x\"}\n", 29); /* a NUL inside */
	SEND(c, "{\"type\":\"keyboard\",\"phase\":\"willShow\",\"begin\":{\"x\":0,\"y\":960,\"width\":540,\"height\":336},"
		"\"end\":{\"x\":0,\"y\":624,\"width\":540,\"height\":336},\"duration\":0.25,\"curve\":\"linear\","
		"\"isLocal\":true,\"extra\":{\"ignored\":[1,2]}}\n");
	/* 100 KiB without a newline: over the 64 KiB limit. */
	char *chunk = malloc(100 * 1024);
	memset(chunk, 'x', 100 * 1024);
	write_all(c, "{\"type\":\"ok\",\"pad\":\"", 20);
	write_all(c, chunk, 100 * 1024);
	free(chunk);
	/* The client must hang up; then it comes back. */
	char byte;
	while (read(c, &byte, 1) > 0) {
	}
	close(c);
	/* Connection 2: a proper session; the client restates its view. */
	c = accept(listener, NULL, NULL);
	if (c < 0 || !read_line_starting(c, "{\"type\":\"hello\""))
		_exit(12);
	SEND(c, welcome);
	if (!read_line_starting(c, "{\"type\":\"register\",\"view\":\"v\""))
		_exit(13);
	SEND(c, "{\"type\":\"bye\",\"reason\":\"shutdown\"}\n");
	close(c);
	_exit(0);
}

void test_hostile(void)
{
	current_test = "hostile";
	int listener = listen_at(fake_path, false);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(20);
		fake_server(listener);
	}
	add_child(pid);
	close(listener);

	log_lines = malformed_lines = 0;
	struct insetd *ctx = insetd_new(fake_path, "c-test-hostile");
	insetd_set_log_handler(ctx, counting_log, NULL);
	struct insetd_view_desc d = full_view(540, 960, 2000);
	CHECK(insetd_register_view(ctx, "v", &d) == 0, "register");
	/* Exactly: connected, the one valid keyboard message, disconnected
	 * (the endless line), connected again, bye, disconnected. */
	enum insetd_event_type expected[] = {INSETD_EVENT_CONNECTED, INSETD_EVENT_KEYBOARD, INSETD_EVENT_DISCONNECTED,
					     INSETD_EVENT_CONNECTED, INSETD_EVENT_BYE, INSETD_EVENT_DISCONNECTED};
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
		struct insetd_event *e = next_event(ctx, 5000);
		CHECK(e != NULL, "event %zu: none, expected %s", i, type_name(expected[i]));
		CHECK(insetd_event_get_type(e) == expected[i], "event %zu: %s, expected %s", i,
		      type_name(insetd_event_get_type(e)), type_name(expected[i]));
		if (expected[i] == INSETD_EVENT_KEYBOARD) {
			CHECK(insetd_event_get_curve(e) == INSETD_CURVE_LINEAR, "curve");
			CHECK_NUM(insetd_event_keyboard_get_end(e).y, 624, "end.y");
			CHECK(insetd_event_keyboard_is_local(e), "isLocal");
		}
		if (expected[i] == INSETD_EVENT_BYE)
			CHECK(strcmp(insetd_event_get_code(e), "shutdown") == 0, "bye reason");
		insetd_event_destroy(e);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	forget_child(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fake server status %d", status);
	CHECK(malformed_lines == 1, "%d malformed-line log lines (one per context)", malformed_lines);
	insetd_unref(ctx);
	unlink(fake_path);
	printf("ok hostile server: 14 bad lines ignored (1 log line), 100 KiB line -> reconnect, view restated\n");
}
