/*
 * libinsetd against the socket path rule's table in docs/PROTOCOL.md
 * ("Which socket a client connects to"), the same rows the Swift clients and
 * the Python example are tested against: for each row, the environment and
 * RUN/insetd.sock as the row says, one connection attempt, and the path it
 * tried (insetd_get_socket_path).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SOURCE_ROOT
#define SOURCE_ROOT "."
#endif

/* One cell: NULL for "-", "" for "(empty)", else the text with RUN replaced. */
static char *cell(const char *text, const char *run)
{
	if (strcmp(text, "-") == 0)
		return NULL;
	if (strcmp(text, "(empty)") == 0)
		return strdup("");
	char *out = malloc(strlen(text) + strlen(run) + 1);
	if (strncmp(text, "RUN", 3) == 0)
		sprintf(out, "%s%s", run, text + 3);
	else
		strcpy(out, text);
	return out;
}

static void set_or_unset(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

/* RUN/insetd.sock as the row's fourth column says. */
static void prepare(const char *run, const char *kind)
{
	char sock[340], real[340];
	snprintf(sock, sizeof sock, "%s/insetd.sock", run);
	snprintf(real, sizeof real, "%s/real.sock", run);
	if (strcmp(kind, "socket") == 0) {
		close(listen_at(sock, true));
	} else if (strcmp(kind, "link to a socket") == 0) {
		close(listen_at(real, true));
		CHECK(symlink(real, sock) == 0, "symlink: %s", strerror(errno));
	} else if (strcmp(kind, "dangling link") == 0) {
		CHECK(symlink("absent.sock", sock) == 0, "symlink: %s", strerror(errno));
	} else {
		CHECK(strcmp(kind, "none") == 0, "unknown kind '%s' in the table", kind);
	}
}

static void check_row(char **cells, int row)
{
	char run[200];
	snprintf(run, sizeof run, "%s/run%d", dir, row);
	CHECK(mkdir(run, 0700) == 0, "mkdir %s: %s", run, strerror(errno));
	prepare(run, cells[3]);
	char *given = cell(cells[0], run), *env = cell(cells[1], run), *runtime = cell(cells[2], run);
	char *expected = cell(cells[4], run);
	set_or_unset("INSETD_SOCKET", env);
	set_or_unset("XDG_RUNTIME_DIR", runtime);
	struct insetd *ctx = insetd_new(given, "c-test-path");
	insetd_set_log_handler(ctx, NULL, NULL);
	struct pollfd pfd = {.fd = insetd_get_fd(ctx), .events = POLLIN};
	CHECK(poll(&pfd, 1, 1000) == 1 && insetd_dispatch(ctx) == 0, "no attempt");
	const char *tried = insetd_get_socket_path(ctx);
	CHECK(tried && strcmp(tried, expected) == 0, "row %d (%s | %s | %s | %s): tried %s, expected %s", row, cells[0],
	      cells[1], cells[2], cells[3], tried ? tried : "nothing", expected);
	insetd_unref(ctx);
	unsetenv("INSETD_SOCKET");
	unsetenv("XDG_RUNTIME_DIR");
	char path[320];
	const char *names[] = {"insetd.sock", "real.sock"};
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", run, names[i]);
		unlink(path);
	}
	rmdir(run);
	free(given);
	free(env);
	free(runtime);
	free(expected);
}

void test_socket_path_rule(void)
{
	current_test = "socket path";
	const char *doc = SOURCE_ROOT "/docs/PROTOCOL.md";
	FILE *f = fopen(doc, "r");
	CHECK(f != NULL, "%s: %s", doc, strerror(errno));
	char *saved_env = getenv("INSETD_SOCKET") ? strdup(getenv("INSETD_SOCKET")) : NULL;
	char *saved_runtime = getenv("XDG_RUNTIME_DIR") ? strdup(getenv("XDG_RUNTIME_DIR")) : NULL;
	char line[512];
	bool inside = false;
	int rows = 0, lines = 0;
	while (fgets(line, sizeof line, f)) {
		if (strstr(line, "<!-- socket-path-cases -->")) {
			inside = true;
			continue;
		}
		if (strstr(line, "<!-- end socket-path-cases -->"))
			break;
		if (!inside || line[0] != '|' || ++lines <= 2) /* the header and its rule */
			continue;
		char *cells[5];
		int n = 0;
		for (char *save = NULL, *part = strtok_r(line, "|\n", &save); part && n < 5;
		     part = strtok_r(NULL, "|\n", &save)) {
			while (*part == ' ')
				part++;
			char *end = part + strlen(part);
			while (end > part && end[-1] == ' ')
				*--end = '\0';
			cells[n++] = part;
		}
		CHECK(n == 5, "a row with %d cells", n);
		check_row(cells, ++rows);
	}
	fclose(f);
	set_or_unset("INSETD_SOCKET", saved_env);
	set_or_unset("XDG_RUNTIME_DIR", saved_runtime);
	free(saved_env);
	free(saved_runtime);
	CHECK(rows == 10, "%d rows in the table", rows);
	printf("ok socket path rule: %d rows of docs/PROTOCOL.md's table\n", rows);
}
