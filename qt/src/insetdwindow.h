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
/// change, once per turn of the event loop, and a new size before the frame
/// that first shows it (with insetd's answer in that frame); a new size of the
/// output it is on is a rotation, which insetd hears as a transition (as from
/// insetd.js).
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
    /// grows it back). The last one sent once the window is gone. On Wayland
    /// Qt says 0,0; where insetd heard from the compositor where the window
    /// is drawn (`placed`), there.
    QRectF geometry() const;
    /// insetd measures the window at @p origin: where the compositor draws it
    /// (GNOME Shell's top bar puts a maximized window at y 32).
    void placed(QPointF origin);
    /// insetd says the keyboard is up (true) or down, and where on the screen:
    /// the window's size while it is down is the one a compositor shrinks for
    /// it (`shrunkForKeyboard`).
    void setKeyboardUp(bool up, QRectF frame);
    /// The compositor shrank the window while the keyboard is up: same width,
    /// less height than while it was down. A compositor shrinks a window for
    /// the keyboard to end it at the keyboard's top (sway's and phoc's
    /// exclusive zone, Mir's maximized window, KWin's resize out of the
    /// keyboard's way), so the keyboard covers none of it, wherever insetd
    /// still places the keyboard: the configured frame, or a real one the
    /// OSK has changed since (maliit's word row coming and going on KWin).
    bool shrunkForKeyboard() const;
    /// The keyboard covers none of the window: it is shrunk for it, or it
    /// grew back from such a shrink and insetd has said nothing of the
    /// keyboard since (`m_grewBack`).
    bool clearOfKeyboard() const;

signals:
    /// The window was resized since its last frame, and the frame that first
    /// shows the new size is about to be synchronized (after its polish): the
    /// window's new size was sent, the views' are to be, and insetd's answer
    /// belongs in this frame.
    void resizedFrameDue();
    /// Where the keyboard is in the window may have changed: insetd was told
    /// the window's place and size, insetd placed it (`placed`), or the
    /// output it is on turned.
    void placeChanged();

private:
    void send();
    void beforeFrame();
    void remember();
    void resized();
    bool grewBackTo(QSizeF size) const;
    void watchScreen(QScreen *screen);
    void sendScreen();

    InsetdConnection &m_connection;
    QPointer<QQuickWindow> m_window;
    QTimer m_timer;
    QRectF m_sent;
    /// Where the compositor draws the window, as insetd says (Wayland only).
    QPointF m_drawnAt;
    bool m_keyboardUp = false;
    /// The keyboard on the screen as insetd last said.
    QRectF m_keyboardFrame;
    /// The window's size while the keyboard was down, or since it last
    /// turned (a new width) or grew past it: not shrunk for the keyboard.
    QSizeF m_unshrunk;
    /// Resized since the window's last frame.
    bool m_resized = false;
    /// The size at the last resize (what it grew or shrank from).
    QSizeF m_size;
    /// The compositor grew the window back from a shrink for the keyboard
    /// while insetd still says the keyboard is up. A compositor gives that
    /// room back when the keyboard leaves the screen (its zone gone: the OSK
    /// hid or ended), and insetd may hear of it from the OSK's bridge tens of
    /// milliseconds after the window's first frame at the new size: until
    /// insetd's next word on the keyboard, at most `GrewBackHoldMs`, the
    /// keyboard covers none of it.
    bool m_grewBack = false;
    QTimer m_grewBackHold;
    static constexpr int GrewBackHoldMs = 300;
    /// The output's size as last seen (empty: not yet).
    QSize m_screen;
    QMetaObject::Connection m_screenWatch;
};
