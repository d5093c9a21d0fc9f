// Insetd.keyboard: the keyboard as insetd publishes it, one object for the
// process that every item shares (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QEasingCurve>
#include <QObject>
#include <QRectF>
#include <QtQml/qqml.h>

#include "insetdconnection.h"
#include "insetdfocus.h"
#include "insetdviews.h"
#include "insetdwindow.h"

struct insetd_event;

/// The keyboard as insetd publishes it, one per process (Insetd.keyboard from
/// any item returns this one object). It owns the process's other parts, one
/// each: the connection, the window, the views and the focus reports.
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
    /// The app's window on the screen as insetd measures it: Qt's position,
    /// or, for a window Wayland does not tell its place, where insetd placed
    /// it by the compositor's word (an OSK bridge's reading of the focused
    /// window: KWin's title bar, GNOME Shell's top bar above it). The
    /// keyboard's `rectangle` is `screenRectangle` seen from here.
    Q_PROPERTY(QRectF window READ window NOTIFY changed)
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
    QRectF window() const { return m_window.geometry(); }
    int animationDuration() const { return m_durationMs; }
    QEasingCurve easing() const { return m_easing; }
    bool hardwareKeyboard() const { return m_hardware; }
    bool connected() const { return m_connected; }

    /// The screen (the output) was rotated to width x height; insetd suspends
    /// its filter for @p seconds (at least 0.3) and pins each view's
    /// upper-left corner. @p seconds: how long the shell animates the turn
    /// (0: at once, as Wayland compositors turn a window).
    Q_INVOKABLE void rotated(double width, double height, double seconds = 0);

    /// insetd's curves as Qt curves (UIKit's cubic Béziers).
    static QEasingCurve curve(int insetdCurve);

    /// The followed Flickables (for the attached objects).
    InsetdViews &views() { return m_views; }

signals:
    void changed();
    void connectedChanged();

private:
    InsetdKeyboard();
    ~InsetdKeyboard() override;
    void handle(insetd_event *event);
    void setScreenRect(const QRectF &rect);
    bool placedOnThisScreen() const;

    // Declared in the order they depend on each other (built in this order).
    InsetdConnection m_connection;
    InsetdWindow m_window{m_connection};
    InsetdViews m_views{m_connection, m_window};
    InsetdFocus m_focus{m_connection, m_views};
    bool m_visible = false;
    QRectF m_screenRect;
    /// The output's size when insetd placed the keyboard at m_screenRect.
    QSizeF m_rectScreen;
    int m_durationMs = 250;
    QEasingCurve m_easing;
    bool m_hardware = false;
    bool m_connected = false;
};
