// The Insetd QML module: Qt Quick apps follow insetd (docs/QT.md).
//
//   import Insetd
//   Flickable { Insetd.follow: true }                 // register, report focus, apply
//   Text { text: Insetd.keyboard.visible }            // the process-wide keyboard
//   Item { height: Insetd.bottomInset }               // bind it yourself
//
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QtQml/qqml.h>

#include "insetdattached.h"
#include "insetdkeyboard.h"

/// The attaching type: `Insetd.follow`, `Insetd.bottomInset`, `Insetd.keyboard`.
class Insetd : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Insetd is used as an attached object: Insetd.follow, Insetd.keyboard")
    QML_ATTACHED(InsetdAttached)

public:
    static InsetdAttached *qmlAttachedProperties(QObject *object) { return new InsetdAttached(object); }
};
