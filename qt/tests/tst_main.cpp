// Qt Quick Test runner for the Insetd module's QML tests (tests/tst_*.qml).
#include <QtQuickTest>
QUICK_TEST_MAIN(insetd)
