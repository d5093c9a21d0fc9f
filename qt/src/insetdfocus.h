// Focus and blur reports to insetd (docs/QT.md, "reports focus").
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QRectF>
#include <QString>

class InsetdConnection;
class InsetdViews;

/// Follows the application's focus object: a field that takes input method
/// events inside a followed Flickable is a `focus` on that view (restated
/// when the field or its cursor moves), anything else a `blur`.
class InsetdFocus : public QObject
{
    Q_OBJECT

public:
    InsetdFocus(InsetdConnection &connection, InsetdViews &views);

    /// Reports the focus object as it is now (a view was added around it).
    void refresh();
    /// insetd says @p view lost the focus (another client took it).
    void lost(const QString &view);

private:
    void onFocusObjectChanged(QObject *object);
    void focus(const QString &name, const QRectF &field);
    void blur(const QString &name);
    void forget(const QString &name);

    InsetdConnection &m_connection;
    InsetdViews &m_views;
    QString m_focused;
    QRectF m_lastField;
};
