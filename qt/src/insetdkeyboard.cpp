// Insetd.keyboard: the keyboard's state from insetd's events (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "insetdkeyboard.h"

#include <QCoreApplication>
#include <QQmlEngine>
#include <cmath>

#include <insetd.h>

static InsetdKeyboard *s_keyboard = nullptr;

InsetdKeyboard *InsetdKeyboard::instance()
{
    if (!s_keyboard) {
        s_keyboard = new InsetdKeyboard;
        QQmlEngine::setObjectOwnership(s_keyboard, QQmlEngine::CppOwnership);
    }
    return s_keyboard;
}

InsetdKeyboard *InsetdKeyboard::existing()
{
    return s_keyboard;
}

InsetdKeyboard::InsetdKeyboard()
    : m_easing(curve(INSETD_CURVE_EASE_IN_OUT))
{
    setParent(QCoreApplication::instance());
    connect(&m_connection, &InsetdConnection::received, this, &InsetdKeyboard::handle);
    connect(&m_window, &InsetdWindow::placeChanged, this, &InsetdKeyboard::changed);
    connect(&m_window, &InsetdWindow::resizedFrameDue, this, [this] {
        m_views.describeAll();
        m_connection.awaitAnswer();
    });
}

InsetdKeyboard::~InsetdKeyboard()
{
    s_keyboard = nullptr;
}

QEasingCurve InsetdKeyboard::curve(int insetdCurve)
{
    // UIKit's (and CSS's) cubic Béziers, as insetd names them.
    QEasingCurve c(QEasingCurve::BezierSpline);
    switch (insetdCurve) {
    case INSETD_CURVE_LINEAR:
        return QEasingCurve(QEasingCurve::Linear);
    case INSETD_CURVE_EASE_IN:
        c.addCubicBezierSegment(QPointF(0.42, 0), QPointF(1, 1), QPointF(1, 1));
        return c;
    case INSETD_CURVE_EASE_OUT:
        c.addCubicBezierSegment(QPointF(0, 0), QPointF(0.58, 1), QPointF(1, 1));
        return c;
    default:
        c.addCubicBezierSegment(QPointF(0.42, 0), QPointF(0.58, 1), QPointF(1, 1));
        return c;
    }
}

QRectF InsetdKeyboard::rectangle() const
{
    if (!m_visible || m_window.clearOfKeyboard() || !placedOnThisScreen())
        return QRectF();
    const QRectF window = m_window.geometry();
    const QRectF covered = m_screenRect.intersected(window);
    if (covered.isEmpty())
        return QRectF();
    return covered.translated(-window.topLeft());
}

// The output the window is on turned since insetd placed the keyboard, and
// the keyboard reaches past the output's right or bottom edge now: insetd's
// frame for the turned output is still on its way, and the old one would pad
// the window Qt lays out for the new size in its first frame (a landscape
// keyboard 270 high across a portrait window). It covers nothing until
// insetd's next frame. A frame that fits the turned output is kept: insetd
// may have placed it there before Qt saw the turn (another client told it).
bool InsetdKeyboard::placedOnThisScreen() const
{
    QQuickWindow *window = m_window.window();
    if (!window || !window->screen())
        return true;
    const QSizeF screen = window->screen()->geometry().size();
    if (m_rectScreen.isEmpty() || screen == m_rectScreen)
        return true;
    return m_screenRect.right() <= screen.width() + 1 && m_screenRect.bottom() <= screen.height() + 1;
}

void InsetdKeyboard::setScreenRect(const QRectF &rect)
{
    m_screenRect = rect;
    QQuickWindow *window = m_window.window();
    m_rectScreen = window && window->screen() ? QSizeF(window->screen()->geometry().size()) : QSizeF();
}

void InsetdKeyboard::rotated(double width, double height, double seconds)
{
    struct insetd *ctx = m_connection.context();
    if (!ctx || !(width > 0) || !(height > 0))
        return;
    const insetd_size screen{width, height};
    insetd_transition(ctx, seconds, &screen);
}

void InsetdKeyboard::handle(insetd_event *event)
{
    insetd_state state;
    switch (insetd_event_get_type(event)) {
    case INSETD_EVENT_CONNECTED:
        insetd_event_get_state(event, &state);
        m_connected = true;
        m_visible = state.keyboard_visible;
        setScreenRect(QRectF(state.keyboard.x, state.keyboard.y, state.keyboard.width, state.keyboard.height));
        m_hardware = state.hardware_keyboard;
        m_window.setKeyboardUp(m_visible, m_screenRect);
        emit connectedChanged();
        emit changed();
        break;
    case INSETD_EVENT_DISCONNECTED:
        // No keyboard is known now: every view gets its own state back.
        m_connected = false;
        m_visible = false;
        m_window.setKeyboardUp(false, QRectF());
        // A new insetd has placed the window nowhere yet.
        m_window.placed(QPointF());
        m_views.restoreAll();
        emit connectedChanged();
        emit changed();
        break;
    case INSETD_EVENT_KEYBOARD: {
        const auto phase = insetd_event_keyboard_get_phase(event);
        const insetd_rect end = insetd_event_keyboard_get_end(event);
        m_visible = phase != INSETD_PHASE_WILL_HIDE && phase != INSETD_PHASE_DID_HIDE;
        setScreenRect(QRectF(end.x, end.y, end.width, end.height));
        m_window.setKeyboardUp(m_visible, m_screenRect);
        m_durationMs = int(std::lround(insetd_event_get_duration(event) * 1000));
        m_easing = curve(insetd_event_get_curve(event));
        emit changed();
        break;
    }
    case INSETD_EVENT_ADJUSTMENT:
        m_views.apply(event);
        break;
    case INSETD_EVENT_PLACED: {
        const insetd_point origin = insetd_event_placed_get_origin(event);
        m_window.placed(QPointF(origin.x, origin.y));
        break;
    }
    case INSETD_EVENT_FOCUS_LOST:
        m_focus.lost(QString::fromUtf8(insetd_event_get_view(event)));
        break;
    case INSETD_EVENT_POLICY:
        insetd_event_get_state(event, &state);
        if (m_hardware != state.hardware_keyboard) {
            m_hardware = state.hardware_keyboard;
            emit changed();
        }
        break;
    case INSETD_EVENT_ERROR:
        qCDebug(lcInsetd, "insetd refused a request: %s", insetd_event_get_code(event));
        break;
    default:
        break;
    }
}
