// The scroller around a focused field as an insetd view: find it, describe
// it, apply insetd's inset and offset to it (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include "scroller.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QVariant>
#include <QWidget>
#include <QWindow>
#include <cmath>

#include <insetd.h>

namespace {

// setViewportMargins is protected: the margin under the viewport is how a
// QScrollArea is padded without touching the app's layout.
struct ViewportMargins : QAbstractScrollArea {
    using QAbstractScrollArea::setViewportMargins;
    using QAbstractScrollArea::viewportMargins;
};

QObject *parentItem(QObject *item)
{
    return item->property("parent").value<QObject *>();
}

bool isFlickable(QObject *o)
{
    return o && o->inherits("QQuickFlickable");
}

// The Insetd QML module's attached object on a Flickable it follows.
bool followedByModule(QObject *flickable)
{
    for (QObject *child : flickable->children())
        if (qstrcmp(child->metaObject()->className(), "InsetdAttached") == 0 && child->property("follow").toBool())
            return true;
    return false;
}

double number(QObject *o, const char *name)
{
    return o->property(name).toDouble();
}

} // namespace

// Qt Quick items are reached through their properties (the plugin does not
// load Qt Quick into a Widgets app): positions add up along the parents, so
// a scaled or rotated ancestor is not accounted for (docs/QT.md, limits).
QRectF insetdRectInWindow(QObject *object)
{
    if (auto widget = qobject_cast<QWidget *>(object))
        return QRectF(widget->mapTo(widget->window(), QPoint(0, 0)), QSizeF(widget->size()));
    if (!object || !object->inherits("QQuickItem"))
        return QRectF();
    QRectF rect(0, 0, number(object, "width"), number(object, "height"));
    for (QObject *item = object; item; item = parentItem(item))
        rect.translate(number(item, "x"), number(item, "y"));
    return rect;
}

QObject *InsetdScroller::targetFor(QObject *field, QWindow *window, bool *module)
{
    *module = false;
    if (auto widget = qobject_cast<QWidget *>(field)) {
        // A QTextEdit is a scroll area itself: its enclosing one is wanted.
        for (QWidget *w = widget->parentWidget(); w; w = w->parentWidget())
            if (auto area = qobject_cast<QScrollArea *>(w); area && area->widget() && area->widget()->isAncestorOf(widget))
                return area;
        return window;
    }
    if (field && field->inherits("QQuickItem")) {
        QObject *innermost = nullptr;
        for (QObject *item = parentItem(field); item; item = parentItem(item)) {
            if (!isFlickable(item))
                continue;
            if (followedByModule(item)) {
                *module = true;
                return nullptr;
            }
            if (!innermost)
                innermost = item;
        }
        return innermost ? innermost : window;
    }
    return window;
}

InsetdScroller *InsetdScroller::forField(QObject *field, QWindow *window, QObject *parent)
{
    bool module = false;
    QObject *target = targetFor(field, window, &module);
    if (!target)
        return nullptr;
    Kind kind = qobject_cast<QScrollArea *>(target) ? ScrollArea : isFlickable(target) ? Flickable : Window;
    return new InsetdScroller(kind, target, window, parent);
}

InsetdScroller::InsetdScroller(Kind kind, QObject *target, QWindow *window, QObject *parent)
    : QObject(parent), m_kind(kind), m_target(target), m_window(window)
{
    if (auto area = qobject_cast<QScrollArea *>(target)) {
        m_ownViewportMargins = static_cast<ViewportMargins *>(static_cast<QAbstractScrollArea *>(area))->viewportMargins();
        area->installEventFilter(this);
        if (area->widget())
            area->widget()->installEventFilter(this);
    } else if (kind == Flickable) {
        m_ownBottomMargin = number(target, "bottomMargin");
        for (const char *signal : {SIGNAL(widthChanged()), SIGNAL(heightChanged()), SIGNAL(xChanged()),
                                   SIGNAL(yChanged()), SIGNAL(contentHeightChanged()), SIGNAL(contentWidthChanged())})
            connect(target, signal, this, SIGNAL(changed()));
    }
}

InsetdScroller::~InsetdScroller()
{
    restore();
}

bool InsetdScroller::eventFilter(QObject *, QEvent *event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::Move)
        emit changed();
    return false;
}

// The scroller's frame as laid out, without the inset applied to it.
QRectF InsetdScroller::frameInWindow() const
{
    if (!m_target)
        return QRectF();
    switch (m_kind) {
    case ScrollArea: {
        QRectF r = insetdRectInWindow(static_cast<QAbstractScrollArea *>(m_target.data())->viewport());
        r.setHeight(r.height() + m_applied);
        return r;
    }
    case Flickable:
        return insetdRectInWindow(m_target);
    case Window:
        return m_window ? QRectF(0, 0, m_window->width(), m_window->height()) : QRectF();
    }
    return QRectF();
}

double InsetdScroller::offset() const
{
    if (!m_target)
        return 0;
    if (m_kind == ScrollArea)
        return static_cast<QAbstractScrollArea *>(m_target.data())->verticalScrollBar()->value();
    if (m_kind == Flickable)
        return number(m_target, "contentY") - number(m_target, "originY");
    return 0;
}

bool InsetdScroller::describedChanged() const
{
    QSizeF content = frameInWindow().size();
    if (auto area = qobject_cast<QScrollArea *>(m_target.data()); area && area->widget())
        content = QSizeF(area->widget()->size());
    else if (m_kind == Flickable)
        content = QSizeF(number(m_target, "contentWidth"), number(m_target, "contentHeight"));
    return frameInWindow() != m_describedFrame || content != m_describedContent;
}

void InsetdScroller::describe(insetd_view_desc *d)
{
    const QRectF frame = frameInWindow();
    d->frame = {frame.x(), frame.y(), std::max(0.0, frame.width()), std::max(0.0, frame.height())};
    QSizeF content = frame.size();
    if (auto area = qobject_cast<QScrollArea *>(m_target.data()); area && area->widget())
        content = QSizeF(area->widget()->size());
    else if (m_kind == Flickable) {
        content = QSizeF(number(m_target, "contentWidth"), number(m_target, "contentHeight"));
        d->content_inset = {number(m_target, "topMargin"), number(m_target, "leftMargin"), m_ownBottomMargin,
                            number(m_target, "rightMargin")};
    }
    d->content_size = {std::max(0.0, content.width()), std::max(0.0, content.height())};
    m_describedFrame = frame;
    m_describedContent = content;
    d->content_offset = {0, offset()};
    // The app lays its content out itself.
    d->content_stretches = false;
    d->behavior = INSETD_BEHAVIOR_SAFE_AREA_INSETS;
}

QRectF InsetdScroller::fieldRect(QObject *field) const
{
    QRectF rect = insetdRectInWindow(field);
    if (m_kind == ScrollArea) {
        auto area = static_cast<QScrollArea *>(m_target.data());
        rect.translate(-insetdRectInWindow(area->widget()).topLeft());
    } else if (m_kind == Flickable) {
        QObject *content = m_target->property("contentItem").value<QObject *>();
        rect.translate(-insetdRectInWindow(content).topLeft());
        rect.translate(-number(m_target, "originX"), -number(m_target, "originY"));
    }
    return rect;
}

void InsetdScroller::apply(double inset, double offsetY)
{
    m_targetInset = inset;
    const QRectF covered = m_keyboard.intersected(frameInWindow());
    setInset(std::min(inset, std::max(0.0, covered.height())));
    setOffset(offsetY);
}

void InsetdScroller::clamp(const QRectF &keyboardInWindow)
{
    m_keyboard = keyboardInWindow;
    const QRectF covered = m_keyboard.intersected(frameInWindow());
    setInset(std::min(m_targetInset, std::max(0.0, covered.height())));
}

void InsetdScroller::restore()
{
    m_targetInset = 0;
    setInset(0);
}

void InsetdScroller::setInset(double inset)
{
    if (!m_target || m_kind == Window || std::abs(inset - m_applied) < 0.5)
        return;
    m_applied = inset;
    if (m_kind == ScrollArea) {
        QMargins margins = m_ownViewportMargins;
        margins.setBottom(margins.bottom() + int(std::lround(inset)));
        static_cast<ViewportMargins *>(static_cast<QAbstractScrollArea *>(m_target.data()))->setViewportMargins(margins);
    } else {
        m_target->setProperty("bottomMargin", m_ownBottomMargin + inset);
    }
}

void InsetdScroller::setOffset(double y)
{
    if (!m_target)
        return;
    if (m_kind == ScrollArea) {
        static_cast<QAbstractScrollArea *>(m_target.data())->verticalScrollBar()->setValue(int(std::lround(y)));
    } else if (m_kind == Flickable) {
        // Within the range the margin applied now allows.
        const double origin = number(m_target, "originY");
        const double end = origin + number(m_target, "contentHeight") + m_ownBottomMargin + m_applied
            - number(m_target, "height");
        const double top = origin - number(m_target, "topMargin");
        m_target->setProperty("contentY", std::max(top, std::min(origin + y, std::max(top, end))));
    }
}
