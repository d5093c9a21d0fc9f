// The followed Flickables as insetd's views (docs/QT.md, `Insetd.follow`).
// SPDX-License-Identifier: Apache-2.0
#include "insetdviews.h"
#include "insetdattached.h"
#include "insetdconnection.h"
#include "insetdwindow.h"

#include <QQuickItem>

#include <insetd.h>

InsetdViews::InsetdViews(InsetdConnection &connection, InsetdWindow &window)
    : m_connection(connection)
    , m_window(window)
{
}

QString InsetdViews::add(InsetdAttached *view)
{
    const QString base = view->flickable()->objectName().isEmpty() ? QStringLiteral("flickable")
                                                                  : view->flickable()->objectName();
    const QString name = QStringLiteral("%1-%2").arg(base.left(200)).arg(m_nextView++);
    m_views.insert(name, view);
    m_window.adopt(view->flickable()->window());
    describe(name);
    emit added();
    return name;
}

void InsetdViews::remove(const QString &name)
{
    m_views.remove(name);
    emit removed(name);
    if (struct insetd *ctx = m_connection.context())
        insetd_unregister_view(ctx, name.toUtf8().constData());
}

void InsetdViews::describe(const QString &name)
{
    const auto view = m_views.value(name);
    struct insetd *ctx = m_connection.context();
    if (!view || !ctx)
        return;
    m_window.adopt(view->flickable()->window());
    insetd_view_desc desc;
    insetd_view_desc_init(&desc);
    view->fillDescription(&desc);
    if (insetd_update_view(ctx, name.toUtf8().constData(), &desc) < 0)
        qCDebug(lcInsetd, "view %s not described: a size out of range", qPrintable(name));
}

void InsetdViews::describeAll()
{
    for (auto view = m_views.cbegin(); view != m_views.cend(); ++view)
        if (*view && (*view)->follow())
            describe(view.key());
}

QString InsetdViews::holding(QQuickItem *item) const
{
    InsetdAttached *best = nullptr;
    QString name;
    for (auto view = m_views.cbegin(); view != m_views.cend(); ++view) {
        if (*view && (*view)->contains(item) && (!best || best->flickable()->isAncestorOf((*view)->flickable()))) {
            best = *view;
            name = view.key();
        }
    }
    return name;
}

void InsetdViews::apply(insetd_event *event)
{
    const auto view = m_views.value(QString::fromUtf8(insetd_event_get_view(event)));
    if (view)
        view->apply(event);
}

void InsetdViews::restoreAll()
{
    for (const auto &view : std::as_const(m_views))
        if (view)
            view->restore();
}

InsetdAttached *InsetdViews::view(const QString &name) const
{
    return m_views.value(name);
}
