/*
 * libinsetd's tests, against the real insetd and fake servers:
 *
 *   test-libinsetd PATH-TO-INSETD
 *
 * test-api.c        the API's contracts (NULL contexts, references, log
 *                   priorities, the first connect, the state, wrong types)
 * test-socket-path.c the socket path rule, row by row from docs/PROTOCOL.md
 * test-hostile.c    no insetd at all; a server that sends garbage
 * test-daemon.c     the real insetd: handshake, focus, window, restart
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "harness.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-libinsetd PATH-TO-INSETD\n");
		return 2;
	}
	if (!harness_init(argv[1]))
		return 1;
	test_null_contexts();
	test_references();
	test_log_priorities();
	test_first_connect_and_state();
	test_socket_path_rule();
	test_missing();
	test_hostile();
	pid_t daemon = start_insetd();
	wait_for_socket(sock_path);
	test_hello();
	struct insetd *form = test_focus();
	test_window();
	test_unplaced_window();
	test_roundtrip();
	test_restart(form, &daemon);
	stop_child(daemon);
	printf("test-libinsetd: %d checks passed\n", passed);
	return 0;
}
