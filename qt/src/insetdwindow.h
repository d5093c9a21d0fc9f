// The app's window as insetd is told of it (docs/QT.md, "One coordinate space").
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <QQuickWindow>
#include <QRectF>
#include <QScreen>
#include <QTimer>

class InsetdConnection;

/// The window insetd measures the module's views in: the first followed
/// Flickable's. Its place and size on the screen go to insetd whenever they
/// change, once per turn of the event loop; a new size of the output it is on
/// is a rotation, which insetd hears as a transition (as from insetd.js).
class InsetdWindow : public QObject
{
    Q_OBJECT

public:
    explicit InsetdWindow(InsetdConnection &connection);

    QQuickWindow *window() const { return m_window; }
    /// Takes @p window when there is none yet (one window per process).
    void adopt(QQuickWindow *window);
    /// The window on the screen as it is now: a report to insetd of its new
    /// size may still be on its way (sway shrinks it for the keyboard's zone,
    /// grows it back). The last one sent once the window is gone.
    QRectF geometry() const;

signals:
    /// insetd was told the window's place and size.
    void sent();

private:
    void send();
    void watchScreen(QScreen *screen);
    void sendScreen();

    InsetdConnection &m_connection;
    QPointer<QQuickWindow> m_window;
    QTimer m_timer;
    QRectF m_sent;
    /// The output's size as last seen (empty: not yet).
    QSize m_screen;
    QMetaObject::Connection m_screenWatch;
};
