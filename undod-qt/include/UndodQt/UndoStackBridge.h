// UndodQt::UndoStackBridge: a QUndoStack whose history undod mirrors, so that
// the desktop's global undo key (and `undoctl undo`) undoes through the
// app's own commands, and the stack's own undo/redo keep one history with
// undod.
#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QQueue>
#include <QString>
#include <QVector>

class QUndoCommand;
class QUndoGroup;
class QUndoStack;
class QDBusServiceWatcher;

namespace UndodQt {

class ClientObject;

/// Attaches a QUndoStack to undod. Each command pushed on the stack becomes
/// a group in undod named by the command's text, whose payloads are only a
/// reference to the command (the commands stay in the app: only this run
/// of it can apply them). When undod undoes (the global key), the bridge
/// calls the stack's undo(); when the app undoes on its own (its Undo
/// action, Ctrl+Z), the bridge tells undod, so both keep one history.
/// undod restarting is followed: the stack is kept on disk under a state
/// tag of this run, and the bridge registers again without it and takes up
/// the stored history (ids and times unchanged), pushing the undo side anew
/// only where undod kept nothing; a later run, under a new tag, starts afresh.
class UndoStackBridge : public QObject
{
    Q_OBJECT
public:
    /// Registers @p stack with undod on @p bus as @p appId (shown as @p title).
    UndoStackBridge(QUndoStack *stack, const QString &appId, const QString &title = QString(),
                    const QDBusConnection &bus = QDBusConnection::sessionBus(), QObject *parent = nullptr);
    ~UndoStackBridge() override;

    /// The stack's object path in undod, empty until registered.
    QString path() const;
    /// Whether undod has the stack now.
    bool isRegistered() const;
    /// Tells undod this app has the user's focus (a window of the stack's came to the front).
    void activate();
    /// Activates this stack whenever it becomes @p group's active stack.
    void followActiveStack(QUndoGroup *group);

Q_SIGNALS:
    /// The stack registered (again) with undod.
    void registered(const QString &path);
    /// undod had the stack undo or redo ("undo" or "redo").
    void applied(const QString &direction);
    /// A call to undod failed; the stack itself is unchanged.
    void failed(const QString &message);

private:
    friend class ClientObject;
    bool applyFromDaemon(const QString &direction, QString *error);
    void registerWithDaemon();
    void takeUpOrPush();
    void indexChanged(int index);
    void cleanChanged(bool clean);
    void call(const QString &method, const QList<QVariant> &arguments = {});
    void pushCommand(int index);
    QVector<const QUndoCommand *> commands() const;

    QUndoStack *m_stack;
    QString m_appId;
    QString m_title;
    QDBusConnection m_bus;
    QDBusServiceWatcher *m_watcher;
    QString m_path;
    int m_index = 0;
    /// The stack's commands as last seen, to tell a new command from a redo.
    QVector<const QUndoCommand *> m_known;
    bool m_applying = false;
    /// Undos and redos the app did itself, told to undod, whose Apply is
    /// answered without touching the stack again.
    QQueue<QString> m_doneLocally;
    quint64 m_nextToken = 1;
    /// The state tag of this bridge's run: given at its first Register
    /// only, so that undod restarting keeps the history (the bridge
    /// registers again without it) and a later run never takes it up.
    QString m_runTag;
    /// Whether undod has taken the stack once (a later Register is undod's restart).
    bool m_taken = false;
};

} // namespace UndodQt
