// Insetd.follow on a Flickable and Insetd.bottomInset on any item, on
// libinsetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "insetdattached.h"

#include <QGuiApplication>
#include <QInputMethod>
#include <QParallelAnimationGroup>
#include <QPropertyAnimation>
#include <QQmlInfo>
#include <QQuickItem>
#include <cmath>

#include <insetd.h>

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
    InsetdKeyboard *keyboard = InsetdKeyboard::existing();
    if (m_follow && keyboard)
        keyboard->views().remove(m_name);
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
        m_name = InsetdKeyboard::instance()->views().add(this);
    } else {
        for (const auto &c : std::as_const(m_connections))
            disconnect(c);
        m_connections.clear();
        restore();
        InsetdKeyboard::instance()->views().remove(m_name);
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
    // While insetd's animation runs, or its offset stands cut to a smaller
    // margin's range, the offset is insetd's own: the cut is not the user's
    // scroll, and insetd must not take it for one.
    const double shown = flick->property("contentY").toDouble();
    const bool insetdsOwn = m_animation || (m_adjusted && std::abs(shown - m_appliedContentY) < 0.5);
    const double contentY = insetdsOwn ? m_targetContentY : shown;
    d->content_offset = {flick->property("contentX").toDouble() - flick->property("originX").toDouble(),
                         contentY - flick->property("originY").toDouble()};
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
    m_targetBottomMargin = insetd_event_adjustment_get_adjusted_content_inset(event).bottom;
    m_targetContentY = flick->property("originY").toDouble() + insetd_event_adjustment_get_content_offset(event).y;
    // Never more than the keyboard covers of the Flickable at this frame, and
    // no offset past the content's end with that margin.
    const double bottomMargin = std::min(m_targetBottomMargin, m_originalBottomMargin + coveredNow());
    const double contentY = std::min(m_targetContentY, maxContentY(bottomMargin));
    const int ms = int(std::lround(insetd_event_get_duration(event) * 1000));
    if (m_animation) {
        m_animation->stop();
        delete m_animation;
    }
    m_appliedBottomMargin = bottomMargin;
    m_appliedContentY = contentY;
    m_adjusted = m_targetBottomMargin != m_originalBottomMargin;
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
    // A cut the animation held back (the margin may rise again) is made at its end.
    connect(group, &QAbstractAnimation::finished, this, [this] { QTimer::singleShot(0, this, &InsetdAttached::clampToKeyboard); });
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
    // Also while insetd's animation runs (a window sway shrinks meanwhile
    // must be told at once): the offset described is then the animation's end,
    // insetd's, so the update reads as a layout change, not the user scrolling.
    InsetdKeyboard::instance()->views().describe(m_name);
}

void InsetdAttached::setInset(double inset)
{
    if (inset == m_inset)
        return;
    m_inset = inset;
    if (m_follow)
        emit bottomInsetChanged();
}

// What the keyboard covers of the Flickable on the screen now: the keyboard
// in the window as it is at this frame (`InsetdKeyboard::rectangle`, not as
// insetd was last told of it), nothing once it was told hidden.
double InsetdAttached::coveredNow() const
{
    QQuickItem *flick = flickable();
    const QRectF keyboard = InsetdKeyboard::instance()->rectangle();
    if (!flick || keyboard.isEmpty())
        return 0;
    const QRectF rect = flick->mapRectToScene(QRectF(0, 0, flick->width(), flick->height()));
    return std::max(0.0, rect.intersected(keyboard).height());
}

// The keyboard or the window changed before insetd's next adjustment: the
// margin drops to the Flickable's own plus what the keyboard covers now, in
// this frame (an animation toward more is stopped), or back up to insetd's.
void InsetdAttached::clampToKeyboard()
{
    QQuickItem *flick = flickable();
    if (!flick || !m_adjusted || m_appliedBottomMargin < 0)
        return;
    const double margin = std::min(m_targetBottomMargin, m_originalBottomMargin + coveredNow());
    const double current = flick->property("bottomMargin").toDouble();
    if (m_animation && current <= margin + 0.5 && m_appliedBottomMargin <= margin + 0.5)
        return;
    if (std::abs(current - margin) < 0.5 && std::abs(m_appliedBottomMargin - margin) < 0.5)
        return;
    const bool userScrolled = !m_animation && std::abs(flick->property("contentY").toDouble() - m_appliedContentY) >= 0.5;
    m_appliedBottomMargin = margin;
    m_applying = true;
    flick->setProperty("bottomMargin", margin);
    if (m_animation) {
        // The scroll goes to insetd's offset at once, within the new margin's
        // range: stopped midway it would read as the user's.
        m_animation->stop();
        delete m_animation;
    }
    // insetd's offset was cut to a smaller margin's range (the window was
    // clear of the keyboard when it came): with the margin back up, the
    // field goes where insetd put it, unless the user has scrolled since.
    if (!userScrolled) {
        m_appliedContentY = std::min(m_targetContentY, maxContentY(margin));
        flick->setProperty("contentY", m_appliedContentY);
    }
    m_applying = false;
}

// The largest contentY the Flickable shows content at with `bottomMargin`.
double InsetdAttached::maxContentY(double bottomMargin) const
{
    QQuickItem *flick = flickable();
    const double top = flick->property("originY").toDouble() - flick->property("topMargin").toDouble();
    const double end = flick->property("originY").toDouble() + flick->property("contentHeight").toDouble() + bottomMargin
        - flick->height();
    return std::max(top, end);
}

void InsetdAttached::keyboardChanged()
{
    if (m_follow) {
        clampToKeyboard();
        return;
    }
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
