/*
 * libinsetd's test harness (harness.h says what it is for).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
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

const char *insetd_binary;
char dir[] = "/tmp/libinsetd-test.XXXXXX";
char sock_path[108], fake_path[108], config_path[256], log_path[256];
static pid_t children[16];
static int nchildren;
int passed;
const char *current_test = "";

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

void fail(const char *format, ...)
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

long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

pid_t start_insetd(void)
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
	add_child(pid);
	return pid;
}

void stop_child(pid_t pid)
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
	forget_child(pid);
}

/* The next event within @p timeout_ms, or NULL. */
struct insetd_event *next_event(struct insetd *ctx, int timeout_ms)
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

const char *type_name(enum insetd_event_type t)
{
	static const char *const names[] = {"none",   "CONNECTED", "DISCONNECTED", "KEYBOARD", "ADJUSTMENT",
					    "FOCUS_LOST", "POLICY", "ERROR", "BYE", "ROTATE", "PLACED"};
	return t <= INSETD_EVENT_PLACED ? names[t] : "?";
}

/* The next event of @p type (for @p view, and in @p phase, when given); others are skipped. */
struct insetd_event *wait_for(struct insetd *ctx, enum insetd_event_type type, const char *view, int phase,
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

void wait_for_socket(const char *path)
{
	struct stat st;
	for (int i = 0; i < 3000 && stat(path, &st) != 0; i++)
		usleep(10000);
	if (stat(path, &st) != 0)
		fail("insetd did not create %s", path);
}

struct insetd_view_desc full_view(double width, double height, double content_height)
{
	struct insetd_view_desc d;
	insetd_view_desc_init(&d);
	d.frame = (struct insetd_rect){0, 0, width, height};
	d.content_size = (struct insetd_size){width, content_height};
	return d;
}

void expect_adjustment(struct insetd *ctx, const char *view, double inset, double offset_y, double duration)
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

void expect_keyboard(struct insetd *ctx, enum insetd_keyboard_phase phase, double end_y, double height,
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
void expect_no_other_inset(struct insetd *ctx, const char *view, double inset, int ms)
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

int log_lines, malformed_lines;
void counting_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data)
{
	(void)ctx;
	(void)data;
	if (priority >= INSETD_LOG_INFO) {
		log_lines++;
		if (strstr(message, "malformed"))
			malformed_lines++;
		printf("  (log: %s)\n", message);
	}
}

struct insetd *connect_ctx(const char *path, const char *name)
{
	struct insetd *ctx = insetd_new(path, name);
	CHECK(ctx != NULL, "insetd_new: %s", strerror(errno));
	struct insetd_event *e = wait_for(ctx, INSETD_EVENT_CONNECTED, NULL, 0, 5000);
	insetd_event_destroy(e);
	return ctx;
}


void add_child(pid_t pid)
{
	if (nchildren < (int)(sizeof children / sizeof children[0]))
		children[nchildren++] = pid;
}

void forget_child(pid_t pid)
{
	for (int i = 0; i < nchildren; i++)
		if (children[i] == pid)
			children[i] = 0;
}

void write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);
		if (n <= 0)
			_exit(3);
		s += n;
		len -= (size_t)n;
	}
}

bool read_line_starting(int fd, const char *prefix)
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

int listen_at(const char *path, bool nonblocking)
{
	int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
	CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(listener, 4) == 0,
	      "listening at %s: %s", path, strerror(errno));
	return listener;
}

bool harness_init(const char *binary)
{
	insetd_binary = binary;
	if (access(insetd_binary, X_OK) != 0) {
		fprintf(stderr, "test-libinsetd: %s is not executable\n", insetd_binary);
		return false;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return false;
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
		return false;
	}
	fputs("screen:\n  width: 540\n  height: 960\nkeyboard:\n  mode: always\n", config);
	fclose(config);
	return true;
}
