// The followed Flickables as insetd's views (docs/QT.md, `Insetd.follow`).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

struct insetd_event;
class InsetdAttached;
class InsetdConnection;
class InsetdWindow;
class QQuickItem;

/// The process's registry of insetd views: one name per followed Flickable,
/// its description sent when it changes, insetd's adjustments handed to it.
class InsetdViews : public QObject
{
    Q_OBJECT

public:
    InsetdViews(InsetdConnection &connection, InsetdWindow &window);

    /// Registers @p view's Flickable (its window becomes insetd's window if
    /// there is none yet) and describes it; returns its name at insetd.
    QString add(InsetdAttached *view);
    void remove(const QString &name);
    void describe(const QString &name);
    /// Every view as it is laid out now (the window was resized: its answer
    /// is awaited before the frame).
    void describeAll();
    /// The name of the innermost followed Flickable holding @p item, or "".
    QString holding(QQuickItem *item) const;
    InsetdAttached *view(const QString &name) const;
    /// An adjustment event: to the view it names.
    void apply(insetd_event *event);
    /// insetd is gone: every view gets its own margin back.
    void restoreAll();

signals:
    void added();
    void removed(const QString &name);

private:
    InsetdConnection &m_connection;
    InsetdWindow &m_window;
    QHash<QString, QPointer<InsetdAttached>> m_views;
    int m_nextView = 1;
};
