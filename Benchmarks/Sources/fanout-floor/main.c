// The least a program can do to fan a keyboard change out: the floor insetd's
// CPU per change is compared with (scripts/perf, "P2 floor"). It accepts the
// harness's clients on a Unix socket or, with a WebSocket upgrade, on loopback
// TCP, and for every byte it reads on descriptor 3 (the harness's trigger) it
// writes the next keyboard change's messages to every client: the very lines
// insetd sent one of the harness's clients for a show and then a hide, in one
// write() per client, as insetd, which has them in one loop task (the previous
// change's did-notification, this one's will-notification and adjustment),
// writes them in one writev per client.
//
//   fanout-floor unix PATH MESSAGES | tcp PORT MESSAGES
//
// MESSAGES: one write per line, its messages (without framing) separated by a
// tab (JSON writes a tab inside a string as \t); an empty line between the
// show's writes and the hide's. Prints "ready" on standard output once it listens.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CLIENTS 8192
#define MAX_MESSAGES 16

struct message { unsigned char *bytes; size_t length; };
static struct message changes[2][MAX_MESSAGES];
static int counts[2];
static int clients[MAX_CLIENTS];
static int client_count;
static int websocket;

static void die(const char *what) { perror(what); exit(1); }

// Appends a message as it goes on the wire: a line, or an unmasked text frame.
static void append_framed(struct message *m, const char *text, size_t length) {
    size_t header = !websocket ? 0 : length < 126 ? 2 : 4;
    unsigned char *bytes = realloc(m->bytes, m->length + header + length + 1);
    if (!bytes) die("realloc");
    m->bytes = bytes;
    unsigned char *out = bytes + m->length;
    if (websocket) {
        out[0] = 0x81;
        if (length < 126) {
            out[1] = (unsigned char)length;
        } else {
            out[1] = 126;
            out[2] = (unsigned char)(length >> 8);
            out[3] = (unsigned char)(length & 0xff);
        }
    }
    memcpy(out + header, text, length);
    m->length += header + length;
    if (!websocket) bytes[m->length++] = '\n';
}

// One write: its messages, tab-separated, framed one after the other.
static struct message framed(char *line) {
    struct message m = {NULL, 0};
    for (char *text = strtok(line, "\t"); text; text = strtok(NULL, "\t")) append_framed(&m, text, strlen(text));
    return m;
}

static void load(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) die(path);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    int change = 0;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        if (length > 0 && line[length - 1] == '\n') line[--length] = 0;
        if (length == 0) { change = 1; continue; }
        if (counts[change] == MAX_MESSAGES) { fprintf(stderr, "too many messages\n"); exit(1); }
        changes[change][counts[change]++] = framed(line);
    }
    free(line);
    fclose(file);
    if (counts[0] == 0 || counts[1] == 0) { fprintf(stderr, "%s: two changes expected\n", path); exit(1); }
}

// The harness always sends RFC 6455's sample key; the upgrade is outside the
// measured changes, so the floor answers it without hashing.
static int upgrade(int fd) {
    char request[2048];
    size_t used = 0;
    while (used < sizeof request - 1) {
        ssize_t count = read(fd, request + used, sizeof request - 1 - used);
        if (count <= 0) return -1;
        used += (size_t)count;
        request[used] = 0;
        if (strstr(request, "\r\n\r\n")) break;
    }
    if (!strstr(request, "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")) return -1;
    static const char reply[] = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
    return write(fd, reply, sizeof reply - 1) == (ssize_t)(sizeof reply - 1) ? 0 : -1;
}

static void accept_all(int listener) {
    for (;;) {
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) return;
        if (client_count == MAX_CLIENTS || (websocket && upgrade(fd) != 0)) { close(fd); continue; }
        if (websocket) {
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
        clients[client_count++] = fd;
    }
}

static void fan_out(int change) {
    for (int m = 0; m < counts[change]; m++) {
        const struct message *message = &changes[change][m];
        for (int c = 0; c < client_count; c++) {
            if (write(clients[c], message->bytes, message->length) != (ssize_t)message->length) die("write");
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "unix") && strcmp(argv[1], "tcp"))) {
        fprintf(stderr, "usage: fanout-floor unix PATH MESSAGES | tcp PORT MESSAGES\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    websocket = !strcmp(argv[1], "tcp");
    load(argv[3]);
    int listener;
    if (websocket) {
        listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        int one = 1;
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[2]))};
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (bind(listener, (struct sockaddr *)&address, sizeof address)) die("bind");
    } else {
        listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        if (strlen(argv[2]) >= sizeof address.sun_path) { fprintf(stderr, "path too long\n"); return 2; }
        strcpy(address.sun_path, argv[2]);
        unlink(argv[2]);
        if (bind(listener, (struct sockaddr *)&address, sizeof address)) die("bind");
    }
    if (listen(listener, 4096)) die("listen");
    printf("ready\n");
    fflush(stdout);

    int change = 0;
    struct pollfd watched[2] = {{.fd = listener, .events = POLLIN}, {.fd = 3, .events = POLLIN}};
    for (;;) {
        if (poll(watched, 2, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        if (watched[0].revents) accept_all(listener);
        if (watched[1].revents) {
            char triggers[64];
            ssize_t count = read(3, triggers, sizeof triggers);
            if (count <= 0) break;  // the harness closed its end: done
            for (ssize_t i = 0; i < count; i++) {
                fan_out(change);
                change ^= 1;
            }
        }
    }
    if (!websocket) unlink(argv[2]);
    return 0;
}
