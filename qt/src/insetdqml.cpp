// The Insetd QML module on libinsetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "insetdqml.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QInputMethod>
#include <QLoggingCategory>
#include <QParallelAnimationGroup>
#include <QPropertyAnimation>
#include <QQmlEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QSocketNotifier>
#include <cmath>

#include <insetd.h>

Q_LOGGING_CATEGORY(lcInsetd, "insetd", QtInfoMsg)

// ---------------------------------------------------------------------------
// InsetdKeyboard: the process's connection and the keyboard it publishes

static InsetdKeyboard *s_keyboard = nullptr;

InsetdKeyboard *InsetdKeyboard::instance()
{
    if (!s_keyboard) {
        s_keyboard = new InsetdKeyboard;
        QQmlEngine::setObjectOwnership(s_keyboard, QQmlEngine::CppOwnership);
    }
    return s_keyboard;
}

static void logHandler(struct insetd *, enum insetd_log_priority priority, const char *message, void *)
{
    // Connection state only: libinsetd never passes field contents or keys.
    if (priority <= INSETD_LOG_ERROR)
        qCWarning(lcInsetd, "%s", message);
    else if (priority <= INSETD_LOG_INFO)
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
    QRectF window = m_windowRect;
    if (window.isEmpty() && m_window)
        window = QRectF(QPointF(0, 0), QSizeF(m_window->size()));
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

// ---------------------------------------------------------------------------
// InsetdAttached: Insetd.follow on a Flickable, Insetd.bottomInset anywhere

InsetdAttached::InsetdAttached(QObject *parent)
    : QObject(parent)
{
    m_updateTimer.setSingleShot(true);
    m_updateTimer.setInterval(0);
    connect(&m_updateTimer, &QTimer::timeout, this, &InsetdAttached::sendUpdate);
    connect(InsetdKeyboard::instance(), &InsetdKeyboard::changed, this, &InsetdAttached::keyboardChanged);
    if (auto item = qobject_cast<QQuickItem *>(parent)) {
        connect(item, &QQuickItem::heightChanged, this, &InsetdAttached::keyboardChanged);
        connect(item, &QQuickItem::yChanged, this, &InsetdAttached::keyboardChanged);
        connect(item, &QQuickItem::windowChanged, this, &InsetdAttached::keyboardChanged);
    }
    keyboardChanged();
}

InsetdAttached::~InsetdAttached()
{
    // The Flickable is being destroyed: unregister, touch nothing of it.
    if (m_follow && s_keyboard)
        s_keyboard->remove(m_name);
}

QQuickItem *InsetdAttached::flickable() const
{
    return qobject_cast<QQuickItem *>(parent());
}

void InsetdAttached::setFollow(bool follow)
{
    if (follow == m_follow)
        return;
    QQuickItem *flick = flickable();
    if (follow && (!flick || !flick->inherits("QQuickFlickable"))) {
        qmlWarning(parent()) << "Insetd.follow works on a Flickable (ListView, GridView, a ScrollView's flickable)";
        return;
    }
    m_follow = follow;
    if (follow) {
        m_originalBottomMargin = flick->property("bottomMargin").toDouble();
        const char *geometry[] = {SIGNAL(widthChanged()),         SIGNAL(heightChanged()),
                                  SIGNAL(xChanged()),             SIGNAL(yChanged()),
                                  SIGNAL(contentWidthChanged()),  SIGNAL(contentHeightChanged()),
                                  SIGNAL(topMarginChanged()),     SIGNAL(leftMarginChanged()),
                                  SIGNAL(rightMarginChanged()),   SIGNAL(originYChanged())};
        for (const char *signal : geometry)
            m_connections << connect(flick, signal, this, SLOT(scheduleUpdate()));
        m_connections << connect(flick, SIGNAL(bottomMarginChanged()), this, SLOT(onBottomMarginChanged()));
        m_connections << connect(flick, &QQuickItem::windowChanged, this, &InsetdAttached::scheduleUpdate);
        m_name = InsetdKeyboard::instance()->add(this);
    } else {
        for (const auto &c : std::as_const(m_connections))
            disconnect(c);
        m_connections.clear();
        restore();
        InsetdKeyboard::instance()->remove(m_name);
        m_name.clear();
    }
    emit followChanged();
}

double InsetdAttached::bottomInset() const
{
    return m_follow ? m_inset : m_coveredInset;
}

bool InsetdAttached::contains(QQuickItem *item) const
{
    QQuickItem *flick = flickable();
    return flick && item && flick->isAncestorOf(item);
}

void InsetdAttached::fillDescription(void *out) const
{
    auto *d = static_cast<insetd_view_desc *>(out);
    QQuickItem *flick = flickable();
    const QRectF frame = flick->mapRectToScene(QRectF(0, 0, flick->width(), flick->height()));
    d->frame = {frame.x(), frame.y(), std::max(0.0, frame.width()), std::max(0.0, frame.height())};
    double contentWidth = flick->property("contentWidth").toDouble();
    double contentHeight = flick->property("contentHeight").toDouble();
    if (contentWidth < 0)
        contentWidth = flick->width();
    if (contentHeight < 0)
        contentHeight = flick->height();
    d->content_size = {std::max(0.0, contentWidth), std::max(0.0, contentHeight)};
    // The app's own margins are the content insets; insetd's bottom goes on top.
    d->content_inset = {flick->property("topMargin").toDouble(), flick->property("leftMargin").toDouble(),
                        m_originalBottomMargin, flick->property("rightMargin").toDouble()};
    d->content_offset = {flick->property("contentX").toDouble() - flick->property("originX").toDouble(),
                         flick->property("contentY").toDouble() - flick->property("originY").toDouble()};
    // The app lays its content out itself: insetd must not stretch it.
    d->content_stretches = false;
    d->behavior = INSETD_BEHAVIOR_SAFE_AREA_INSETS;
}

// The field in insetd's content coordinates (the Flickable's content item,
// less its origin): the text item's bounds, or for a tall one (a TextArea) the
// cursor's rectangle.
QRectF InsetdAttached::fieldFor(QQuickItem *item) const
{
    QQuickItem *flick = flickable();
    QQuickItem *content = flick->property("contentItem").value<QQuickItem *>();
    if (!content)
        content = flick;
    QRectF field = item->mapRectToItem(content, QRectF(0, 0, item->width(), item->height()));
    if (field.height() > flick->height() / 2) {
        const QRectF cursor = QGuiApplication::inputMethod()->cursorRectangle();
        if (cursor.isValid())
            field = content->mapRectFromScene(cursor);
    }
    field.translate(-flick->property("originX").toDouble(), -flick->property("originY").toDouble());
    return field;
}

void InsetdAttached::apply(insetd_event *event)
{
    QQuickItem *flick = flickable();
    if (!flick || !m_follow)
        return;
    const double bottomMargin = insetd_event_adjustment_get_adjusted_content_inset(event).bottom;
    const double contentY = flick->property("originY").toDouble() + insetd_event_adjustment_get_content_offset(event).y;
    const int ms = int(std::lround(insetd_event_get_duration(event) * 1000));
    if (m_animation) {
        m_animation->stop();
        delete m_animation;
    }
    m_appliedBottomMargin = bottomMargin;
    m_adjusted = bottomMargin != m_originalBottomMargin;
    setInset(insetd_event_adjustment_get_additional_bottom_inset(event));
    if (ms <= 0) {
        m_applying = true;
        flick->setProperty("bottomMargin", bottomMargin);
        flick->setProperty("contentY", contentY);
        m_applying = false;
        return;
    }
    auto group = new QParallelAnimationGroup(this);
    const QEasingCurve easing = InsetdKeyboard::curve(insetd_event_get_curve(event));
    for (const auto &[property, value] : {std::pair<QByteArray, double>{"bottomMargin", bottomMargin},
                                          std::pair<QByteArray, double>{"contentY", contentY}}) {
        auto animation = new QPropertyAnimation(flick, property, group);
        animation->setDuration(ms);
        animation->setEasingCurve(easing);
        animation->setEndValue(value);
        group->addAnimation(animation);
    }
    m_animation = group;
    group->start(QAbstractAnimation::DeleteWhenStopped);
}

// insetd is gone: the Flickable's own margin back, exactly.
void InsetdAttached::restore()
{
    if (m_animation) {
        m_animation->stop();
        delete m_animation;
    }
    QQuickItem *flick = flickable();
    if (m_adjusted && flick) {
        m_applying = true;
        flick->setProperty("bottomMargin", m_originalBottomMargin);
        m_applying = false;
    }
    m_adjusted = false;
    m_appliedBottomMargin = -1;
    setInset(0);
}

void InsetdAttached::onBottomMarginChanged()
{
    QQuickItem *flick = flickable();
    if (m_applying || m_animation || !flick)
        return;
    const double value = flick->property("bottomMargin").toDouble();
    if (value == m_appliedBottomMargin)
        return;
    // The app set its own margin: that is the view's description from now on.
    m_originalBottomMargin = value;
    m_adjusted = false;
    scheduleUpdate();
}

void InsetdAttached::scheduleUpdate()
{
    if (m_follow)
        m_updateTimer.start();
}

void InsetdAttached::sendUpdate()
{
    if (!m_follow)
        return;
    // Not while insetd's own animation runs: its offset would read as the
    // user scrolling.
    if (m_animation) {
        m_updateTimer.start(50);
        return;
    }
    m_updateTimer.setInterval(0);
    InsetdKeyboard::instance()->describe(m_name);
}

void InsetdAttached::setInset(double inset)
{
    if (inset == m_inset)
        return;
    m_inset = inset;
    if (m_follow)
        emit bottomInsetChanged();
}

void InsetdAttached::keyboardChanged()
{
    if (m_follow)
        return;
    auto item = qobject_cast<QQuickItem *>(parent());
    double covered = 0;
    const QRectF keyboard = InsetdKeyboard::instance()->rectangle();
    if (item && item->window() && !keyboard.isEmpty()) {
        const QRectF rect = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        covered = std::max(0.0, rect.intersected(keyboard).height());
    }
    if (covered != m_coveredInset) {
        m_coveredInset = covered;
        emit bottomInsetChanged();
    }
}
