// Qt Quick Test runner for the Insetd module's QML tests. `testHelper.mark(name)`
// creates $INSETD_TEST_DIR/name, so scripts/qt-test knows when a test reached a
// point (the restart test: focused, inset applied: now restart insetd).
#include <QFile>
#include <QObject>
#include <QQmlContext>
#include <QQmlEngine>
#include <QtQuickTest>

class TestHelper : public QObject
{
    Q_OBJECT
public:
    Q_INVOKABLE bool mark(const QString &name)
    {
        const QString dir = qEnvironmentVariable("INSETD_TEST_DIR");
        if (dir.isEmpty() || name.contains(QLatin1Char('/')))
            return false;
        QFile file(dir + QLatin1Char('/') + name);
        return file.open(QIODevice::WriteOnly);
    }
};

class Setup : public QObject
{
    Q_OBJECT
public slots:
    void qmlEngineAvailable(QQmlEngine *engine)
    {
        engine->rootContext()->setContextProperty(QStringLiteral("testHelper"), &m_helper);
    }

private:
    TestHelper m_helper;
};

QUICK_TEST_MAIN_WITH_SETUP(insetd, Setup)

#include "tst_main.moc"
