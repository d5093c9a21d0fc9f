// Waiting for insetd's answer before a frame, as the Insetd QML module and the
// input context plugin both do when the compositor resizes a window (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QLoggingCategory>

#include <insetd.h>

/// How long a frame waits at most for insetd's answer: a busy insetd costs
/// the frame this much, and its answer then arrives as usual.
constexpr int InsetdAnswerWaitMs = 8;

/// After an answer that came late, how long frames do not wait: a stalled
/// insetd must not cost every frame of a drag-resize its wait.
constexpr qint64 InsetdLateAnswerPauseMs = 1000;

/// Waits, at most `InsetdAnswerWaitMs`, until insetd (@p ctx, connected) has
/// answered everything sent so far: insetd answers in order, after everything
/// a request caused at once, so a resize's adjustment is then queued for
/// insetd_get_event(), to be applied in the frame that first shows the new
/// size (Android hands an app the end state before its layout). Says on
/// @p category how long it took. Waits not at all for a second after an
/// answer came late. @return whether the answer came in time.
inline bool insetdAwaitAnswer(struct insetd *ctx, const QLoggingCategory &category)
{
    static QElapsedTimer sinceLate;
    if (sinceLate.isValid() && sinceLate.elapsed() < InsetdLateAnswerPauseMs)
        return false;
    QElapsedTimer waited;
    waited.start();
    const bool answered = insetd_roundtrip(ctx, InsetdAnswerWaitMs) == 0;
    if (answered)
        sinceLate.invalidate();
    else
        sinceLate.start();
    qCDebug(category, "insetd's answer before the frame: %s after %lld us", answered ? "in" : "late",
            (long long)(waited.nsecsElapsed() / 1000));
    return answered;
}
