// Insetd.follow, Insetd.bottomInset and Insetd.keyboard on an item: the
// object QML attaches (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QParallelAnimationGroup>
#include <QQuickItem>
#include <QRectF>
#include <QString>
#include <QTimer>
#include <QtQml/qqml.h>

#include "insetdkeyboard.h"

struct insetd_event;

/// Insetd.follow, Insetd.bottomInset and Insetd.keyboard, attached to any item;
/// follow only on a Flickable (ListView, GridView, a ScrollView's flickable).
class InsetdAttached : public QObject
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(bool follow READ follow WRITE setFollow NOTIFY followChanged)
    /// On a followed Flickable: insetd's additional bottom inset for it. On any
    /// other item: how much of the item the keyboard covers.
    Q_PROPERTY(double bottomInset READ bottomInset NOTIFY bottomInsetChanged)
    /// The view's name at insetd (while followed).
    Q_PROPERTY(QString view READ view NOTIFY followChanged)
    Q_PROPERTY(InsetdKeyboard *keyboard READ keyboard CONSTANT)

public:
    explicit InsetdAttached(QObject *parent);
    ~InsetdAttached() override;

    bool follow() const { return m_follow; }
    void setFollow(bool follow);
    double bottomInset() const;
    QString view() const { return m_name; }
    InsetdKeyboard *keyboard() const { return InsetdKeyboard::instance(); }

    // For the keyboard object.
    QQuickItem *flickable() const;
    bool contains(QQuickItem *item) const;
    void fillDescription(void *desc) const;
    QRectF fieldFor(QQuickItem *item) const;
    void apply(insetd_event *event);
    void restore();
    void keyboardChanged();

signals:
    void followChanged();
    void bottomInsetChanged();

private Q_SLOTS:
    void scheduleUpdate();
    void onBottomMarginChanged();

private:
    void setInset(double inset);
    void sendUpdate();
    double coveredNow() const;
    double maxContentY(double bottomMargin) const;
    void clampToKeyboard();

    bool m_follow = false;
    bool m_applying = false;
    QString m_name;
    double m_originalBottomMargin = 0;
    double m_appliedBottomMargin = -1;
    // insetd's last margin, before the cut to what the keyboard covers now.
    double m_targetBottomMargin = 0;
    // Where insetd's running animation takes contentY.
    double m_targetContentY = 0;
    // The contentY this module last set (insetd's, cut to the margin's range):
    // one the Flickable still shows was not the user's scroll.
    double m_appliedContentY = 0;
    bool m_adjusted = false;
    double m_inset = 0;
    double m_coveredInset = 0;
    QTimer m_updateTimer;
    QPointer<QParallelAnimationGroup> m_animation;
    QList<QMetaObject::Connection> m_connections;
};
