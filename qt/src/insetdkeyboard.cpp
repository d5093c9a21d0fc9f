// Insetd.keyboard and the process's connection to insetd, on libinsetd
// (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "insetdkeyboard.h"
#include "insetdattached.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QInputMethod>
#include <QLoggingCategory>
#include <QQmlEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QSocketNotifier>
#include <cmath>

#include <insetd.h>

Q_LOGGING_CATEGORY(lcInsetd, "insetd", QtInfoMsg)

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

static void logHandler(struct insetd *, enum insetd_log_priority priority, const char *message, void *)
{
    // Connection state only: libinsetd never passes field contents or keys.
    // By name, not by order (libinsetd's order is libinput's: DEBUG < ERROR).
    if (priority == INSETD_LOG_ERROR)
        qCWarning(lcInsetd, "%s", message);
    else if (priority == INSETD_LOG_INFO)
        qCInfo(lcInsetd, "%s", message);
    else
        qCDebug(lcInsetd, "%s", message);
}

InsetdKeyboard::InsetdKeyboard()
    : m_easing(curve(INSETD_CURVE_EASE_IN_OUT))
{
    setParent(QCoreApplication::instance());
    const QByteArray name = QCoreApplication::applicationName().toUtf8();
    m_ctx = insetd_new(nullptr, name.isEmpty() ? "qt" : name.constData());
    if (!m_ctx) {
        qCWarning(lcInsetd, "cannot create an insetd context; the app runs without insets");
        return;
    }
    insetd_set_log_handler(m_ctx, logHandler, nullptr);
    insetd_subscribe(m_ctx, INSETD_TOPIC_POLICY);
    m_notifier = new QSocketNotifier(insetd_get_fd(m_ctx), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &InsetdKeyboard::dispatch);
    if (auto app = qobject_cast<QGuiApplication *>(QCoreApplication::instance())) {
        connect(app, &QGuiApplication::focusObjectChanged, this, &InsetdKeyboard::onFocusObjectChanged);
        // A TextArea's cursor moving to another line restates the field.
        connect(app->inputMethod(), &QInputMethod::cursorRectangleChanged, this,
                [this] { onFocusObjectChanged(QGuiApplication::focusObject()); });
    }
    m_windowTimer.setSingleShot(true);
    m_windowTimer.setInterval(0);
    connect(&m_windowTimer, &QTimer::timeout, this, &InsetdKeyboard::sendWindow);
}

InsetdKeyboard::~InsetdKeyboard()
{
    if (m_ctx)
        insetd_unref(m_ctx);
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
    if (!m_visible)
        return QRectF();
    // The window as it is now: a report to insetd of its new size may still be
    // on its way (sway shrinks it for the keyboard's zone, grows it back).
    QRectF window = m_window ? QRectF(QPointF(m_window->position()), QSizeF(m_window->size())) : m_windowRect;
    const QRectF covered = m_screenRect.intersected(window);
    if (covered.isEmpty())
        return QRectF();
    return covered.translated(-window.topLeft());
}

void InsetdKeyboard::rotated(double width, double height, double seconds)
{
    if (!m_ctx || !(width > 0) || !(height > 0))
        return;
    const insetd_size screen{width, height};
    insetd_transition(m_ctx, seconds, &screen);
}

void InsetdKeyboard::dispatch()
{
    if (!m_ctx)
        return;
    insetd_dispatch(m_ctx);
    while (insetd_event *event = insetd_get_event(m_ctx)) {
        handle(event);
        insetd_event_destroy(event);
    }
}

void InsetdKeyboard::handle(insetd_event *event)
{
    insetd_state state;
    switch (insetd_event_get_type(event)) {
    case INSETD_EVENT_CONNECTED:
        insetd_event_get_state(event, &state);
        m_connected = true;
        m_visible = state.keyboard_visible;
        m_screenRect = QRectF(state.keyboard.x, state.keyboard.y, state.keyboard.width, state.keyboard.height);
        m_hardware = state.hardware_keyboard;
        emit connectedChanged();
        emit changed();
        break;
    case INSETD_EVENT_DISCONNECTED:
        // No keyboard is known now: every view gets its own state back.
        m_connected = false;
        m_visible = false;
        restoreAll();
        emit connectedChanged();
        emit changed();
        break;
    case INSETD_EVENT_KEYBOARD: {
        const auto phase = insetd_event_keyboard_get_phase(event);
        const insetd_rect end = insetd_event_keyboard_get_end(event);
        m_visible = phase != INSETD_PHASE_WILL_HIDE && phase != INSETD_PHASE_DID_HIDE;
        m_screenRect = QRectF(end.x, end.y, end.width, end.height);
        m_durationMs = int(std::lround(insetd_event_get_duration(event) * 1000));
        m_easing = curve(insetd_event_get_curve(event));
        emit changed();
        break;
    }
    case INSETD_EVENT_ADJUSTMENT: {
        const auto view = m_views.value(QString::fromUtf8(insetd_event_get_view(event)));
        if (view)
            view->apply(event);
        break;
    }
    case INSETD_EVENT_FOCUS_LOST:
        if (m_focused == QString::fromUtf8(insetd_event_get_view(event)))
            m_focused.clear();
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

void InsetdKeyboard::restoreAll()
{
    for (const auto &view : std::as_const(m_views))
        if (view)
            view->restore();
}

QString InsetdKeyboard::add(InsetdAttached *view)
{
    const QString base = view->flickable()->objectName().isEmpty() ? QStringLiteral("flickable")
                                                                  : view->flickable()->objectName();
    const QString name = QStringLiteral("%1-%2").arg(base.left(200)).arg(m_nextView++);
    m_views.insert(name, view);
    if (!m_window && view->flickable()->window())
        setWindow(view->flickable()->window());
    describe(name);
    // A field that already has the focus inside it.
    onFocusObjectChanged(QGuiApplication::focusObject());
    return name;
}

void InsetdKeyboard::remove(const QString &name)
{
    m_views.remove(name);
    if (m_focused == name)
        m_focused.clear();
    if (m_ctx)
        insetd_unregister_view(m_ctx, name.toUtf8().constData());
}

void InsetdKeyboard::describe(const QString &name)
{
    const auto view = m_views.value(name);
    if (!view || !m_ctx)
        return;
    if (!m_window && view->flickable()->window())
        setWindow(view->flickable()->window());
    insetd_view_desc desc;
    insetd_view_desc_init(&desc);
    view->fillDescription(&desc);
    if (insetd_update_view(m_ctx, name.toUtf8().constData(), &desc) < 0)
        qCDebug(lcInsetd, "view %s not described: a size out of range", qPrintable(name));
}

void InsetdKeyboard::focus(const QString &name, const QRectF &field)
{
    if (!m_ctx)
        return;
    m_focused = name;
    insetd_focus(m_ctx, name.toUtf8().constData(), {field.x(), field.y(), field.width(), field.height()});
}

void InsetdKeyboard::blur(const QString &name)
{
    if (m_ctx)
        insetd_blur(m_ctx, name.toUtf8().constData());
    if (m_focused == name)
        m_focused.clear();
}

void InsetdKeyboard::onFocusObjectChanged(QObject *object)
{
    auto item = qobject_cast<QQuickItem *>(object);
    if (item && (item->flags() & QQuickItem::ItemAcceptsInputMethod)) {
        // The innermost followed Flickable holding the field.
        InsetdAttached *best = nullptr;
        for (const auto &view : std::as_const(m_views)) {
            if (view && view->contains(item) &&
                (!best || best->flickable()->isAncestorOf(view->flickable())))
                best = view;
        }
        if (best) {
            const QRectF field = best->fieldFor(item);
            if (best->view() != m_focused || field != m_lastField) {
                m_lastField = field;
                focus(best->view(), field);
            }
            return;
        }
    }
    if (!m_focused.isEmpty())
        blur(m_focused);
    m_lastField = QRectF();
}

void InsetdKeyboard::setWindow(QQuickWindow *window)
{
    if (m_window == window)
        return;
    if (m_window)
        disconnect(m_window, nullptr, &m_windowTimer, nullptr);
    m_window = window;
    if (!window)
        return;
    auto start = [this] { m_windowTimer.start(); };
    connect(window, &QWindow::xChanged, &m_windowTimer, start);
    connect(window, &QWindow::yChanged, &m_windowTimer, start);
    connect(window, &QWindow::widthChanged, &m_windowTimer, start);
    connect(window, &QWindow::heightChanged, &m_windowTimer, start);
    m_windowTimer.start();
}

// Where the window is on the screen: Qt's word for it. On Wayland a client is
// never told, and Qt says 0,0: the window is taken to be at the output's
// top-left, a kiosk's maximized or full-screen window (docs/QT.md).
void InsetdKeyboard::sendWindow()
{
    if (!m_window || !m_ctx || m_window->width() <= 0 || m_window->height() <= 0)
        return;
    m_windowRect = QRectF(QPointF(m_window->position()), QSizeF(m_window->size()));
    insetd_set_window(m_ctx, {m_windowRect.x(), m_windowRect.y(), m_windowRect.width(), m_windowRect.height()});
    emit changed();
}
