/*
 * evdev-baseline: the least a program can do to carry an input event to a
 * socket client, for insetd's performance harness to measure against.
 *
 *   evdev-baseline SOCKET DEVNODE
 *
 * Listens on the Unix stream socket SOCKET, accepts one client, opens DEVNODE
 * with libevdev (read-only, non-blocking, never grabbed) and writes one line
 * per key or switch event to the client: "TYPE CODE VALUE\n". It exits when
 * the client hangs up or the device goes away. No configuration, no policy, no
 * JSON: whatever insetd costs beyond this is the price of its own work.
 *
 * The harness types only test keys into an emulated device; a real keyboard's
 * keystrokes would be echoed, which is why this program is a benchmark and
 * nothing else.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int fail(const char *what, int error)
{
	fprintf(stderr, "evdev-baseline: %s: %s\n", what, strerror(error));
	return 1;
}

static int listen_on(const char *path)
{
	struct sockaddr_un address = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(address.sun_path))
		return -1;
	strcpy(address.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&address, sizeof(address)) < 0 || listen(fd, 1) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Writes the whole line; a client that stops reading blocks us, as it may. */
static int send_line(int client, const struct input_event *event)
{
	char line[64];
	int length = snprintf(line, sizeof(line), "%u %u %d\n", event->type, event->code, event->value);
	int offset = 0;

	while (offset < length) {
		ssize_t written = write(client, line + offset, (size_t)(length - offset));
		if (written < 0 && errno == EINTR)
			continue;
		if (written <= 0)
			return -1;
		offset += (int)written;
	}
	return 0;
}

/* Reads everything pending; returns -1 when the device is gone. */
static int drain(struct libevdev *device, int client)
{
	struct input_event event;
	unsigned int flags = LIBEVDEV_READ_FLAG_NORMAL;

	for (;;) {
		int rc = libevdev_next_event(device, flags, &event);
		if (rc == -EAGAIN) {
			if (flags == LIBEVDEV_READ_FLAG_SYNC) {
				flags = LIBEVDEV_READ_FLAG_NORMAL;
				continue;
			}
			return 0;
		}
		if (rc == LIBEVDEV_READ_STATUS_SYNC)
			flags = LIBEVDEV_READ_FLAG_SYNC;
		else if (rc != LIBEVDEV_READ_STATUS_SUCCESS)
			return -1;
		if ((event.type == EV_KEY || event.type == EV_SW) && send_line(client, &event) < 0)
			return -1;
	}
}

int main(int argc, char **argv)
{
	struct libevdev *device = NULL;
	int server, client, input, rc;

	if (argc != 3) {
		fprintf(stderr, "usage: evdev-baseline SOCKET DEVNODE\n");
		return 2;
	}
	server = listen_on(argv[1]);
	if (server < 0)
		return fail(argv[1], errno);
	client = accept4(server, NULL, NULL, SOCK_CLOEXEC);
	if (client < 0)
		return fail("accept", errno);
	input = open(argv[2], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (input < 0)
		return fail(argv[2], errno);
	rc = libevdev_new_from_fd(input, &device);
	if (rc < 0)
		return fail(argv[2], -rc);
	/* Tell the client the device is open, so it starts its clock after this. */
	if (write(client, "ready\n", 6) != 6)
		return fail("write", errno);

	for (;;) {
		struct pollfd fds[2] = { { .fd = input, .events = POLLIN }, { .fd = client, .events = POLLIN } };
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return fail("poll", errno);
		}
		if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
			break; /* the client never sends: readable means it hung up */
		if (fds[0].revents & (POLLHUP | POLLERR))
			break;
		if ((fds[0].revents & POLLIN) && drain(device, client) < 0)
			break;
	}
	libevdev_free(device);
	close(input);
	close(client);
	close(server);
	unlink(argv[1]);
	return 0;
}
