// The process's one connection to insetd, on libinsetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "insetdconnection.h"
#include "insetdanswer.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <insetd.h>

Q_LOGGING_CATEGORY(lcInsetd, "insetd", QtInfoMsg)

static void logHandler(struct insetd *, enum insetd_log_priority priority, const char *message, void *)
{
    // Connection state only: libinsetd never passes field contents or keys.
    // By name, not by order (libinsetd's order is libinput's: DEBUG < ERROR).
    if (priority == INSETD_LOG_ERROR)
        qCWarning(lcInsetd, "%s", message);
    else if (priority == INSETD_LOG_INFO)
        qCInfo(lcInsetd, "%s", message);
    else
        qCDebug(lcInsetd, "%s", message);
}

InsetdConnection::InsetdConnection()
{
    const QByteArray name = QCoreApplication::applicationName().toUtf8();
    m_ctx = insetd_new(nullptr, name.isEmpty() ? "qt" : name.constData());
    if (!m_ctx) {
        qCWarning(lcInsetd, "cannot create an insetd context; the app runs without insets");
        return;
    }
    insetd_set_log_handler(m_ctx, logHandler, nullptr);
    insetd_subscribe(m_ctx, INSETD_TOPIC_POLICY);
    m_notifier = new QSocketNotifier(insetd_get_fd(m_ctx), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &InsetdConnection::dispatch);
}

InsetdConnection::~InsetdConnection()
{
    if (m_ctx)
        insetd_unref(m_ctx);
}

void InsetdConnection::dispatch()
{
    if (!m_ctx)
        return;
    insetd_dispatch(m_ctx);
    deliverQueued();
}

void InsetdConnection::deliverQueued()
{
    while (insetd_event *next = insetd_get_event(m_ctx)) {
        emit received(next);
        insetd_event_destroy(next);
    }
}

// A resize's adjustment handed on in the frame that first shows the new size.
void InsetdConnection::awaitAnswer()
{
    if (!m_ctx || !insetd_is_connected(m_ctx))
        return;
    insetdAwaitAnswer(m_ctx, lcInsetd());
    deliverQueued();
}
