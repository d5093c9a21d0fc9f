// Insetd.keyboard: the keyboard as insetd publishes it, and the process's one
// connection to insetd that every followed Flickable shares (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QEasingCurve>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QRectF>
#include <QQuickWindow>
#include <QTimer>
#include <QtQml/qqml.h>

struct insetd;
struct insetd_event;
class QSocketNotifier;
class InsetdAttached;

/// The keyboard as insetd publishes it, one per process (Insetd.keyboard from
/// any item). It also holds the process's one connection to insetd.
class InsetdKeyboard : public QObject
{
    Q_OBJECT
    QML_ANONYMOUS
    /// The keyboard is up (shown, or the accessory bar).
    Q_PROPERTY(bool visible READ visible NOTIFY changed)
    /// The part of the keyboard over the app's window, in that window's
    /// coordinates; empty when it covers none of the window.
    Q_PROPERTY(QRectF rectangle READ rectangle NOTIFY changed)
    /// The keyboard's frame on the screen (insetd's screen coordinates).
    Q_PROPERTY(QRectF screenRectangle READ screenRectangle NOTIFY changed)
    /// The last movement's duration, in milliseconds, and its curve.
    Q_PROPERTY(int animationDuration READ animationDuration NOTIFY changed)
    Q_PROPERTY(QEasingCurve easing READ easing NOTIFY changed)
    /// A hardware keyboard is usable (insetd's policy): the OSK stays down.
    Q_PROPERTY(bool hardwareKeyboard READ hardwareKeyboard NOTIFY changed)
    /// Connected to insetd (a welcome was received on the current connection).
    Q_PROPERTY(bool connected READ connected NOTIFY connectedChanged)

public:
    static InsetdKeyboard *instance();
    /// The instance if there is one, without making it (none once it is destroyed).
    static InsetdKeyboard *existing();

    bool visible() const { return m_visible; }
    QRectF rectangle() const;
    QRectF screenRectangle() const { return m_visible ? m_screenRect : QRectF(); }
    int animationDuration() const { return m_durationMs; }
    QEasingCurve easing() const { return m_easing; }
    bool hardwareKeyboard() const { return m_hardware; }
    bool connected() const { return m_connected; }

    /// The screen (the output) was rotated to width x height; insetd suspends
    /// its filter for @p seconds and pins each view's upper-left corner.
    Q_INVOKABLE void rotated(double width, double height, double seconds = 0.3);

    /// insetd's curves as Qt curves (UIKit's cubic Béziers).
    static QEasingCurve curve(int insetdCurve);

    // For the attached objects.
    QString add(InsetdAttached *view);
    void remove(const QString &name);
    void describe(const QString &name);
    void focus(const QString &name, const QRectF &field);
    void blur(const QString &name);
    QQuickWindow *window() const { return m_window; }

signals:
    void changed();
    void connectedChanged();

private:
    InsetdKeyboard();
    ~InsetdKeyboard() override;
    void dispatch();
    void handle(insetd_event *event);
    void onFocusObjectChanged(QObject *object);
    void setWindow(QQuickWindow *window);
    void sendWindow();
    void restoreAll();

    struct insetd *m_ctx = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QHash<QString, QPointer<InsetdAttached>> m_views;
    int m_nextView = 1;
    QString m_focused;
    QRectF m_lastField;
    QPointer<QQuickWindow> m_window;
    QTimer m_windowTimer;
    bool m_visible = false;
    QRectF m_screenRect;
    QRectF m_windowRect;
    int m_durationMs = 250;
    QEasingCurve m_easing;
    bool m_hardware = false;
    bool m_connected = false;
};
