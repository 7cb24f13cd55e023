#include "ClientObject.h"

#include <QDBusMessage>
#include <QDBusMetaType>

#include "UndodQt/UndoStackBridge.h"

namespace UndodQt {

ClientObject *ClientObject::on(const QDBusConnection &bus)
{
    static QHash<QString, ClientObject *> objects;
    if (ClientObject *existing = objects.value(bus.name()))
        return existing;
    qDBusRegisterMetaType<QList<QByteArray>>();
    auto *object = new ClientObject(bus);
    QDBusConnection(bus).registerObject(QStringLiteral("/org/undod/Undo1/Client"), object,
                                        QDBusConnection::ExportAllSlots);
    objects.insert(bus.name(), object);
    return object;
}

ClientObject::ClientObject(const QDBusConnection &bus) : m_bus(bus) {}

void ClientObject::route(const QString &path, UndoStackBridge *bridge)
{
    forget(bridge);
    if (!path.isEmpty())
        m_bridges.insert(path, bridge);
}

void ClientObject::forget(UndoStackBridge *bridge)
{
    for (auto it = m_bridges.begin(); it != m_bridges.end();) {
        if (it.value() == bridge)
            it = m_bridges.erase(it);
        else
            ++it;
    }
}

void ClientObject::Apply(const QDBusObjectPath &stack, qulonglong, const QString &direction,
                         const QList<QByteArray> &)
{
    if (daemon.isEmpty() || message().service() != daemon) {
        sendErrorReply(QStringLiteral("org.freedesktop.DBus.Error.AccessDenied"), QStringLiteral("Only undod may call Apply."));
        return;
    }
    UndoStackBridge *bridge = m_bridges.value(stack.path());
    if (!bridge) {
        sendErrorReply(QStringLiteral("org.freedesktop.DBus.Error.UnknownObject"),
                       QStringLiteral("This application has no stack at that path."));
        return;
    }
    QString error;
    if (!bridge->applyFromDaemon(direction, &error))
        sendErrorReply(QStringLiteral("org.undod.Undo1.Error.Obsolete"), error);
}

} // namespace UndodQt
