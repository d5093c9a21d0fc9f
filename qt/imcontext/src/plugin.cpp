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
    QPlatformInputContext *create(const QString &key, const QStringList &) override
    {
        return key.compare(QLatin1String("insetd"), Qt::CaseInsensitive) == 0 ? new InsetdInputContext : nullptr;
    }
};

#include "plugin.moc"
