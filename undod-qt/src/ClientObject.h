// The org.undod.Undo1.Client object of one bus connection: where undod's
// Apply calls land, routed by stack path to the bridges. Internal.
#pragma once

#include <QDBusConnection>
#include <QDBusContext>
#include <QDBusObjectPath>
#include <QHash>
#include <QList>
#include <QObject>

namespace UndodQt {

class UndoStackBridge;

/// Exports /org/undod/Undo1/Client on a connection, once, for every bridge on it.
class ClientObject : public QObject, protected QDBusContext
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.undod.Undo1.Client")
public:
    /// The connection's client object, made and exported on first use.
    static ClientObject *on(const QDBusConnection &bus);
    /// Routes Apply calls for @p path to @p bridge (an empty path forgets it).
    void route(const QString &path, UndoStackBridge *bridge);
    void forget(UndoStackBridge *bridge);
    /// undod's unique name while it runs: only it may call Apply.
    QString daemon;

public Q_SLOTS:
    void Apply(const QDBusObjectPath &stack, qulonglong group, const QString &direction,
               const QList<QByteArray> &payloads);

private:
    explicit ClientObject(const QDBusConnection &bus);
    QDBusConnection m_bus;
    QHash<QString, UndoStackBridge *> m_bridges;
};

} // namespace UndodQt
