/*
 * libinsetd: reading insetd's messages and decoding them into events.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Lines are bounded by INSETD_MAX_LINE; every message is parsed with json-c
 * and its fields type-checked before anything reaches the caller.
 */
#include "insetd-private.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_TEXT 1024
#define MAX_READS_PER_DISPATCH 64

/* ------------------------------------------------------------------ */
/* Parsing insetd's messages (every field type-checked)                */

static bool get_number(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	double d = json_object_get_double(v);
	if (!isfinite(d))
		return false;
	*out = d;
	return true;
}

static bool get_bool(struct json_object *o, const char *key, bool *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_boolean))
		return false;
	*out = json_object_get_boolean(v);
	return true;
}

static const char *get_string(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static struct json_object *get_object(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

static bool get_rect(struct json_object *o, const char *key, struct insetd_rect *r)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "x", &r->x) && get_number(v, "y", &r->y) && get_number(v, "width", &r->width) &&
	       get_number(v, "height", &r->height) && r->width >= 0 && r->height >= 0;
}

static bool get_size(struct json_object *o, const char *key, struct insetd_size *s)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "width", &s->width) && get_number(v, "height", &s->height) && s->width >= 0 &&
	       s->height >= 0;
}

static bool get_insets(struct json_object *o, const char *key, struct insetd_insets *i)
{
	struct json_object *v = get_object(o, key);
	return v && get_number(v, "top", &i->top) && get_number(v, "left", &i->left) &&
	       get_number(v, "bottom", &i->bottom) && get_number(v, "right", &i->right);
}

static enum insetd_curve parse_curve(const char *s)
{
	for (int i = 0; s && i <= INSETD_CURVE_LINEAR; i++)
		if (strcmp(s, curve_names[i]) == 0)
			return (enum insetd_curve)i;
	return INSETD_CURVE_EASE_IN_OUT;
}

static void parse_policy_fields(struct json_object *o, struct insetd_state *s)
{
	bool b;
	if (get_bool(o, "tabletMode", &b))
		s->tablet_mode = b;
	if (get_bool(o, "hardwareKeyboard", &b))
		s->hardware_keyboard = b;
	const char *mode = get_string(o, "mode");
	if (mode)
		snprintf(s->mode, sizeof s->mode, "%s", mode);
}

/* Replaces *@p slot with a bounded copy of @p text (NULL: none). */
static void replace_text(char **slot, const char *text)
{
	free(*slot);
	*slot = text ? bounded_strdup(text, MAX_TEXT) : NULL;
}

static bool handle_welcome(struct insetd *ctx, struct json_object *o)
{
	struct json_object *state = get_object(o, "state");
	struct insetd_state s = {0};
	if (!state || !get_size(state, "screen", &s.screen))
		return false;
	const char *orientation = get_string(state, "orientation");
	s.portrait = orientation ? strcmp(orientation, "portrait") == 0 : s.screen.height > s.screen.width;
	s.keyboard_visible = get_rect(state, "keyboard", &s.keyboard);
	parse_policy_fields(state, &s);
	double version = 0;
	if (!get_number(o, "version", &version) || version < 0 || version > 1000000)
		version = 0; /* unknown: 0 */
	if (ctx->welcomed)
		return true; /* a second welcome changes nothing */
	s.protocol_version = (int)version;
	replace_text(&ctx->client_id, get_string(o, "client"));
	replace_text(&ctx->osk_problem, get_string(state, "oskProblem"));
	replace_text(&ctx->frame_source, get_string(state, "frameSource"));
	s.client_id = ctx->client_id;
	s.osk_problem = ctx->osk_problem;
	s.frame_source = ctx->frame_source;
	ctx->welcomed = true;
	ctx->outage_logged = false;
	ctx->backoff_ms = BACKOFF_FIRST_MS;
	ctx->state = s;
	ctx->state_valid = true;
	resync(ctx);
	if (ctx->sock < 0)
		return true; /* the restatement failed: already disconnected */
	struct insetd_event *event = event_new(INSETD_EVENT_CONNECTED);
	if (event)
		event_set_state(event, &s);
	queue_event(ctx, event);
	return true;
}

static bool handle_keyboard(struct insetd *ctx, struct json_object *o)
{
	const char *phase = get_string(o, "phase");
	int p = 0;
	for (int i = INSETD_PHASE_WILL_SHOW; phase && i <= INSETD_PHASE_DID_CHANGE_FRAME; i++)
		if (strcmp(phase, phase_names[i]) == 0)
			p = i;
	struct insetd_event e = {.type = INSETD_EVENT_KEYBOARD, .phase = p};
	if (!p || !get_rect(o, "begin", &e.begin) || !get_rect(o, "end", &e.end) ||
	    !get_number(o, "duration", &e.duration) || e.duration < 0)
		return false;
	e.curve = parse_curve(get_string(o, "curve"));
	get_bool(o, "isLocal", &e.is_local);
	bool hides = p == INSETD_PHASE_WILL_HIDE || p == INSETD_PHASE_DID_HIDE;
	ctx->state.keyboard_visible = !hides;
	ctx->state.keyboard = hides ? (struct insetd_rect){0} : e.end;
	struct insetd_event *event = event_new(INSETD_EVENT_KEYBOARD);
	if (event) {
		*event = e;
		event->next = NULL;
	}
	queue_event(ctx, event);
	return true;
}

static bool handle_adjustment(struct insetd *ctx, struct json_object *o)
{
	struct insetd_event e = {.type = INSETD_EVENT_ADJUSTMENT};
	const char *view = get_string(o, "view");
	struct json_object *offset = get_object(o, "contentOffset");
	if (!valid_name(view) || !get_number(o, "additionalBottomInset", &e.additional_bottom_inset) ||
	    !get_insets(o, "contentInset", &e.content_inset) || !get_insets(o, "indicatorInsets", &e.indicator_insets) ||
	    !get_insets(o, "adjustedContentInset", &e.adjusted_content_inset) ||
	    !get_size(o, "contentSize", &e.content_size) || !offset || !get_number(offset, "x", &e.content_offset.x) ||
	    !get_number(offset, "y", &e.content_offset.y))
		return false;
	get_bool(o, "alwaysBounceVertical", &e.always_bounce_vertical);
	struct json_object *animation = get_object(o, "animation");
	if (animation) {
		if (!get_number(animation, "duration", &e.duration) || e.duration < 0)
			e.duration = 0;
		e.curve = parse_curve(get_string(animation, "curve"));
	}
	struct insetd_event *event = event_new(INSETD_EVENT_ADJUSTMENT);
	if (!event)
		return true;
	*event = e;
	event->view = bounded_strdup(view, MAX_VIEW_NAME);
	if (!event->view) {
		free(event);
		return true;
	}
	queue_event(ctx, event);
	return true;
}

static bool handle_text_event(struct insetd *ctx, enum insetd_event_type type, const char *code, const char *text)
{
	struct insetd_event *event = event_new(type);
	if (!event)
		return true;
	event->code = code ? bounded_strdup(code, MAX_TEXT) : NULL;
	event->message = text ? bounded_strdup(text, MAX_TEXT) : NULL;
	queue_event(ctx, event);
	return true;
}

/* One line from insetd. false: ignored as malformed. */
static bool handle_line(struct insetd *ctx, const char *line, size_t len)
{
	if (len == 0)
		return true;
	if (memchr(line, '\0', len))
		return false;
	struct json_tokener *tok = json_tokener_new_ex(32);
	if (!tok)
		return true;
	struct json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	bool complete = json_tokener_get_error(tok) == json_tokener_success && json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	if (!o || !complete || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return false;
	}
	bool ok = true;
	const char *type = get_string(o, "type");
	if (!type) {
		ok = false;
	} else if (strcmp(type, "welcome") == 0) {
		ok = handle_welcome(ctx, o);
	} else if (strcmp(type, "bye") == 0) {
		const char *reason = get_string(o, "reason");
		handle_text_event(ctx, INSETD_EVENT_BYE, reason ? reason : "", NULL);
		logf_(ctx, INSETD_LOG_DEBUG, "insetd said bye (%.64s)", reason ? reason : "");
		json_object_put(o);
		disconnect(ctx, "insetd said bye");
		return true;
	} else if (!ctx->welcomed) {
		ok = true; /* nothing but welcome and bye counts before the welcome */
	} else if (strcmp(type, "keyboard") == 0) {
		ok = handle_keyboard(ctx, o);
	} else if (strcmp(type, "adjustment") == 0) {
		ok = handle_adjustment(ctx, o);
	} else if (strcmp(type, "focusLost") == 0) {
		const char *view = get_string(o, "view");
		if (!valid_name(view)) {
			ok = false;
		} else {
			if (ctx->focus_view && strcmp(ctx->focus_view, view) == 0) {
				free(ctx->focus_view);
				ctx->focus_view = NULL;
			}
			struct insetd_event *event = event_new(INSETD_EVENT_FOCUS_LOST);
			if (event && (event->view = bounded_strdup(view, MAX_VIEW_NAME)))
				queue_event(ctx, event);
			else if (event)
				free(event);
		}
	} else if (strcmp(type, "placed") == 0) {
		struct json_object *origin = get_object(o, "origin");
		struct insetd_point at;
		ok = origin && get_number(origin, "x", &at.x) && get_number(origin, "y", &at.y);
		struct insetd_event *event = ok ? event_new(INSETD_EVENT_PLACED) : NULL;
		if (event) {
			event->placed_origin = at;
			queue_event(ctx, event);
		}
	} else if (strcmp(type, "policy") == 0) {
		parse_policy_fields(o, &ctx->state);
		struct insetd_event *event = event_new(INSETD_EVENT_POLICY);
		if (event)
			event_set_state(event, &ctx->state);
		queue_event(ctx, event);
	} else if (strcmp(type, "error") == 0) {
		const char *code = get_string(o, "code");
		const char *text = get_string(o, "message");
		ok = code != NULL;
		if (ok) {
			logf_(ctx, INSETD_LOG_DEBUG, "insetd refused a request: %.64s", code);
			handle_text_event(ctx, INSETD_EVENT_ERROR, code, text ? text : "");
		}
	} else if (strcmp(type, "status") == 0) {
		/* The reply to insetd_roundtrip()'s request, by its id. */
		const char *id = get_string(o, "id");
		unsigned long long n;
		char tail;
		if (id && sscanf(id, ROUNDTRIP_ID "%llu%c", &n, &tail) == 1)
			ctx->roundtrip_answered = n;
	} else if (strcmp(type, "rotate") == 0) {
		const char *direction = get_string(o, "direction");
		ok = direction != NULL;
		if (ok)
			handle_text_event(ctx, INSETD_EVENT_ROTATE, direction, NULL);
	}
	/* ok, devices, device, event, reloaded and later types: ignored */
	json_object_put(o);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

void read_socket(struct insetd *ctx)
{
	for (int reads = 0; reads < MAX_READS_PER_DISPATCH && ctx->sock >= 0; reads++) {
		ssize_t n = read(ctx->sock, ctx->rbuf + ctx->rlen, INSETD_MAX_LINE + 1 - ctx->rlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				disconnect(ctx, strerror(errno));
			return;
		}
		if (n == 0) {
			disconnect(ctx, "insetd closed the connection");
			return;
		}
		ctx->rlen += (size_t)n;
		size_t start = 0;
		char *nl;
		while (ctx->sock >= 0 && (nl = memchr(ctx->rbuf + start, '\n', ctx->rlen - start))) {
			size_t len = (size_t)(nl - (ctx->rbuf + start));
			if (!handle_line(ctx, ctx->rbuf + start, len)) {
				if (ctx->ignored_lines++ == 0)
					logf_(ctx, INSETD_LOG_ERROR, "ignored a malformed message from insetd");
			}
			start += len + 1;
		}
		if (ctx->sock < 0)
			return;
		memmove(ctx->rbuf, ctx->rbuf + start, ctx->rlen - start);
		ctx->rlen -= start;
		if (ctx->rlen > INSETD_MAX_LINE) {
			logf_(ctx, INSETD_LOG_ERROR, "insetd sent a line over %d bytes", INSETD_MAX_LINE);
			ctx->outage_logged = true;
			disconnect(ctx, "line too long");
			return;
		}
	}
}
