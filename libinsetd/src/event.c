/*
 * libinsetd: the event queue, the events' accessors, and the names of
 * keyboard phases and curves.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "insetd-private.h"

#include <stdlib.h>
#include <string.h>

#define MAX_QUEUED_EVENTS 4096

const char *const phase_names[] = {NULL, "willShow", "didShow", "willHide", "didHide", "willChangeFrame",
				    "didChangeFrame"};
const char *const curve_names[] = {"easeInOut", "easeIn", "easeOut", "linear"};

const char *insetd_keyboard_phase_name(enum insetd_keyboard_phase phase)
{
	return phase >= INSETD_PHASE_WILL_SHOW && phase <= INSETD_PHASE_DID_CHANGE_FRAME ? phase_names[phase] : "unknown";
}

const char *insetd_curve_name(enum insetd_curve curve)
{
	return curve <= INSETD_CURVE_LINEAR ? curve_names[curve] : "unknown";
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

struct insetd_event *event_new(enum insetd_event_type type)
{
	struct insetd_event *event = calloc(1, sizeof *event);
	if (event)
		event->type = type;
	return event;
}

void event_free(struct insetd_event *event)
{
	free(event->client_id);
	free(event->osk_problem);
	free(event->frame_source);
	free(event->view);
	free(event->code);
	free(event->message);
	free(event);
}

static char *copy_or_null(const char *s) { return s ? strdup(s) : NULL; }

void event_set_state(struct insetd_event *event, const struct insetd_state *state)
{
	event->has_state = true;
	event->state = *state;
	event->client_id = copy_or_null(state->client_id);
	event->osk_problem = copy_or_null(state->osk_problem);
	event->frame_source = copy_or_null(state->frame_source);
	event->state.client_id = event->client_id;
	event->state.osk_problem = event->osk_problem;
	event->state.frame_source = event->frame_source;
}

void queue_event(struct insetd *ctx, struct insetd_event *event)
{
	if (!event)
		return;
	if (ctx->queued >= MAX_QUEUED_EVENTS) {
		if (!ctx->dropped_logged)
			logf_(ctx, INSETD_LOG_ERROR, "%d events queued and not read; dropping new ones",
			      MAX_QUEUED_EVENTS);
		ctx->dropped_logged = true;
		event_free(event);
		return;
	}
	if (ctx->tail)
		ctx->tail->next = event;
	else
		ctx->head = event;
	ctx->tail = event;
	ctx->queued++;
}

struct insetd_event *insetd_get_event(struct insetd *ctx)
{
	if (!ctx)
		return NULL;
	struct insetd_event *event = ctx->head;
	if (!event)
		return NULL;
	ctx->head = event->next;
	if (!ctx->head)
		ctx->tail = NULL;
	ctx->queued--;
	event->next = NULL;
	event->ctx = insetd_ref(ctx);
	return event;
}

enum insetd_event_type insetd_next_event_type(struct insetd *ctx)
{
	return ctx && ctx->head ? ctx->head->type : INSETD_EVENT_NONE;
}

void insetd_event_destroy(struct insetd_event *event)
{
	if (!event)
		return;
	struct insetd *ctx = event->ctx;
	event_free(event);
	if (ctx)
		insetd_unref_1_1(ctx);
}

static const char *const type_names[] = {"NONE", "CONNECTED", "DISCONNECTED", "KEYBOARD", "ADJUSTMENT",
					  "FOCUS_LOST", "POLICY", "ERROR", "BYE", "ROTATE", "PLACED"};

bool require_type(struct insetd_event *e, const char *function, unsigned mask)
{
	if (!e)
		return false;
	if (mask & (1u << e->type))
		return true;
	if (e->ctx)
		logf_(e->ctx, INSETD_LOG_ERROR, "client bug: %s: invalid event type %s", function,
		      e->type <= INSETD_EVENT_PLACED ? type_names[e->type] : "unknown");
	return false;
}

#define T(type) (1u << INSETD_EVENT_##type)
/* The value of @p field when @p e is of a type in @p mask, else zero. */
#define FIELD(e, mask, field) (require_type(e, __func__, mask) ? e->field : (__typeof__(e->field)){0})

enum insetd_event_type insetd_event_get_type(struct insetd_event *event)
{
	return event ? event->type : INSETD_EVENT_NONE;
}
struct insetd *insetd_event_get_context(struct insetd_event *event) { return event ? event->ctx : NULL; }

bool insetd_event_get_state(struct insetd_event *event, struct insetd_state *state)
{
	if (!event || !state || !event->has_state)
		return false;
	*state = event->state;
	return true;
}

enum insetd_keyboard_phase insetd_event_keyboard_get_phase(struct insetd_event *e) { return FIELD(e, T(KEYBOARD), phase); }
struct insetd_rect insetd_event_keyboard_get_begin(struct insetd_event *e) { return FIELD(e, T(KEYBOARD), begin); }
struct insetd_rect insetd_event_keyboard_get_end(struct insetd_event *e) { return FIELD(e, T(KEYBOARD), end); }
bool insetd_event_keyboard_is_local(struct insetd_event *e) { return FIELD(e, T(KEYBOARD), is_local); }
double insetd_event_get_duration(struct insetd_event *e) { return FIELD(e, T(KEYBOARD) | T(ADJUSTMENT), duration); }
enum insetd_curve insetd_event_get_curve(struct insetd_event *e) { return FIELD(e, T(KEYBOARD) | T(ADJUSTMENT), curve); }
struct insetd_point insetd_event_placed_get_origin(struct insetd_event *e) { return FIELD(e, T(PLACED), placed_origin); }
const char *insetd_event_get_view(struct insetd_event *e) { return FIELD(e, T(ADJUSTMENT) | T(FOCUS_LOST), view); }
double insetd_event_adjustment_get_additional_bottom_inset(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), additional_bottom_inset);
}
struct insetd_insets insetd_event_adjustment_get_content_inset(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), content_inset);
}
struct insetd_insets insetd_event_adjustment_get_indicator_insets(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), indicator_insets);
}
struct insetd_insets insetd_event_adjustment_get_adjusted_content_inset(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), adjusted_content_inset);
}
struct insetd_size insetd_event_adjustment_get_content_size(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), content_size);
}
struct insetd_point insetd_event_adjustment_get_content_offset(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), content_offset);
}
bool insetd_event_adjustment_get_always_bounce_vertical(struct insetd_event *e)
{
	return FIELD(e, T(ADJUSTMENT), always_bounce_vertical);
}
const char *insetd_event_get_code(struct insetd_event *e) { return FIELD(e, T(ERROR) | T(BYE) | T(ROTATE), code); }
const char *insetd_event_get_message(struct insetd_event *e) { return FIELD(e, T(ERROR) | T(BYE) | T(ROTATE), message); }
