// QT_IM_MODULE=insetd: focus reports to insetd, its keyboard to QInputMethod,
// its inset and offset to the field's scroller, on libinsetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "inputcontext.h"
#include "scroller.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QLoggingCategory>
#include <QScreen>
#include <QSocketNotifier>
#include <qpa/qplatforminputcontextfactory_p.h>

#include <insetd.h>
#include <insetdanswer.h>
#include <insetdturn.h>

Q_LOGGING_CATEGORY(lcInsetdIm, "insetd.im", QtInfoMsg)

static void logHandler(struct insetd *, enum insetd_log_priority priority, const char *message, void *)
{
    // Connection state only: libinsetd never passes field contents or keys.
    switch (priority) {
    case INSETD_LOG_ERROR: qCWarning(lcInsetdIm, "%s", message); break;
    case INSETD_LOG_INFO: qCInfo(lcInsetdIm, "%s", message); break;
    default: qCDebug(lcInsetdIm, "%s", message); break;
    }
}

InsetdInputContext::InsetdInputContext(const QString &inner)
{
    // QT_IM_MODULE names only one context: the one the user would have had
    // follows insetd's name, created by Qt's own factory and passed every call.
    if (!inner.isEmpty() && inner.compare(QLatin1String("insetd"), Qt::CaseInsensitive) != 0) {
        m_inner = QPlatformInputContextFactory::create(inner);
        if (!m_inner)
            qCWarning(lcInsetdIm, "no input context %s to pass input to", qPrintable(inner));
        else
            qCInfo(lcInsetdIm, "passing input to %s", qPrintable(inner));
    }
    const QByteArray name = "qt-im:" + QCoreApplication::applicationName().toUtf8().left(100);
    m_ctx = insetd_new(nullptr, name.constData());
    if (!m_ctx) {
        qCWarning(lcInsetdIm, "cannot create an insetd context; the app runs without insets");
        return;
    }
    insetd_set_log_handler(m_ctx, logHandler, nullptr);
    m_notifier = new QSocketNotifier(insetd_get_fd(m_ctx), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &InsetdInputContext::dispatch);
    // After the focus change has been laid out (a Quick item's geometry).
    m_reportTimer.setSingleShot(true);
    m_reportTimer.setInterval(0);
    connect(&m_reportTimer, &QTimer::timeout, this, &InsetdInputContext::report);
    m_windowTimer.setSingleShot(true);
    m_windowTimer.setInterval(0);
    connect(&m_windowTimer, &QTimer::timeout, this, &InsetdInputContext::sendWindow);
}

InsetdInputContext::~InsetdInputContext()
{
    delete m_inner;
    qDeleteAll(m_scrollers);
    if (m_ctx)
        insetd_unref(m_ctx);
}

bool InsetdInputContext::filterEvent(const QEvent *event)
{
    return m_inner ? m_inner->filterEvent(event) : QPlatformInputContext::filterEvent(event);
}

void InsetdInputContext::reset()
{
    if (m_inner)
        m_inner->reset();
}

void InsetdInputContext::commit()
{
    if (m_inner)
        m_inner->commit();
}

void InsetdInputContext::invokeAction(QInputMethod::Action action, int cursorPosition)
{
    if (m_inner)
        m_inner->invokeAction(action, cursorPosition);
}

bool InsetdInputContext::hasCapability(Capability capability) const
{
    return m_inner ? m_inner->hasCapability(capability) : QPlatformInputContext::hasCapability(capability);
}

QLocale InsetdInputContext::locale() const
{
    return m_inner ? m_inner->locale() : QPlatformInputContext::locale();
}

Qt::LayoutDirection InsetdInputContext::inputDirection() const
{
    return m_inner ? m_inner->inputDirection() : QPlatformInputContext::inputDirection();
}

void InsetdInputContext::setFocusObject(QObject *object)
{
    if (m_inner)
        m_inner->setFocusObject(object);
    m_field = inputMethodAccepted() ? object : nullptr;
    if (QWindow *window = QGuiApplication::focusWindow())
        setWindow(window);
    if (!m_field) {
        // At once: the keyboard goes as soon as insetd can decide.
        blur();
        return;
    }
    m_reportTimer.start();
}

// Qt restates the focused item's queries (its cursor moved, it was scrolled or
// resized): a field that moved in its scroller is restated to insetd. No
// query's value (the text, the surrounding text) is read.
void InsetdInputContext::update(Qt::InputMethodQueries queries)
{
    if (m_inner)
        m_inner->update(queries);
    if (m_field && (queries & (Qt::ImCursorRectangle | Qt::ImEnabled)))
        m_reportTimer.start();
}

InsetdScroller *InsetdInputContext::scrollerFor(QObject *field)
{
    bool module = false;
    QObject *target = InsetdScroller::targetFor(field, m_window, &module);
    if (!target)
        return nullptr;
    if (InsetdScroller *known = m_scrollers.value(target))
        return known;
    InsetdScroller *scroller = InsetdScroller::forField(field, m_window, this);
    if (!scroller)
        return nullptr;
    static const char *kinds[] = {"scrollarea", "flickable", "window"};
    const QString base = target->objectName().isEmpty() ? QString::fromLatin1(kinds[scroller->kind()])
                                                        : target->objectName().left(100);
    scroller->setName(QStringLiteral("%1-%2").arg(base).arg(m_nextView++));
    m_scrollers.insert(target, scroller);
    scroller->clamp(m_keyboardInWindow);
    connect(scroller, &InsetdScroller::changed, this, [this, scroller] {
        // The window or the scroller changed under an applied inset: cut it in
        // this frame, then tell insetd. Not when only the inset insetd asked
        // for moved the viewport (the frame is described without it): an echo
        // of insetd's own offset made it answer again, round and round, and
        // it could stop on an offset that left the field below the window.
        scroller->clamp(m_keyboardInWindow);
        if (scroller->describedChanged())
            describe(scroller);
    });
    connect(target, &QObject::destroyed, this, [this, target, scroller] {
        m_scrollers.remove(target);
        if (m_ctx)
            insetd_unregister_view(m_ctx, scroller->name().toUtf8().constData());
        if (m_focused == scroller)
            m_focused = nullptr;
        delete scroller;
    });
    return scroller;
}

void InsetdInputContext::describe(InsetdScroller *scroller)
{
    if (!m_ctx)
        return;
    // The window first: insetd must not judge a shrunk scroller against the
    // window's old size (the window's own report waits for the event loop).
    sendPendingWindow();
    insetd_view_desc desc;
    insetd_view_desc_init(&desc);
    scroller->describe(&desc);
    qCDebug(lcInsetdIm, "describe %s frame %g,%g %gx%g offset %g", qPrintable(scroller->name()), desc.frame.x, desc.frame.y,
            desc.frame.width, desc.frame.height, desc.content_offset.y);
    if (insetd_update_view(m_ctx, scroller->name().toUtf8().constData(), &desc) < 0)
        qCDebug(lcInsetdIm, "view %s not described: a size out of range", qPrintable(scroller->name()));
}

void InsetdInputContext::report()
{
    if (!m_ctx)
        return;
    if (!m_field || !inputMethodAccepted()) {
        blur();
        return;
    }
    InsetdScroller *scroller = scrollerFor(m_field);
    if (!scroller) {
        // The Insetd QML module follows this field's Flickable: it reports.
        blur();
        return;
    }
    if (m_focused && m_focused != scroller)
        blur();
    const QRectF field = scroller->fieldRect(m_field);
    // Nothing new (Qt restates its queries at every key): nothing is sent, so
    // not even the typing's rhythm reaches insetd.
    if (scroller == m_focused && field == m_lastField)
        return;
    describe(scroller);
    m_focused = scroller;
    m_lastField = field;
    qCDebug(lcInsetdIm, "focus %s field %g,%g", qPrintable(scroller->name()), field.y(), field.height());
    insetd_focus(m_ctx, scroller->name().toUtf8().constData(), {field.x(), field.y(), field.width(), field.height()});
}

void InsetdInputContext::blur()
{
    if (m_focused && m_ctx)
        insetd_blur(m_ctx, m_focused->name().toUtf8().constData());
    m_focused = nullptr;
    m_lastField = QRectF();
}

void InsetdInputContext::setWindow(QWindow *window)
{
    if (m_window == window)
        return;
    if (m_window)
        disconnect(m_window, nullptr, this, nullptr);
    m_window = window;
    // At once, not deferred: an inset over what the keyboard covers of the
    // window as it is now is cut before the window's next frame.
    for (auto signal : {&QWindow::xChanged, &QWindow::yChanged, &QWindow::widthChanged, &QWindow::heightChanged})
        connect(window, signal, this, [this] {
            // A turned output first (its new size may reach Qt after the
            // window's), then the keyboard over the window as it is now.
            sendScreen();
            keyboardChanged();
            m_resized = true;
            m_windowTimer.start();
        });
    // A Qt Quick window: on the GUI thread after the frame's polish (the
    // views laid out for the new size), before its sync, so what is applied
    // there is in the frame. Widgets paint on the GUI thread after the
    // event loop's turn, in time for insetd's answer as it is.
    if (window->metaObject()->indexOfSignal("afterAnimating()") >= 0)
        connect(window, SIGNAL(afterAnimating()), this, SLOT(beforeFrame()), Qt::DirectConnection);
    connect(window, &QWindow::screenChanged, this, &InsetdInputContext::watchScreen);
    watchScreen(window->screen());
    keyboardChanged();
    m_windowTimer.start();
}

void InsetdInputContext::watchScreen(QScreen *screen)
{
    disconnect(m_screenWatch);
    if (screen)
        m_screenWatch = connect(screen, &QScreen::geometryChanged, this, &InsetdInputContext::sendScreen);
    sendScreen();
}

// The output the window is on turned (or the window moved to another): insetd
// lays the views out anew with the keyboard of that orientation
// (insetdOutputTurned), and the keyboard insetd described for the other one
// covers nothing until insetd's word for this one.
void InsetdInputContext::sendScreen()
{
    if (!m_window || !m_window->screen())
        return;
    const QSize size = m_window->screen()->geometry().size();
    if (!insetdOutputTurned(m_ctx, m_screen, size))
        return;
    qCDebug(lcInsetdIm, "screen %dx%d", size.width(), size.height());
    m_keyboardTurned = m_ctx != nullptr;
    keyboardChanged();
}

// Where the window is on the screen: Qt's word for it; on Wayland no client is
// told and Qt says 0,0, so the window is taken to be at the output's top-left
// (a maximized or full-screen window), as the Insetd QML module does.
void InsetdInputContext::sendWindow()
{
    if (!m_window || !m_ctx || m_window->width() <= 0 || m_window->height() <= 0)
        return;
    qCDebug(lcInsetdIm, "window %d", m_window->height());
    insetd_set_window(m_ctx, {double(m_window->x()), double(m_window->y()), double(m_window->width()),
                              double(m_window->height())});
}

// The window's report now, if one is waiting for the event loop (sent once:
// libinsetd sends every call).
void InsetdInputContext::sendPendingWindow()
{
    if (!m_windowTimer.isActive())
        return;
    m_windowTimer.stop();
    sendWindow();
}

// The keyboard in the window as it is now, for QInputMethod and the scrollers.
void InsetdInputContext::keyboardChanged()
{
    QRectF inWindow;
    if (m_visible && m_window && !m_keyboardTurned) {
        const QRectF window(m_window->x(), m_window->y(), m_window->width(), m_window->height());
        const QRectF covered = m_screenRect.intersected(window);
        if (!covered.isEmpty())
            inWindow = covered.translated(-window.topLeft());
    }
    for (InsetdScroller *scroller : std::as_const(m_scrollers))
        if (scroller->window() == m_window)
            scroller->clamp(inWindow);
    if (inWindow != m_keyboardInWindow) {
        m_keyboardInWindow = inWindow;
        emitKeyboardRectChanged();
    }
}

void InsetdInputContext::dispatch()
{
    if (!m_ctx)
        return;
    insetd_dispatch(m_ctx);
    deliverQueued();
}

void InsetdInputContext::deliverQueued()
{
    while (insetd_event *event = insetd_get_event(m_ctx)) {
        handle(event);
        insetd_event_destroy(event);
    }
}

// The compositor resized the window with a field focused in it (made room for
// the keyboard, or took it back), and Qt Quick is about to show the new size:
// the window and the focused view go to insetd now, and its answer (the field
// scrolled into the new size) into this frame, not the next one, as the Insetd
// QML module does (insetdAwaitAnswer: bounded).
void InsetdInputContext::beforeFrame()
{
    if (!m_resized)
        return;
    m_resized = false;
    if (!m_ctx || !insetd_is_connected(m_ctx) || !m_focused || m_focused->window() != m_window)
        return;
    sendPendingWindow();
    if (m_focused->describedChanged())
        describe(m_focused);
    insetdAwaitAnswer(m_ctx, lcInsetdIm());
    deliverQueued();
}

void InsetdInputContext::handle(insetd_event *event)
{
    const bool wasVisible = m_visible;
    const bool wasAnimating = m_animating;
    switch (insetd_event_get_type(event)) {
    case INSETD_EVENT_CONNECTED: {
        insetd_state state;
        insetd_event_get_state(event, &state);
        m_visible = state.keyboard_visible;
        m_screenRect = QRectF(state.keyboard.x, state.keyboard.y, state.keyboard.width, state.keyboard.height);
        m_keyboardTurned = false;
        m_windowTimer.start();
        break;
    }
    case INSETD_EVENT_DISCONNECTED:
        // No keyboard is known now: every scroller gets its own state back.
        m_visible = false;
        m_animating = false;
        for (InsetdScroller *scroller : std::as_const(m_scrollers))
            scroller->restore();
        break;
    case INSETD_EVENT_KEYBOARD: {
        const auto phase = insetd_event_keyboard_get_phase(event);
        const insetd_rect end = insetd_event_keyboard_get_end(event);
        m_visible = phase != INSETD_PHASE_WILL_HIDE && phase != INSETD_PHASE_DID_HIDE;
        m_animating = phase == INSETD_PHASE_WILL_SHOW || phase == INSETD_PHASE_WILL_HIDE
            || phase == INSETD_PHASE_WILL_CHANGE_FRAME;
        m_screenRect = QRectF(end.x, end.y, end.width, end.height);
        m_keyboardTurned = false;
        break;
    }
    case INSETD_EVENT_ADJUSTMENT:
        for (InsetdScroller *scroller : std::as_const(m_scrollers)) {
            if (scroller->name() == QString::fromUtf8(insetd_event_get_view(event))) {
                qCDebug(lcInsetdIm, "adjustment %s inset %g offset %g", qPrintable(scroller->name()),
                        insetd_event_adjustment_get_additional_bottom_inset(event),
                        insetd_event_adjustment_get_content_offset(event).y);
                scroller->clamp(m_keyboardInWindow);
                scroller->apply(insetd_event_adjustment_get_additional_bottom_inset(event),
                                insetd_event_adjustment_get_content_offset(event).y);
            }
        }
        return;
    case INSETD_EVENT_FOCUS_LOST:
        if (m_focused && m_focused->name() == QString::fromUtf8(insetd_event_get_view(event))) {
            m_focused = nullptr;
            m_lastField = QRectF();
        }
        return;
    default:
        return;
    }
    keyboardChanged();
    if (m_visible != wasVisible)
        emitInputPanelVisibleChanged();
    if (m_animating != wasAnimating)
        emitAnimatingChanged();
}
