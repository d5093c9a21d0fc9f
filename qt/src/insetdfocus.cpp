// Focus and blur reports to insetd (docs/QT.md, "reports focus").
// SPDX-License-Identifier: Apache-2.0
#include "insetdfocus.h"
#include "insetdattached.h"
#include "insetdconnection.h"
#include "insetdviews.h"

#include <QGuiApplication>
#include <QInputMethod>
#include <QQuickItem>

#include <insetd.h>

InsetdFocus::InsetdFocus(InsetdConnection &connection, InsetdViews &views)
    : m_connection(connection)
    , m_views(views)
{
    if (auto app = qobject_cast<QGuiApplication *>(QCoreApplication::instance())) {
        connect(app, &QGuiApplication::focusObjectChanged, this, &InsetdFocus::onFocusObjectChanged);
        // A TextArea's cursor moving to another line restates the field.
        connect(app->inputMethod(), &QInputMethod::cursorRectangleChanged, this, &InsetdFocus::refresh);
    }
    connect(&views, &InsetdViews::added, this, &InsetdFocus::refresh);
    connect(&views, &InsetdViews::removed, this, &InsetdFocus::forget);
}

void InsetdFocus::refresh()
{
    onFocusObjectChanged(QGuiApplication::focusObject());
}

void InsetdFocus::lost(const QString &view)
{
    forget(view);
}

void InsetdFocus::forget(const QString &name)
{
    if (m_focused == name)
        m_focused.clear();
}

void InsetdFocus::onFocusObjectChanged(QObject *object)
{
    auto item = qobject_cast<QQuickItem *>(object);
    if (item && (item->flags() & QQuickItem::ItemAcceptsInputMethod)) {
        // By the registry's name: a view being added has none of its own yet.
        const QString name = m_views.holding(item);
        if (!name.isEmpty()) {
            const QRectF field = m_views.view(name)->fieldFor(item);
            if (name != m_focused || field != m_lastField) {
                m_lastField = field;
                focus(name, field);
            }
            return;
        }
    }
    if (!m_focused.isEmpty())
        blur(m_focused);
    m_lastField = QRectF();
}

void InsetdFocus::focus(const QString &name, const QRectF &field)
{
    struct insetd *ctx = m_connection.context();
    if (!ctx)
        return;
    m_focused = name;
    insetd_focus(ctx, name.toUtf8().constData(), {field.x(), field.y(), field.width(), field.height()});
}

void InsetdFocus::blur(const QString &name)
{
    if (struct insetd *ctx = m_connection.context())
        insetd_blur(ctx, name.toUtf8().constData());
    forget(name);
}
