// The scroller around a focused field, Widgets or Quick, as an insetd view
// (docs/QT.md, "Every Qt app, zero code").
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMargins>
#include <QObject>
#include <QPointer>
#include <QRectF>

struct insetd_view_desc;
class QAbstractScrollArea;
class QWindow;

/// One scroller the plugin registered with insetd: a QScrollArea, a Qt Quick
/// Flickable (reached through its QML properties, so a Widgets app never loads
/// Qt Quick), or, for a field in neither, the window itself (reported so that
/// insetd decides the keyboard; nothing is applied to it). It describes the
/// scroller as the app laid it out and applies insetd's bottom inset and
/// offset on top, never more inset than the keyboard covers of it now.
class InsetdScroller : public QObject
{
    Q_OBJECT

public:
    enum Kind { ScrollArea, Flickable, Window };

    /// The innermost scroller holding @p field; nullptr when the field sits in
    /// a Flickable that the Insetd QML module follows (it applies, not us).
    static InsetdScroller *forField(QObject *field, QWindow *window, QObject *parent);
    /// The object the scroller stands for (the window for Kind::Window).
    static QObject *targetFor(QObject *field, QWindow *window, bool *followedByModule);

    InsetdScroller(Kind kind, QObject *target, QWindow *window, QObject *parent);
    ~InsetdScroller() override;

    Kind kind() const { return m_kind; }
    QObject *target() const { return m_target; }
    QWindow *window() const { return m_window; }
    const QString &name() const { return m_name; }
    void setName(const QString &name) { m_name = name; }

    /// The scroller as the app laid it out, in its window's coordinates.
    void describe(insetd_view_desc *out);
    /// Whether its frame or content size differs from the last description.
    bool describedChanged() const;
    /// @p field in the scroller's content coordinates.
    QRectF fieldRect(QObject *field) const;
    /// insetd's additional bottom inset and vertical offset.
    void apply(double inset, double offsetY);
    /// The keyboard, in the window's coordinates now, changed: the inset is
    /// cut to what it covers of the scroller (or back up to insetd's).
    void clamp(const QRectF &keyboardInWindow);
    /// The app's own state back (insetd gone).
    void restore();

signals:
    /// Geometry or content size changed: describe it to insetd again.
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QRectF frameInWindow() const;
    void setInset(double inset);
    void setOffset(double y);
    double offset() const;

    Kind m_kind;
    QPointer<QObject> m_target;
    QPointer<QWindow> m_window;
    QString m_name;
    QMargins m_ownViewportMargins;   // a QScrollArea's, as the app set them
    double m_ownBottomMargin = 0;    // a Flickable's
    double m_targetInset = 0;        // insetd's last word
    double m_applied = 0;            // what is applied now (<= covered)
    QRectF m_keyboard;               // in the window, as last told
    QRectF m_describedFrame;         // the last description's frame
    QSizeF m_describedContent;       // and content size
};

/// Where @p object (a QWidget or a QQuickItem) is in its window's coordinates.
QRectF insetdRectInWindow(QObject *object);
