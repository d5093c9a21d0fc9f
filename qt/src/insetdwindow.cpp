// The app's window as insetd is told of it (docs/QT.md, "One coordinate space").
// SPDX-License-Identifier: Apache-2.0
#include "insetdwindow.h"
#include "insetdconnection.h"

#include <QGuiApplication>

#include <insetd.h>
#include <insetdturn.h>

InsetdWindow::InsetdWindow(InsetdConnection &connection)
    : m_connection(connection)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &InsetdWindow::send);
    m_grewBackHold.setSingleShot(true);
    m_grewBackHold.setInterval(GrewBackHoldMs);
    // insetd said nothing of the keyboard: it covers what it covers again.
    connect(&m_grewBackHold, &QTimer::timeout, this, [this] {
        m_grewBack = false;
        emit placeChanged();
    });
}

void InsetdWindow::adopt(QQuickWindow *window)
{
    if (m_window || !window)
        return;
    m_window = window;
    auto moved = [this] { m_timer.start(); };
    connect(window, &QWindow::xChanged, &m_timer, moved);
    connect(window, &QWindow::yChanged, &m_timer, moved);
    connect(window, &QWindow::widthChanged, this, &InsetdWindow::resized);
    connect(window, &QWindow::heightChanged, this, &InsetdWindow::resized);
    // On the GUI thread after the frame's polish (the views laid out for the
    // new size), before its sync: what is applied here is in this frame.
    connect(window, &QQuickWindow::afterAnimating, this, &InsetdWindow::beforeFrame, Qt::DirectConnection);
    connect(window, &QWindow::screenChanged, this, &InsetdWindow::watchScreen);
    watchScreen(window->screen());
    m_size = window->size();
    remember();
    m_timer.start();
}

// A new size: remembered (a shrink for the keyboard, or not), and sent before
// the frame that first shows it (`beforeFrame`), else at the turn's end.
void InsetdWindow::resized()
{
    const QSizeF size = m_window->size();
    if (grewBackTo(size)) {
        m_grewBack = true;
        m_grewBackHold.start();
    }
    m_size = size;
    remember();
    m_resized = true;
    m_timer.start();
}

void InsetdWindow::setKeyboardUp(bool up, QRectF frame)
{
    m_keyboardUp = up;
    m_keyboardFrame = frame;
    m_grewBack = false;
    m_grewBackHold.stop();
    remember();
}

// A size that cannot be a shrink for the keyboard becomes the one to compare
// with: any while the keyboard is down; while it is up, a new width (the
// output turned: the window is laid out anew) or more height than before.
void InsetdWindow::remember()
{
    if (!m_window)
        return;
    const QSizeF size = m_window->size();
    if (!m_keyboardUp || size.width() != m_unshrunk.width() || size.height() > m_unshrunk.height())
        m_unshrunk = size;
}

bool InsetdWindow::shrunkForKeyboard() const
{
    if (!m_window || !m_keyboardUp)
        return false;
    const QSizeF size = m_window->size();
    return size.width() == m_unshrunk.width() && size.height() < m_unshrunk.height();
}

// With the keyboard still up, the width unchanged, from the size at the last
// resize: back from a shrink for the keyboard to the unshrunk size or more, or
// grown from ending at or above the keyboard's top into it (the shrink may have
// come before insetd said the keyboard was up, and was then no shrink to it).
bool InsetdWindow::grewBackTo(QSizeF size) const
{
    if (!m_keyboardUp || size.width() != m_size.width() || size.height() <= m_size.height())
        return false;
    if (m_size.width() == m_unshrunk.width() && m_size.height() < m_unshrunk.height()
        && size.height() >= m_unshrunk.height())
        return true;
    const double top = geometry().y();
    return !m_keyboardFrame.isEmpty() && top + m_size.height() <= m_keyboardFrame.top() + 0.5
        && top + size.height() > m_keyboardFrame.top() + 0.5;
}

// Also for a size Qt reports before its resize signal has run.
bool InsetdWindow::clearOfKeyboard() const
{
    return shrunkForKeyboard() || m_grewBack || (m_window && grewBackTo(m_window->size()));
}

void InsetdWindow::watchScreen(QScreen *screen)
{
    disconnect(m_screenWatch);
    if (screen)
        m_screenWatch = connect(screen, &QScreen::geometryChanged, this, &InsetdWindow::sendScreen);
    sendScreen();
}

// The output the window is on turned (or the window moved to another): its
// views are laid out anew for it, with the keyboard of that orientation
// (insetdOutputTurned). A window on a display that starts turned calls
// Insetd.keyboard.rotated() itself.
void InsetdWindow::sendScreen()
{
    if (!m_window || !m_window->screen())
        return;
    if (insetdOutputTurned(m_connection.context(), m_screen, m_window->screen()->geometry().size()))
        emit placeChanged();
}

QRectF InsetdWindow::geometry() const
{
    const QRectF window = m_window ? QRectF(QPointF(m_window->position()), QSizeF(m_window->size())) : m_sent;
    return window.translated(m_drawnAt);
}

void InsetdWindow::placed(QPointF origin)
{
    if (origin == m_drawnAt)
        return;
    m_drawnAt = origin;
    emit placeChanged();
}

// Where the window is on the screen: Qt's word for it. On Wayland a client is
// never told, and Qt says 0,0: the window is taken to be at the output's
// top-left, a kiosk's maximized or full-screen window, and insetd is told its
// size, so that it places the window where the compositor draws it when an
// OSK bridge says (docs/QT.md).
void InsetdWindow::send()
{
    struct insetd *ctx = m_connection.context();
    if (!m_window || !ctx || m_window->width() <= 0 || m_window->height() <= 0)
        return;
    m_sent = QRectF(QPointF(m_window->position()), QSizeF(m_window->size()));
    const insetd_rect frame{m_sent.x(), m_sent.y(), m_sent.width(), m_sent.height()};
    if (QGuiApplication::platformName().startsWith(QLatin1String("wayland")))
        insetd_set_unplaced_window(ctx, frame, {m_sent.width(), m_sent.height()});
    else
        insetd_set_window(ctx, frame);
    emit placeChanged();
}

// The compositor resized the window (made room for the keyboard, or took it
// back), and Qt is about to show the new size: the window and its views go to
// insetd now, and its answer (the focused field scrolled into the new size)
// into this frame, not the next one (Android hands an app the end state before
// its layout). A window moved but not resized waits for the turn's end.
void InsetdWindow::beforeFrame()
{
    if (!m_resized)
        return;
    m_resized = false;
    m_timer.stop();
    send();
    emit resizedFrameDue();
}
