// A window's output turning, as the Insetd QML module and the input context
// plugin both tell insetd of it (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSize>

#include <insetd.h>

/// The output a window is on now measures @p now; @p last is the size last
/// seen (updated). A new size after the first one seen is a turn (or the
/// window moved to another output): insetd (with @p ctx) hears a transition
/// to it of no duration, as insetd.js says a turn lasts: the compositor turns
/// the window at once, and the OSK's report for the turned screen moves the
/// views as the keyboard moves (over 0.3 s, the field scrolled into the
/// turned window under a keyboard drawn there already). The first size seen
/// is the one insetd was configured with.
/// @return whether it was a turn.
inline bool insetdOutputTurned(struct insetd *ctx, QSize &last, QSize now)
{
    if (now.isEmpty() || now == last)
        return false;
    const bool first = last.isEmpty();
    last = now;
    if (first)
        return false;
    if (ctx) {
        const insetd_size screen{double(now.width()), double(now.height())};
        insetd_transition(ctx, 0, &screen);
    }
    return true;
}
