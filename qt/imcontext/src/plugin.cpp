// The plugin Qt loads for QT_IM_MODULE=insetd (docs/QT.md).
// SPDX-License-Identifier: Apache-2.0
#include <qpa/qplatforminputcontextplugin_p.h>

#include "inputcontext.h"

/// Qt's entry point: platforminputcontexts/libinsetdplatforminputcontextplugin.so,
/// key "insetd".
class InsetdInputContextPlugin : public QPlatformInputContextPlugin
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID QPlatformInputContextFactoryInterface_iid FILE "insetd.json")

public:
    // QT_IM_MODULE=insetd:ibus: Qt passes what follows the colon as the
    // parameters, the input context the user would have had.
    QPlatformInputContext *create(const QString &key, const QStringList &parameters) override
    {
        return key.compare(QLatin1String("insetd"), Qt::CaseInsensitive) == 0
            ? new InsetdInputContext(parameters.join(QLatin1Char(':')))
            : nullptr;
    }
};

#include "plugin.moc"
