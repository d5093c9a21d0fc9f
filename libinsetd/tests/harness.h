/*
 * The harness of libinsetd's tests: the child processes they start (insetd,
 * fake servers) and how those are always ended, checks that stop at the
 * first failure, and waiting for events with a deadline.
 *
 * Every process a test starts is ended on every path: by pid at the end,
 * from an atexit handler on a failure, from the signal handlers (and the
 * 60 s alarm), and by PR_SET_PDEATHSIG should the test be killed outright.
 *
 * insetd runs with a configuration of its own: a 540x960 portrait screen and
 * keyboard mode "always" (a focused field shows the full keyboard whatever
 * hardware the machine has), so the numbers in the tests are derived by hand
 * from docs/ENGINE.md: the portrait keyboard is 336 pt tall, docked at the
 * bottom, its frame 0,624 540x336.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include "insetd.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

extern const char *insetd_binary;
extern char dir[];
extern char sock_path[108], fake_path[108], config_path[256], log_path[256];
extern int passed;
extern const char *current_test;

__attribute__((noreturn, format(printf, 1, 2))) void fail(const char *format, ...);

#define CHECK(cond, ...)                                                                                       \
	do {                                                                                                   \
		if (!(cond))                                                                                   \
			fail(__VA_ARGS__);                                                                     \
		passed++;                                                                                      \
	} while (0)
#define CHECK_NUM(actual, expected, what)                                                                      \
	CHECK(fabs((actual) - (expected)) < 1e-9, "%s: %g, expected %g", what, (double)(actual), (double)(expected))

/* Sets up the temporary directory, the insetd configuration and the handlers
 * that end the children; returns false if that failed. */
bool harness_init(const char *binary);
long long now_ms(void);
/* Remembers @p pid so that it is ended whatever happens. */
void add_child(pid_t pid);
/* Forgets @p pid (reaped by the caller). */
void forget_child(pid_t pid);
pid_t start_insetd(void);
void stop_child(pid_t pid);
void wait_for_socket(const char *path);

/* The next event within @p timeout_ms, or NULL (dispatching, never blocking). */
struct insetd_event *next_event(struct insetd *ctx, int timeout_ms);
const char *type_name(enum insetd_event_type t);
/* The next event of @p type (for @p view, and in @p phase, when given); others are skipped. */
struct insetd_event *wait_for(struct insetd *ctx, enum insetd_event_type type, const char *view, int phase,
			      int timeout_ms);
struct insetd_view_desc full_view(double width, double height, double content_height);
void expect_adjustment(struct insetd *ctx, const char *view, double inset, double offset_y, double duration);
void expect_keyboard(struct insetd *ctx, enum insetd_keyboard_phase phase, double end_y, double height, bool local);
/* No adjustment for @p view in @p ms that differs from @p inset. */
void expect_no_other_inset(struct insetd *ctx, const char *view, double inset, int ms);
struct insetd *connect_ctx(const char *path, const char *name);

/* A log handler counting info and error lines (and those about malformed lines). */
extern int log_lines, malformed_lines;
void counting_log(struct insetd *ctx, enum insetd_log_priority priority, const char *message, void *data);

/* For fake servers: write everything or exit; read a line and compare its start. */
void write_all(int fd, const char *s, size_t len);
#define SEND(fd, s) write_all(fd, s, strlen(s))
bool read_line_starting(int fd, const char *prefix);
/* A listening Unix socket at @p path (non-blocking if asked). */
int listen_at(const char *path, bool nonblocking);

/* The tests, by concern. */
void test_missing(void);                         /* test-hostile.c: no insetd at all */
void test_hostile(void);                         /* test-hostile.c: a server sending garbage */
void test_hello(void);                           /* test-daemon.c: the real insetd */
struct insetd *test_focus(void);
void test_window(void);
void test_unplaced_window(void);
void test_roundtrip(void);
void test_restart(struct insetd *ctx, pid_t *daemon);
void test_null_contexts(void);                   /* test-api.c: the API's contracts */
void test_references(void);
void test_first_connect_and_state(void);
void test_log_priorities(void);
void test_socket_path_rule(void);                /* test-socket-path.c */

#endif
