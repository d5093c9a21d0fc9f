/*
 * libinsetd against the real insetd: the handshake and its state, focus and
 * the keyboard, the window coordinate rule, a restart and a rotation.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

void test_hello(void)
{
	current_test = "hello";
	struct insetd *ctx = insetd_new(sock_path, "c-test");
	CHECK(ctx != NULL, "insetd_new");
	CHECK(!insetd_is_connected(ctx), "connected before any dispatch");
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_CONNECTED, NULL, 0, 5000);
	struct insetd_state s;
	CHECK(insetd_event_get_state(e, &s), "CONNECTED without a state");
	CHECK_NUM(s.screen.width, 540, "screen width");
	CHECK_NUM(s.screen.height, 960, "screen height");
	CHECK(s.portrait, "not portrait");
	CHECK(!s.keyboard_visible, "keyboard visible at start");
	CHECK(strcmp(s.mode, "always") == 0, "mode %s", s.mode);
	/* The welcome's version and id; no bridge: the configured frame, no OSK problem. */
	CHECK(s.protocol_version == 1, "protocol_version %d", s.protocol_version);
	CHECK(s.client_id && s.client_id[0] == 'c' && strlen(s.client_id) > 1, "client_id %s", s.client_id);
	CHECK(s.frame_source && strcmp(s.frame_source, "configured") == 0, "frame_source %s", s.frame_source);
	CHECK(s.osk_problem == NULL, "osk_problem %s", s.osk_problem);
	CHECK(insetd_event_get_context(e) == ctx, "event context");
	insetd_event_destroy(e);
	CHECK(insetd_is_connected(ctx), "not connected after welcome");
	/* A reference taken and dropped leaves the context alive. */
	CHECK(insetd_ref(ctx) == ctx, "ref");
	CHECK(insetd_unref(ctx) == ctx, "unref while a reference remains returns the context");
	CHECK(insetd_get_state(ctx, &s) && s.screen.height == 960, "insetd_get_state");
	/* Invalid requests are refused before they reach the socket. */
	struct insetd_view_desc d = full_view(540, 960, 2000);
	d.frame.width = NAN;
	CHECK(insetd_register_view(ctx, "bad", &d) == -EINVAL, "NaN frame accepted");
	d = full_view(540, 960, 2000);
	CHECK(insetd_register_view(ctx, "", &d) == -EINVAL, "empty name accepted");
	CHECK(insetd_set_window(ctx, (struct insetd_rect){0, 0, 0, 10}) == -EINVAL, "0-wide window accepted");
	CHECK(insetd_unregister_view(ctx, "never") == -ENOENT, "unknown view unregistered");
	/* insetd refuses what it does not know: an ERROR event with its code. */
	CHECK(insetd_dismiss(ctx, "never") == 0, "dismiss");
	e = wait_for(ctx, INSETD_EVENT_ERROR, NULL, 0, 3000);
	CHECK(strcmp(insetd_event_get_code(e), "unknown-view") == 0, "error code %s", insetd_event_get_code(e));
	insetd_event_destroy(e);
	insetd_unref(ctx);
	printf("ok hello/welcome (protocol 1, a client id, frame configured), refusals\n");
}

/* Register + focus -> keyboard + adjustment; blur -> restored. Returns the
 * context, with "form" registered, for the restart test. */
/* A full-screen 540x960 view (content 2000) registered, and a field at
 * content y 800..844 focused. The keyboard covers 624..960 of the view:
 * inset 336; the field's bottom must be at most 960 - 336 = 624 from the
 * view's top: offset 844 - 624 = 220. */
static void focus_low_field(struct insetd *ctx, const char *view)
{
	struct insetd_view_desc d = full_view(540, 960, 2000);
	CHECK(insetd_register_view(ctx, view, &d) == 0, "register");
	/* Registration: the view's own state, unanimated. */
	expect_adjustment(ctx, view, 0, 0, 0);
	CHECK(insetd_focus(ctx, view, (struct insetd_rect){16, 800, 300, 44}) == 0, "focus");
	expect_keyboard(ctx, INSETD_PHASE_WILL_SHOW, 624, 336, true);
	expect_adjustment(ctx, view, 336, 220, 0.25);
	expect_keyboard(ctx, INSETD_PHASE_DID_SHOW, 624, 336, true);
}

struct insetd *test_focus(void)
{
	current_test = "focus";
	struct insetd *ctx = connect_ctx(sock_path, "c-test-form");
	focus_low_field(ctx, "form");
	struct insetd_state s;
	CHECK(insetd_get_state(ctx, &s) && s.keyboard_visible && s.keyboard.y == 624, "state keyboard");
	/* Blur: the keyboard hides, the inset is restored exactly; the offset
	 * stays (legal: content 2000 - 960 = 1040 at most). */
	CHECK(insetd_blur(ctx, "form") == 0, "blur");
	expect_keyboard(ctx, INSETD_PHASE_WILL_HIDE, 960, 336, true);
	expect_adjustment(ctx, "form", 0, 220, 0.25);
	printf("ok register + focus -> keyboard 336 at 624, inset 336, offset 220; blur -> inset 0\n");
	return ctx;
}

/* The coordinate rule: a window shrunk above the keyboard gets 0; a window
 * at an offset gets what the keyboard covers of it. */
void test_window(void)
{
	current_test = "window";
	struct insetd *ctx = connect_ctx(sock_path, "c-test-window");
	/* Shrunk by the compositor to end where the keyboard starts (960 - 336). */
	CHECK(insetd_set_window(ctx, (struct insetd_rect){0, 0, 540, 624}) == 0, "window");
	struct insetd_view_desc d = full_view(540, 624, 1500);
	CHECK(insetd_register_view(ctx, "w", &d) == 0, "register");
	expect_adjustment(ctx, "w", 0, 0, 0);
	/* Field 560..604 fits above 624: nothing to adjust at all. */
	CHECK(insetd_focus(ctx, "w", (struct insetd_rect){16, 560, 300, 44}) == 0, "focus");
	expect_keyboard(ctx, INSETD_PHASE_WILL_SHOW, 624, 336, true);
	expect_keyboard(ctx, INSETD_PHASE_DID_SHOW, 624, 336, true);
	expect_no_other_inset(ctx, "w", 0, 300);
	printf("ok window 0,0 540x624 (shrunk above the keyboard): inset 0\n");
	/* The window moves below a 56 pt bar and is 732 tall: screen 56..788,
	 * the keyboard 624..960 covers 788 - 624 = 164 of it. The view is
	 * still 624 tall in the window (frame unchanged): 56..680 on screen,
	 * covered 680 - 624 = 56. Field bottom 604 must fit in 624 - 56 = 568:
	 * offset 36. */
	CHECK(insetd_set_window(ctx, (struct insetd_rect){0, 56, 540, 732}) == 0, "window");
	expect_adjustment(ctx, "w", 56, 36, 0);
	/* The view grows to the window's height: covered 164, visible 568 */
	d = full_view(540, 732, 1500);
	d.content_offset.y = 36;
	CHECK(insetd_update_view(ctx, "w", &d) == 0, "update");
	expect_adjustment(ctx, "w", 164, 36, 0);
	printf("ok window 0,56 540x732: inset 56 (view 624 tall), then 164 (view 732 tall), offset 36\n");
	CHECK(insetd_blur(ctx, "w") == 0, "blur");
	expect_keyboard(ctx, INSETD_PHASE_WILL_HIDE, 960, 336, true);
	insetd_unref(ctx);
}

/* A line client on insetd's socket as an OSK bridge (the tests run as root,
 * whom insetd authorizes): hello, then @p line; waits for its ok. */
static int bridge_says(const char *line)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock_path);
	CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0, "bridge connect");
	const char *hello = "{\"type\":\"hello\",\"version\":1,\"client\":\"insetd-osk/gnome\"}\n";
	write_all(fd, hello, strlen(hello));
	write_all(fd, line, strlen(line));
	char buf[8192] = "";
	size_t len = 0;
	long long deadline = now_ms() + 3000;
	while (!strstr(buf, "\"ok\"") && now_ms() < deadline && len < sizeof buf - 1) {
		ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = 0;
	}
	CHECK(len > 0 && strstr(buf, "\"ok\""), "the bridge's report was not taken: %.200s", len ? buf : "");
	return fd;
}

/* A window that cannot know its place (Wayland): maximized under a 32 pt top
 * bar, 540x928 at y 32, taken to be at 0,0. A bridge says where the
 * compositor draws the focused window; insetd places the client there when it
 * focuses and says so (PLACED 0,32). On the screen the view is 32..960, the
 * keyboard 624..960 covers 336 of it (taken at 0,0: 624..928, 304). Field
 * 560..604 must end within 928 - 336 = 592: offset 12. */
void test_unplaced_window(void)
{
	current_test = "unplaced window";
	struct insetd *ctx = connect_ctx(sock_path, "c-test-unplaced");
	CHECK(insetd_set_unplaced_window(ctx, (struct insetd_rect){0, 0, 540, 928}, (struct insetd_size){0, 928}) == -EINVAL,
	      "0-wide toplevel accepted");
	CHECK(insetd_set_unplaced_window(ctx, (struct insetd_rect){0, 0, 540, 928}, (struct insetd_size){540, 928}) == 0,
	      "unplaced window");
	struct insetd_view_desc d = full_view(540, 928, 1500);
	CHECK(insetd_register_view(ctx, "u", &d) == 0, "register");
	expect_adjustment(ctx, "u", 0, 0, 0);
	int bridge = bridge_says("{\"type\":\"focusedWindow\",\"bridge\":\"gnome\",\"id\":1,"
				 "\"frame\":{\"x\":0,\"y\":32,\"width\":540,\"height\":928}}\n");
	CHECK(insetd_focus(ctx, "u", (struct insetd_rect){16, 560, 300, 44}) == 0, "focus");
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_PLACED, NULL, 0, 3000);
	struct insetd_point at = insetd_event_placed_get_origin(e);
	CHECK_NUM(at.x, 0, "placed x");
	CHECK_NUM(at.y, 32, "placed y");
	insetd_event_destroy(e);
	expect_keyboard(ctx, INSETD_PHASE_WILL_SHOW, 624, 336, true);
	expect_adjustment(ctx, "u", 336, 12, 0.25);
	/* The bridge goes: the window is back where the client took it. */
	close(bridge);
	e = wait_for(ctx, INSETD_EVENT_PLACED, NULL, 0, 3000);
	at = insetd_event_placed_get_origin(e);
	CHECK_NUM(at.y, 0, "placed y after the bridge left");
	insetd_event_destroy(e);
	CHECK(insetd_blur(ctx, "u") == 0, "blur");
	insetd_unref(ctx);
	printf("ok unplaced window 540x928 placed at 0,32 by the bridge's word: inset 336, offset 12; back at 0,0 when it left\n");
}

/* insetd_roundtrip(): once it returns 0, what the requests before it caused
 * at once is queued, with no dispatch. A full-screen view with its field at
 * 800..844 shown (inset 336, offset 220); the compositor shrinks the window to
 * end at the keyboard's top (0,0 540x624) and the view with it: the keyboard
 * covers none of it, so inset 0, and the field's bottom 844 is within 624 of
 * the offset 220: offset 220, unanimated. */
void test_roundtrip(void)
{
	current_test = "roundtrip";
	CHECK(insetd_roundtrip(NULL, 10) == -EINVAL, "NULL context");
	struct insetd *away = insetd_new("/nonexistent/insetd.sock", "c-test-away");
	CHECK(insetd_roundtrip(away, 10) == -ENOTCONN, "not connected");
	insetd_unref(away);
	struct insetd *ctx = connect_ctx(sock_path, "c-test-roundtrip");
	CHECK(insetd_roundtrip(ctx, -1) == -EINVAL, "negative timeout");
	focus_low_field(ctx, "rt");
	CHECK(insetd_set_window(ctx, (struct insetd_rect){0, 0, 540, 624}) == 0, "shrunk window");
	struct insetd_view_desc d = full_view(540, 624, 2000);
	d.content_offset.y = 220;
	CHECK(insetd_update_view(ctx, "rt", &d) == 0, "update");
	CHECK(insetd_roundtrip(ctx, 3000) == 0, "roundtrip");
	int adjustments = 0;
	for (struct insetd_event *e; (e = insetd_get_event(ctx)); insetd_event_destroy(e)) {
		if (insetd_event_get_type(e) != INSETD_EVENT_ADJUSTMENT || strcmp(insetd_event_get_view(e), "rt") != 0)
			continue;
		adjustments++;
		CHECK_NUM(insetd_event_adjustment_get_additional_bottom_inset(e), 0, "inset after the shrink");
		CHECK_NUM(insetd_event_adjustment_get_content_offset(e).y, 220, "offset after the shrink");
		CHECK_NUM(insetd_event_get_duration(e), 0, "duration after the shrink");
	}
	CHECK(adjustments == 1, "%d adjustments queued by the roundtrip, want 1", adjustments);
	/* Nothing sent since: answered at once, nothing more queued. */
	CHECK(insetd_roundtrip(ctx, 3000) == 0, "second roundtrip");
	CHECK(insetd_get_event(ctx) == NULL, "an event after a roundtrip with nothing before it");
	CHECK(insetd_blur(ctx, "rt") == 0, "blur");
	insetd_unref(ctx);
	printf("ok roundtrip: the shrink's adjustment (inset 0, offset 220) queued when it returns\n");
}

void test_restart(struct insetd *ctx, pid_t *daemon)
{
	current_test = "restart";
	/* What the window test's client caused reached this client too (not local). */
	for (struct insetd_event *e; (e = next_event(ctx, 300));)
		insetd_event_destroy(e);
	/* Focus again so the keyboard is up when insetd goes away. */
	CHECK(insetd_focus(ctx, "form", (struct insetd_rect){16, 800, 300, 44}) == 0, "focus");
	expect_keyboard(ctx, INSETD_PHASE_DID_SHOW, 624, 336, true);
	stop_child(*daemon);
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_DISCONNECTED, NULL, 0, 3000);
	insetd_event_destroy(e);
	CHECK(!insetd_is_connected(ctx), "connected after the daemon stopped");
	/* While insetd is away, kept requests are stored, one-shots refused. */
	CHECK(insetd_transition(ctx, 0.4, NULL) == -ENOTCONN, "transition while away");
	unlink(sock_path);
	usleep(300000); /* a few failed attempts: the back-off grows */
	*daemon = start_insetd();
	long long started = now_ms();
	e = wait_for(ctx, INSETD_EVENT_CONNECTED, NULL, 0, 5000);
	printf("  reconnected %lld ms after insetd started\n", now_ms() - started);
	insetd_event_destroy(e);
	/* Re-registered (its registration adjustment), focus restated: the
	 * keyboard shows again, and the same numbers as before. */
	expect_adjustment(ctx, "form", 0, 0, 0);
	expect_keyboard(ctx, INSETD_PHASE_WILL_SHOW, 624, 336, true);
	expect_adjustment(ctx, "form", 336, 220, 0.25);
	printf("ok insetd restarted -> reconnect, view and focus restated, inset 336, offset 220\n");
	/* A rotation to 960x540: the landscape keyboard, 209 pt, at 540 - 209 = 331. */
	current_test = "transition";
	CHECK(insetd_transition(ctx, 0.3, &(struct insetd_size){960, 540}) == 0, "transition");
	e = wait_for(ctx, INSETD_EVENT_KEYBOARD, NULL, INSETD_PHASE_WILL_CHANGE_FRAME, 3000);
	struct insetd_rect end = insetd_event_keyboard_get_end(e);
	CHECK_NUM(end.y, 331, "landscape keyboard y");
	CHECK_NUM(end.width, 960, "landscape keyboard width");
	CHECK_NUM(end.height, 209, "landscape keyboard height");
	insetd_event_destroy(e);
	struct insetd_state s;
	CHECK(insetd_get_state(ctx, &s) && s.keyboard.height == 209, "state after the rotation");
	printf("ok transition 960x540 -> willChangeFrame 960x209 at y 331\n");
	insetd_unref(ctx);
}
