// A stock Qt Widgets form for scripts/qt-im-test: a QScrollArea of QLineEdits
// with no insetd code at all. Test code: it logs every frame it draws, what
// QInputMethod tells it, and the text its fields receive (the test's eyes).
//   widgets-form [--fullscreen] [--cycle MS] [--hold]
//   --cycle MS: focus the last field, MS later the Done button (no text
//               input: a blur), and again; --hold: focus the last field once.
// SPDX-License-Identifier: Apache-2.0
#include <QApplication>
#include <QDateTime>
#include <QInputMethod>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>

static qint64 now() { return QDateTime::currentMSecsSinceEpoch(); }

/// Logs a frame each time the window paints (QEvent::UpdateRequest on the
/// top-level widget): time, window height, the scroll area's bottom margin
/// under its viewport, its offset, the focused field's bottom in the window.
class FrameLog : public QObject
{
public:
    FrameLog(QWidget *window, QScrollArea *area) : m_window(window), m_area(area) {}
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::UpdateRequest) {
            const int margin = m_area->contentsRect().height() - m_area->viewport()->height();
            auto field = qobject_cast<QLineEdit *>(QApplication::focusWidget());
            const int bottom = field ? field->mapTo(m_window, QPoint(0, field->height())).y() : -1;
            printf("insetd-frame [%lld, %d, %d, %d, %d]\n", now(), m_window->height(), margin,
                   m_area->verticalScrollBar()->value(), bottom);
            fflush(stdout);
        }
        return false;
    }
    QWidget *m_window;
    QScrollArea *m_area;
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    QWidget window;
    auto layout = new QVBoxLayout(&window);
    layout->setContentsMargins(0, 0, 0, 0);
    auto done = new QPushButton("Done");
    done->setObjectName("done");
    layout->addWidget(done);
    auto area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto form = new QWidget;
    auto column = new QVBoxLayout(form);
    column->setSpacing(16);
    QLineEdit *last = nullptr;
    for (int i = 1; i <= 16; ++i) {
        last = new QLineEdit;
        last->setObjectName(QStringLiteral("field%1").arg(i));
        last->setPlaceholderText(QStringLiteral("Field %1").arg(i));
        last->setFixedHeight(44);
        QObject::connect(last, &QLineEdit::textChanged, [last](const QString &text) {
            printf("insetd-text %s %s\n", qPrintable(last->objectName()), qPrintable(text));
            fflush(stdout);
        });
        column->addWidget(last);
    }
    area->setWidget(form);
    layout->addWidget(area);

    QInputMethod *im = QGuiApplication::inputMethod();
    auto logIm = [im] {
        const QRectF r = im->keyboardRectangle();
        printf("insetd-im [%lld, %d, %g, %g, %g, %g]\n", now(), im->isVisible(), r.x(), r.y(), r.width(), r.height());
        fflush(stdout);
    };
    QObject::connect(im, &QInputMethod::visibleChanged, logIm);
    QObject::connect(im, &QInputMethod::keyboardRectangleChanged, logIm);

    FrameLog frames(&window, area);
    window.installEventFilter(&frames);
    window.resize(540, 960);
    if (args.contains("--fullscreen"))
        window.showFullScreen();
    else
        window.show();

    QTimer cycle;
    int step = 0;
    if (int i = args.indexOf("--cycle"); i > 0 && i + 1 < args.size()) {
        cycle.setInterval(args.at(i + 1).toInt());
        QObject::connect(&cycle, &QTimer::timeout, [&] {
            const bool focus = ++step % 2 == 1;
            printf("insetd-cycle %s %lld\n", focus ? "focus" : "blur", now());
            fflush(stdout);
            if (focus)
                last->setFocus();
            else
                done->setFocus();
        });
        cycle.start();
    }
    if (args.contains("--hold"))
        QTimer::singleShot(300, last, [last] { last->setFocus(); });
    return app.exec();
}
