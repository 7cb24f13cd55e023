#include "UndodQt/UndoStackBridge.h"

#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QUndoGroup>
#include <QUndoStack>
#include <QUuid>
#include <QVariantMap>

#include "ClientObject.h"

namespace UndodQt {

namespace {
const QString service = QStringLiteral("org.undod.Undo1");
const QString managerPath = QStringLiteral("/org/undod/Undo1");
const QString managerInterface = QStringLiteral("org.undod.Undo1.Manager");
const QString stackInterface = QStringLiteral("org.undod.Undo1.Stack");
} // namespace

UndoStackBridge::UndoStackBridge(QUndoStack *stack, const QString &appId, const QString &title,
                                 const QDBusConnection &bus, QObject *parent)
    : QObject(parent), m_stack(stack), m_appId(appId), m_title(title.isEmpty() ? appId : title), m_bus(bus),
      m_watcher(new QDBusServiceWatcher(service, bus, QDBusServiceWatcher::WatchForOwnerChange, this)),
      m_runTag(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_index = m_stack->index();
    m_known = commands();
    ClientObject::on(m_bus);
    connect(m_stack, &QUndoStack::indexChanged, this, &UndoStackBridge::indexChanged);
    connect(m_stack, &QUndoStack::cleanChanged, this, &UndoStackBridge::cleanChanged);
    connect(m_watcher, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString &, const QString &, const QString &newOwner) {
                // undod left or a new one came: register anew, taking up the
                // history it stored (or pushing the undo side where it has none).
                ClientObject::on(m_bus)->forget(this);
                m_path.clear();
                m_doneLocally.clear();
                if (!newOwner.isEmpty())
                    registerWithDaemon();
            });
    registerWithDaemon();
}

UndoStackBridge::~UndoStackBridge()
{
    ClientObject::on(m_bus)->forget(this);
    if (!m_path.isEmpty())
        call(QStringLiteral("Close"), {true});
}

QString UndoStackBridge::path() const
{
    return m_path;
}

bool UndoStackBridge::isRegistered() const
{
    return !m_path.isEmpty();
}

void UndoStackBridge::activate()
{
    call(QStringLiteral("Activate"));
}

void UndoStackBridge::followActiveStack(QUndoGroup *group)
{
    connect(group, &QUndoGroup::activeStackChanged, this, [this](QUndoStack *active) {
        if (active == m_stack)
            activate();
    });
}

void UndoStackBridge::registerWithDaemon()
{
    QDBusMessage message = QDBusMessage::createMethodCall(service, managerPath, managerInterface,
                                                          QStringLiteral("Register"));
    // Kept on disk, so that an undod restart keeps the history and its
    // times (`undoctl undo --last` goes by them); the run's tag only the
    // first time, so that the restarted undod's stored history is taken up
    // while a later run of the app, under a new tag, never takes it.
    QVariantMap options{{QStringLiteral("title"), m_title}};
    if (!m_taken)
        options.insert(QStringLiteral("state_tag"), m_runTag);
    message << m_appId << options;
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *finished) {
        finished->deleteLater();
        QDBusPendingReply<QDBusObjectPath> reply = *finished;
        if (reply.isError()) {
            Q_EMIT failed(reply.error().message());
            return;
        }
        ClientObject *client = ClientObject::on(m_bus);
        client->daemon = reply.reply().service();
        m_path = reply.value().path();
        m_taken = true;
        client->route(m_path, this);
        takeUpOrPush();
    });
}

void UndoStackBridge::takeUpOrPush()
{
    QDBusMessage message = QDBusMessage::createMethodCall(service, m_path, QStringLiteral("org.freedesktop.DBus.Properties"),
                                                          QStringLiteral("GetAll"));
    message << stackInterface;
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *finished) {
        finished->deleteLater();
        QDBusPendingReply<QVariantMap> reply = *finished;
        const QVariantMap state = reply.isError() ? QVariantMap() : reply.value();
        const int undoDepth = state.value(QStringLiteral("UndoDepth")).toInt();
        const int redoDepth = state.value(QStringLiteral("RedoDepth")).toInt();
        m_index = m_stack->index();
        // undod kept this run's history (it restarted): nothing to send.
        if (!reply.isError() && undoDepth == m_index && redoDepth == m_stack->count() - m_index) {
            Q_EMIT registered(m_path);
            return;
        }
        // Else the stack's undo side, oldest first: what undod may undo.
        if (undoDepth + redoDepth > 0)
            call(QStringLiteral("Clear"));
        for (int index = 0; index < m_index; ++index)
            pushCommand(index);
        Q_EMIT registered(m_path);
    });
}

void UndoStackBridge::call(const QString &method, const QList<QVariant> &arguments)
{
    if (m_path.isEmpty())
        return;
    QDBusMessage message = QDBusMessage::createMethodCall(service, m_path, stackInterface, method);
    message.setArguments(arguments);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, method](QDBusPendingCallWatcher *finished) {
        finished->deleteLater();
        QDBusPendingReply<> reply = *finished;
        if (!reply.isError())
            return;
        // undod could not follow an undo or redo the app did itself: nothing
        // will come back for it.
        if ((method == QLatin1String("Undo") || method == QLatin1String("Redo")) && !m_doneLocally.isEmpty())
            m_doneLocally.removeLast();
        Q_EMIT failed(reply.error().message());
    });
}

void UndoStackBridge::pushCommand(int index)
{
    // The payload is only a reference: the command itself stays in the stack.
    const QByteArray token = QByteArrayLiteral("qundo:") + QByteArray::number(m_nextToken++);
    const QString name = m_stack->text(index).isEmpty() ? QStringLiteral("Edit") : m_stack->text(index);
    call(QStringLiteral("Push"), {name, token, token, QVariantMap()});
}

void UndoStackBridge::indexChanged(int index)
{
    const int before = m_index;
    const QVector<const QUndoCommand *> known = m_known;
    m_index = index;
    m_known = commands();
    if (m_applying || m_path.isEmpty())
        return;
    // A new command: at the new top, an object that was not there before (it
    // was made while the old ones lived, so it cannot share an address).
    if (index == before + 1 && (index > known.size() || m_stack->command(index - 1) != known[index - 1])) {
        pushCommand(index - 1);
        return;
    }
    if (m_stack->count() == 0 && before > 0) {
        call(QStringLiteral("Clear"));
        return;
    }
    // The app moved through its history itself (its Undo action, Ctrl+Z,
    // setIndex): undod follows, one step at a time, and its Apply calls for
    // these steps are answered without touching the stack again.
    for (int step = before; step > index; --step) {
        m_doneLocally.enqueue(QStringLiteral("undo"));
        call(QStringLiteral("Undo"));
    }
    for (int step = before; step < index; ++step) {
        m_doneLocally.enqueue(QStringLiteral("redo"));
        call(QStringLiteral("Redo"));
    }
}

QVector<const QUndoCommand *> UndoStackBridge::commands() const
{
    QVector<const QUndoCommand *> all;
    for (int index = 0; index < m_stack->count(); ++index)
        all.append(m_stack->command(index));
    return all;
}

void UndoStackBridge::cleanChanged(bool clean)
{
    if (clean)
        call(QStringLiteral("SetClean"));
}

bool UndoStackBridge::applyFromDaemon(const QString &direction, QString *error)
{
    if (!m_doneLocally.isEmpty() && m_doneLocally.head() == direction) {
        m_doneLocally.dequeue();
        return true;
    }
    const bool undo = direction == QLatin1String("undo");
    if (undo ? !m_stack->canUndo() : !m_stack->canRedo()) {
        *error = QStringLiteral("The application's QUndoStack has nothing to %1.").arg(direction);
        return false;
    }
    m_applying = true;
    if (undo)
        m_stack->undo();
    else
        m_stack->redo();
    m_applying = false;
    m_index = m_stack->index();
    m_known = commands();
    Q_EMIT applied(direction);
    return true;
}

} // namespace UndodQt
