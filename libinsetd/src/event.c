/*
 * libinsetd: the event queue, the events' accessors, and the names of
 * keyboard phases and curves.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "insetd-private.h"

#include <stdlib.h>

#define MAX_QUEUED_EVENTS 4096

const char *const phase_names[] = {NULL, "willShow", "didShow", "willHide", "didHide", "willChangeFrame",
				    "didChangeFrame"};
const char *const curve_names[] = {"easeInOut", "easeIn", "easeOut", "linear"};

INSETD_EXPORT const char *insetd_keyboard_phase_name(enum insetd_keyboard_phase phase)
{
	return phase >= INSETD_PHASE_WILL_SHOW && phase <= INSETD_PHASE_DID_CHANGE_FRAME ? phase_names[phase] : "unknown";
}

INSETD_EXPORT const char *insetd_curve_name(enum insetd_curve curve)
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
	free(event->view);
	free(event->code);
	free(event->message);
	free(event);
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

INSETD_EXPORT struct insetd_event *insetd_get_event(struct insetd *ctx)
{
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

INSETD_EXPORT enum insetd_event_type insetd_next_event_type(struct insetd *ctx)
{
	return ctx->head ? ctx->head->type : 0;
}

INSETD_EXPORT void insetd_event_destroy(struct insetd_event *event)
{
	if (!event)
		return;
	struct insetd *ctx = event->ctx;
	event_free(event);
	if (ctx)
		insetd_unref(ctx);
}

INSETD_EXPORT enum insetd_event_type insetd_event_get_type(struct insetd_event *event) { return event->type; }
INSETD_EXPORT struct insetd *insetd_event_get_context(struct insetd_event *event) { return event->ctx; }

INSETD_EXPORT bool insetd_event_get_state(struct insetd_event *event, struct insetd_state *state)
{
	if (!event->has_state)
		return false;
	*state = event->state;
	return true;
}

INSETD_EXPORT enum insetd_keyboard_phase insetd_event_keyboard_get_phase(struct insetd_event *e)
{
	return e->type == INSETD_EVENT_KEYBOARD ? e->phase : 0;
}
INSETD_EXPORT struct insetd_rect insetd_event_keyboard_get_begin(struct insetd_event *e) { return e->begin; }
INSETD_EXPORT struct insetd_rect insetd_event_keyboard_get_end(struct insetd_event *e) { return e->end; }
INSETD_EXPORT bool insetd_event_keyboard_is_local(struct insetd_event *e) { return e->is_local; }
INSETD_EXPORT double insetd_event_get_duration(struct insetd_event *e) { return e->duration; }
INSETD_EXPORT enum insetd_curve insetd_event_get_curve(struct insetd_event *e) { return e->curve; }
INSETD_EXPORT const char *insetd_event_get_view(struct insetd_event *e) { return e->view; }
INSETD_EXPORT double insetd_event_adjustment_get_additional_bottom_inset(struct insetd_event *e)
{
	return e->additional_bottom_inset;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_content_inset(struct insetd_event *e)
{
	return e->content_inset;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_indicator_insets(struct insetd_event *e)
{
	return e->indicator_insets;
}
INSETD_EXPORT struct insetd_insets insetd_event_adjustment_get_adjusted_content_inset(struct insetd_event *e)
{
	return e->adjusted_content_inset;
}
INSETD_EXPORT struct insetd_size insetd_event_adjustment_get_content_size(struct insetd_event *e)
{
	return e->content_size;
}
INSETD_EXPORT struct insetd_point insetd_event_adjustment_get_content_offset(struct insetd_event *e)
{
	return e->content_offset;
}
INSETD_EXPORT bool insetd_event_adjustment_get_always_bounce_vertical(struct insetd_event *e)
{
	return e->always_bounce_vertical;
}
INSETD_EXPORT const char *insetd_event_get_code(struct insetd_event *e) { return e->code; }
INSETD_EXPORT const char *insetd_event_get_message(struct insetd_event *e) { return e->message; }
