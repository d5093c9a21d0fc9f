/*
 * libinsetd's tests against the real insetd (and one fake, hostile server).
 *
 *   test-libinsetd PATH-TO-INSETD
 *
 * Every process it starts (insetd, twice; the fake server) is ended on every
 * path: by pid at the end, from an atexit handler on a failure, from the
 * signal handlers (and the 60 s alarm), and by PR_SET_PDEATHSIG should this
 * process be killed outright.
 *
 * insetd runs with a configuration of its own: a 540x960 portrait screen and
 * keyboard mode "always" (a focused field shows the full keyboard whatever
 * hardware the machine has), so the numbers below are derived by hand from
 * docs/ENGINE.md: the portrait keyboard is 336 pt tall, docked at the bottom,
 * its frame 0,624 540x336.
 */
#include "insetd.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *insetd_binary;
static char dir[] = "/tmp/libinsetd-test.XXXXXX";
static char sock_path[108], fake_path[108], config_path[256], log_path[256];
static pid_t children[8];
static int nchildren;
static int passed;
static const char *current_test = "";

static void end_children(void)
{
	for (int i = 0; i < nchildren; i++) {
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	}
}

static void cleanup(void)
{
	end_children();
	unlink(sock_path);
	unlink(fake_path);
	unlink(config_path);
	unlink(log_path);
	rmdir(dir);
}

static void on_signal(int sig)
{
	static const char msg[] = "test-libinsetd: interrupted (timeout or signal); children ended\n";
	for (int i = 0; i < nchildren; i++)
		if (children[i] > 0)
			kill(children[i], SIGKILL);
	if (write(2, msg, sizeof msg - 1) < 0) {
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fprintf(stderr, "FAIL [%s]: ", current_test);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
	FILE *log = fopen(log_path, "r");
	if (log) {
		char line[512];
		fprintf(stderr, "--- insetd's log:\n");
		while (fgets(line, sizeof line, log))
			fputs(line, stderr);
		fclose(log);
	}
	exit(1); /* atexit: cleanup() */
}

#define CHECK(cond, ...)                                                                                       \
	do {                                                                                                   \
		if (!(cond))                                                                                   \
			fail(__VA_ARGS__);                                                                     \
		passed++;                                                                                      \
	} while (0)
#define CHECK_NUM(actual, expected, what)                                                                      \
	CHECK(fabs((actual) - (expected)) < 1e-9, "%s: %g, expected %g", what, (double)(actual), (double)(expected))

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static pid_t start_insetd(void)
{
	pid_t pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (log >= 0)
			dup2(log, 2);
		execl(insetd_binary, insetd_binary, "--socket", sock_path, "--uevent-source", "udev", "--config",
		      config_path, (char *)NULL);
		_exit(127);
	}
	children[nchildren++] = pid;
	return pid;
}

static void stop_child(pid_t pid)
{
	kill(pid, SIGTERM);
	for (int i = 0; i < 300; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			goto reaped;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
reaped:
	for (int i = 0; i < nchildren; i++)
		if (children[i] == pid)
			children[i] = 0;
}

/* The next event within @p timeout_ms, or NULL. */
static struct insetd_event *next_event(struct insetd *ctx, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	for (;;) {
		struct insetd_event *event = insetd_get_event(ctx);
		if (event)
			return event;
		long long left = deadline - now_ms();
		if (left <= 0)
			return NULL;
		struct pollfd pfd = {.fd = insetd_get_fd(ctx), .events = POLLIN};
		poll(&pfd, 1, (int)left);
		long long before = now_ms();
		CHECK(insetd_dispatch(ctx) == 0, "insetd_dispatch failed");
		CHECK(now_ms() - before < 100, "insetd_dispatch blocked for %lld ms", now_ms() - before);
	}
}

static const char *type_name(enum insetd_event_type t)
{
	static const char *const names[] = {"none",   "CONNECTED", "DISCONNECTED", "KEYBOARD", "ADJUSTMENT",
					    "FOCUS_LOST", "POLICY", "ERROR", "BYE", "ROTATE"};
	return t <= INSETD_EVENT_ROTATE ? names[t] : "?";
}

/* The next event of @p type (for @p view, and in @p phase, when given); others are skipped. */
static struct insetd_event *wait_for(struct insetd *ctx, enum insetd_event_type type, const char *view, int phase,
				     int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	for (;;) {
		long long left = deadline - now_ms();
		struct insetd_event *event = next_event(ctx, left > 0 ? (int)left : 0);
		if (!event)
			fail("no %s event%s%s within %d ms", type_name(type), view ? " for " : "", view ? view : "",
			     timeout_ms);
		enum insetd_event_type t = insetd_event_get_type(event);
		if (t == INSETD_EVENT_ERROR)
			fprintf(stderr, "  (insetd error: %s: %s)\n", insetd_event_get_code(event),
				insetd_event_get_message(event));
		if (t == type && (!view || strcmp(insetd_event_get_view(event), view) == 0) &&
		    (!phase || (int)insetd_event_keyboard_get_phase(event) == phase))
			return event;
		insetd_event_destroy(event);
	}
}

static void wait_for_socket(const char *path)
{
	struct stat st;
	for (int i = 0; i < 3000 && stat(path, &st) != 0; i++)
		usleep(10000);
	if (stat(path, &st) != 0)
		fail("insetd did not create %s", path);
}

static struct insetd_view_desc full_view(double width, double height, double content_height)
{
	struct insetd_view_desc d;
	insetd_view_desc_init(&d);
	d.frame = (struct insetd_rect){0, 0, width, height};
	d.content_size = (struct insetd_size){width, content_height};
	return d;
}

static void expect_adjustment(struct insetd *ctx, const char *view, double inset, double offset_y, double duration)
{
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_ADJUSTMENT, view, 0, 3000);
	char what[128];
	snprintf(what, sizeof what, "%s additionalBottomInset", view);
	CHECK_NUM(insetd_event_adjustment_get_additional_bottom_inset(e), inset, what);
	snprintf(what, sizeof what, "%s contentOffset.y", view);
	CHECK_NUM(insetd_event_adjustment_get_content_offset(e).y, offset_y, what);
	snprintf(what, sizeof what, "%s animation duration", view);
	CHECK_NUM(insetd_event_get_duration(e), duration, what);
	printf("  adjustment %s: bottom inset %g, offset %g, %g s %s\n", view,
	       insetd_event_adjustment_get_additional_bottom_inset(e), insetd_event_adjustment_get_content_offset(e).y,
	       insetd_event_get_duration(e), insetd_curve_name(insetd_event_get_curve(e)));
	insetd_event_destroy(e);
}

static void expect_keyboard(struct insetd *ctx, enum insetd_keyboard_phase phase, double end_y, double height,
			    bool local)
{
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_KEYBOARD, NULL, phase, 3000);
	struct insetd_rect end = insetd_event_keyboard_get_end(e);
	CHECK_NUM(end.y, end_y, "keyboard end.y");
	CHECK_NUM(end.height, height, "keyboard end.height");
	CHECK_NUM(end.width, 540, "keyboard end.width");
	CHECK_NUM(insetd_event_get_duration(e), 0.25, "keyboard duration");
	CHECK(insetd_event_get_curve(e) == INSETD_CURVE_EASE_IN_OUT, "curve %s",
	      insetd_curve_name(insetd_event_get_curve(e)));
	CHECK(insetd_event_keyboard_is_local(e) == local, "isLocal %d", insetd_event_keyboard_is_local(e));
	printf("  keyboard %s: %gx%g at y %g, %g s %s, local %d\n", insetd_keyboard_phase_name(phase), end.width,
	       end.height, end.y, insetd_event_get_duration(e), insetd_curve_name(insetd_event_get_curve(e)), local);
	insetd_event_destroy(e);
}

/* No adjustment for @p view in @p ms that differs from @p inset. */
static void expect_no_other_inset(struct insetd *ctx, const char *view, double inset, int ms)
{
	long long deadline = now_ms() + ms;
	long long left;
	while ((left = deadline - now_ms()) > 0) {
		struct insetd_event *e = next_event(ctx, (int)left);
		if (!e)
			break;
		if (insetd_event_get_type(e) == INSETD_EVENT_ADJUSTMENT && strcmp(insetd_event_get_view(e), view) == 0)
			CHECK_NUM(insetd_event_adjustment_get_additional_bottom_inset(e), inset, "unexpected inset");
		insetd_event_destroy(e);
	}
}

static int log_lines;
static int malformed_lines;
static void counting_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)data;
	if (priority <= INSETD_LOG_INFO) {
		log_lines++;
		if (strstr(message, "malformed"))
			malformed_lines++;
		printf("  (log: %s)\n", message);
	}
}

static struct insetd *connect_ctx(const char *path, const char *name)
{
	struct insetd *ctx = insetd_new(path, name);
	CHECK(ctx != NULL, "insetd_new: %s", strerror(errno));
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_CONNECTED, NULL, 0, 5000);
	insetd_event_destroy(e);
	return ctx;
}

static void test_hello(void)
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
	CHECK(insetd_event_get_context(e) == ctx, "event context");
	insetd_event_destroy(e);
	CHECK(insetd_is_connected(ctx), "not connected after welcome");
	/* A reference taken and dropped leaves the context alive. */
	CHECK(insetd_ref(ctx) == ctx, "ref");
	CHECK(insetd_unref(ctx) == NULL, "unref");
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
	printf("ok hello/welcome, refusals\n");
}

/* Register + focus -> keyboard + adjustment; blur -> restored. Returns the
 * context, with "form" registered, for the restart test. */
static struct insetd *test_focus(void)
{
	current_test = "focus";
	struct insetd *ctx = connect_ctx(sock_path, "c-test-form");
	struct insetd_view_desc d = full_view(540, 960, 2000);
	CHECK(insetd_register_view(ctx, "form", &d) == 0, "register");
	/* Registration: the view's own state, unanimated. */
	expect_adjustment(ctx, "form", 0, 0, 0);
	/* A field at content y 800..844. The keyboard covers 624..960 of the
	 * full-screen view: inset 336; the field's bottom must be at most
	 * 960 - 336 = 624 from the view's top: offset 844 - 624 = 220. */
	CHECK(insetd_focus(ctx, "form", (struct insetd_rect){16, 800, 300, 44}) == 0, "focus");
	expect_keyboard(ctx, INSETD_PHASE_WILL_SHOW, 624, 336, true);
	expect_adjustment(ctx, "form", 336, 220, 0.25);
	expect_keyboard(ctx, INSETD_PHASE_DID_SHOW, 624, 336, true);
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
static void test_window(void)
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

static void test_restart(struct insetd *ctx, pid_t *daemon)
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

static void test_missing(void)
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

/* ---------------------------------------------------------------- */
/* A fake insetd that sends garbage.                                 */

static void write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);
		if (n <= 0)
			_exit(3);
		s += n;
		len -= (size_t)n;
	}
}
#define SEND(fd, s) write_all(fd, s, strlen(s))

static bool read_line_starting(int fd, const char *prefix)
{
	char line[4096];
	size_t len = 0;
	while (len < sizeof line - 1) {
		if (read(fd, line + len, 1) != 1)
			return false;
		if (line[len] == '\n')
			break;
		len++;
	}
	line[len] = '\0';
	return strncmp(line, prefix, strlen(prefix)) == 0;
}

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

static void test_hostile(void)
{
	current_test = "hostile";
	int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", fake_path);
	CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(listener, 4) == 0,
	      "fake server socket: %s", strerror(errno));
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(20);
		fake_server(listener);
	}
	children[nchildren++] = pid;
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
	for (int i = 0; i < nchildren; i++)
		if (children[i] == pid)
			children[i] = 0;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fake server status %d", status);
	CHECK(malformed_lines == 1, "%d malformed-line log lines (one per context)", malformed_lines);
	insetd_unref(ctx);
	unlink(fake_path);
	printf("ok hostile server: 14 bad lines ignored (1 log line), 100 KiB line -> reconnect, view restated\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-libinsetd PATH-TO-INSETD\n");
		return 2;
	}
	insetd_binary = argv[1];
	if (access(insetd_binary, X_OK) != 0) {
		fprintf(stderr, "test-libinsetd: %s is not executable\n", insetd_binary);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sock_path, sizeof sock_path, "%s/insetd.sock", dir);
	snprintf(fake_path, sizeof fake_path, "%s/fake.sock", dir);
	snprintf(config_path, sizeof config_path, "%s/insetd.yaml", dir);
	snprintf(log_path, sizeof log_path, "%s/insetd.log", dir);
	atexit(cleanup);
	signal(SIGALRM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	alarm(60);
	FILE *config = fopen(config_path, "w");
	if (!config) {
		perror(config_path);
		return 1;
	}
	fputs("screen:\n  width: 540\n  height: 960\nkeyboard:\n  mode: always\n", config);
	fclose(config);

	test_missing();
	test_hostile();
	pid_t daemon = start_insetd();
	wait_for_socket(sock_path);
	test_hello();
	struct insetd *form = test_focus();
	test_window();
	test_restart(form, &daemon);
	stop_child(daemon);
	printf("test-libinsetd: %d checks passed\n", passed);
	return 0;
}
