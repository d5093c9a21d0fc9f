// The process's one connection to insetd, on libinsetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLoggingCategory>
#include <QMetaType>
#include <QObject>

struct insetd;
struct insetd_event;
class QSocketNotifier;
// libinsetd's event stays opaque outside the files that read it.
Q_DECLARE_OPAQUE_POINTER(insetd_event *)

Q_DECLARE_LOGGING_CATEGORY(lcInsetd)

/// The libinsetd context every part of the module talks to insetd through:
/// libinsetd's descriptor on Qt's event loop, its log on the `insetd`
/// category. It reconnects by itself (libinsetd) and hands each event it
/// reads to `event`, in order; it decides nothing.
class InsetdConnection : public QObject
{
    Q_OBJECT

public:
    InsetdConnection();
    ~InsetdConnection() override;

    /// The context, or null when libinsetd could not make one: then every
    /// report is dropped and the app runs without insets.
    struct insetd *context() const { return m_ctx; }

    /// Waits, up to `InsetdAnswerWaitMs` (qt/shared/insetdanswer.h), for
    /// insetd's answer to everything sent so far and hands it to `received`
    /// now (a resize's adjustment, in the frame that shows the new size).
    void awaitAnswer();

signals:
    /// One event from insetd; it is destroyed when the handlers return.
    void received(insetd_event *event);

private:
    void dispatch();
    void deliverQueued();

    struct insetd *m_ctx = nullptr;
    QSocketNotifier *m_notifier = nullptr;
};
