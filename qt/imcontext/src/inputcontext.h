// QT_IM_MODULE=insetd: every Qt app reports its focused field to insetd and
// follows insetd's keyboard, without a line of its own (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QPointer>
#include <QRectF>
#include <QTimer>
#include <QWindow>
#include <qpa/qplatforminputcontext.h>

struct insetd;
struct insetd_event;
class QSocketNotifier;
class InsetdScroller;

/// The platform input context Qt loads for QT_IM_MODULE=insetd. Qt 6.4 on
/// Wayland has no text-input-v3, so nothing else tells the compositor's OSK
/// about a focused field: this context reports focus, blur and the field's
/// rectangle to insetd as a client's view (the field's QScrollArea or
/// Flickable, else its window), so insetd decides and insetd-osk shows the
/// real keyboard; it tells the app the truth through QInputMethod (visible,
/// keyboardRectangle in the window's coordinates) and applies insetd's inset
/// and offset to the scroller. It reads no text and sends none: keys reach
/// the app as they did before (the compositor's keyboard, an OSK's virtual
/// keyboard), untouched by it, or through the input method the user chose
/// (QT_IM_MODULE=insetd:ibus), which it creates and passes every call to.
class InsetdInputContext : public QPlatformInputContext
{
    Q_OBJECT

public:
    /// @p inner: the input context to pass input to (ibus, fcitx5, compose), or empty.
    explicit InsetdInputContext(const QString &inner = QString());
    ~InsetdInputContext() override;

    bool isValid() const override { return true; }
    void setFocusObject(QObject *object) override;
    void update(Qt::InputMethodQueries queries) override;
    // The user's own input method (QT_IM_MODULE=insetd:ibus, insetd:fcitx5,
    // insetd:compose), passed everything it would have had; none without it.
    bool filterEvent(const QEvent *event) override;
    void reset() override;
    void commit() override;
    void invokeAction(QInputMethod::Action action, int cursorPosition) override;
    bool hasCapability(Capability capability) const override;
    QLocale locale() const override;
    Qt::LayoutDirection inputDirection() const override;
    bool isInputPanelVisible() const override { return m_visible; }
    QRectF keyboardRect() const override { return m_keyboardInWindow; }
    bool isAnimating() const override { return m_animating; }

private Q_SLOTS:
    // Connected by name (the plugin does not link Qt Quick): a Qt Quick
    // window's afterAnimating, on the GUI thread before the frame's sync.
    void beforeFrame();

private:
    void dispatch();
    void deliverQueued();
    void handle(insetd_event *event);
    void report();
    void setWindow(QWindow *window);
    void sendWindow();
    void sendPendingWindow();
    void watchScreen(QScreen *screen);
    void sendScreen();
    void describe(InsetdScroller *scroller);
    void keyboardChanged();
    InsetdScroller *scrollerFor(QObject *field);
    void blur();

    QPlatformInputContext *m_inner = nullptr;  // the user's input method, or none
    struct insetd *m_ctx = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QHash<QObject *, InsetdScroller *> m_scrollers;   // by the object each stands for
    int m_nextView = 1;
    QPointer<QObject> m_field;          // the focused field, if it takes input
    QPointer<InsetdScroller> m_focused; // the view insetd was told has focus
    QRectF m_lastField;
    QPointer<QWindow> m_window;
    QMetaObject::Connection m_screenWatch;  // the window's output turning
    QSize m_screen;                          // that output's size as last seen
    QTimer m_windowTimer;
    QTimer m_reportTimer;
    bool m_visible = false;
    bool m_animating = false;
    QRectF m_screenRect;        // the keyboard on the screen, as insetd says
    bool m_keyboardTurned = false;  // the output turned since: m_screenRect is the other orientation's
    bool m_resized = false;     // the window's new size is not drawn yet (beforeFrame)
    QRectF m_keyboardInWindow;  // what it covers of the window now
};
