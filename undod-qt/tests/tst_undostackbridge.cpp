// UndodQt::UndoStackBridge against a real undod on the private bus
// dbus-run-session gives the test (ctest runs it so). Every wait is bounded
// (QTRY_*), for what undod or the stack is expected to show.
#include <QDBusConnection>
#include <QDBusArgument>
#include <QDBusConnectionInterface>
#include <QDBusInterface>
#include <QDBusMessage>
#include <QDBusReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtTest>

#include "UndodQt/UndoStackBridge.h"

namespace {

/// Appends an item to a list; undo removes it.
class Append : public QUndoCommand
{
public:
    Append(QStringList *list, const QString &item) : QUndoCommand(QStringLiteral("Add ") + item), m_list(list), m_item(item) {}
    void redo() override { m_list->append(m_item); }
    void undo() override { m_list->removeLast(); }

private:
    QStringList *m_list;
    QString m_item;
};

} // namespace

class TestUndoStackBridge : public QObject
{
    Q_OBJECT

    QProcess m_undod;
    QTemporaryDir m_directory;

    void startUndod()
    {
        m_undod.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_undod.start(QString::fromLocal8Bit(qgetenv("UNDOD")),
                      {QStringLiteral("--config"), m_directory.filePath(QStringLiteral("undod.conf")),
                       QStringLiteral("--state-dir"), m_directory.filePath(QStringLiteral("state"))});
        QVERIFY(m_undod.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(
            QDBusConnection::sessionBus().interface()->isServiceRegistered(QStringLiteral("org.undod.Undo1")), 20000);
    }

    static QVariant property(const QString &path, const char *name)
    {
        QDBusInterface properties(QStringLiteral("org.undod.Undo1"), path, QStringLiteral("org.freedesktop.DBus.Properties"));
        QDBusReply<QVariant> reply = properties.call(QStringLiteral("Get"), QStringLiteral("org.undod.Undo1.Stack"),
                                                     QString::fromLatin1(name));
        return reply.isValid() ? reply.value() : QVariant();
    }

    /// The undo side's groups, top first, as (id, time) pairs (`History`).
    static QList<QPair<quint64, qint64>> undoSide(const QString &path)
    {
        QDBusMessage reply = QDBusConnection::sessionBus().call(QDBusMessage::createMethodCall(
            QStringLiteral("org.undod.Undo1"), path, QStringLiteral("org.undod.Undo1.Stack"), QStringLiteral("History")));
        QList<QPair<quint64, qint64>> groups;
        if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty())
            return groups;
        const QDBusArgument side = reply.arguments().at(0).value<QDBusArgument>();
        side.beginArray();
        while (!side.atEnd()) {
            quint64 id = 0, bytes = 0;
            QString name;
            qint64 time = 0;
            side.beginStructure();
            side >> id >> name >> time >> bytes;
            side.endStructure();
            groups.append({id, time});
        }
        side.endArray();
        return groups;
    }

    /// Manager.UndoFocused/RedoFocused, not waited for: this thread answers the Apply.
    static void applyFocused(const char *method)
    {
        QDBusConnection::sessionBus().asyncCall(QDBusMessage::createMethodCall(
            QStringLiteral("org.undod.Undo1"), QStringLiteral("/org/undod/Undo1"),
            QStringLiteral("org.undod.Undo1.Manager"), QString::fromLatin1(method)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_directory.isValid());
        QFile config(m_directory.filePath(QStringLiteral("undod.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("[merge]\nwindow_ms = 0\n");
        config.close();
        startUndod();
    }

    void cleanupTestCase()
    {
        m_undod.terminate();
        m_undod.waitForFinished();
    }

    /// Commands become groups named by their text; undod's global undo and
    /// redo run the stack's; the stack's own undo is followed by undod; a
    /// new command clears the redo side in both.
    void theGlobalKeyAndTheStacksOwnUndoKeepOneHistory()
    {
        QStringList items;
        QUndoStack stack;
        UndodQt::UndoStackBridge bridge(&stack, QStringLiteral("org.undod.test.QtList"), QStringLiteral("List"));
        QTRY_VERIFY_WITH_TIMEOUT(bridge.isRegistered(), 10000);
        const QString path = bridge.path();
        stack.push(new Append(&items, QStringLiteral("A")));
        stack.push(new Append(&items, QStringLiteral("B")));
        QTRY_COMPARE_WITH_TIMEOUT(property(path, "UndoDepth").toUInt(), 2u, 10000);
        QCOMPARE(property(path, "UndoName").toString(), QStringLiteral("Add B"));

        QSignalSpy applied(&bridge, &UndodQt::UndoStackBridge::applied);
        applyFocused("UndoFocused");
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 10000);
        QCOMPARE(items, QStringList{QStringLiteral("A")});
        QCOMPARE(stack.index(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(property(path, "RedoDepth").toUInt(), 1u, 10000);

        // The app's own undo: undod follows, and its Apply leaves the stack be.
        stack.undo();
        QCOMPARE(items, QStringList());
        QTRY_COMPARE_WITH_TIMEOUT(property(path, "UndoDepth").toUInt(), 0u, 10000);
        QCOMPARE(property(path, "RedoDepth").toUInt(), 2u);
        QCOMPARE(items, QStringList());
        QCOMPARE(applied.count(), 1);

        applyFocused("RedoFocused");
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 2, 10000);
        QCOMPARE(items, QStringList{QStringLiteral("A")});
        QCOMPARE(property(path, "RedoName").toString(), QStringLiteral("Add B"));

        stack.push(new Append(&items, QStringLiteral("C")));
        QTRY_COMPARE_WITH_TIMEOUT(property(path, "UndoDepth").toUInt(), 2u, 10000);
        QCOMPARE(property(path, "RedoDepth").toUInt(), 0u);
        QCOMPARE(property(path, "UndoName").toString(), QStringLiteral("Add C"));
    }

    /// undod restarting: the bridge registers again and takes up the history
    /// undod stored, its groups and their times unchanged (undoctl undo
    /// --last goes by them), and the global key goes on undoing the app's
    /// commands.
    void undodRestartingIsFollowed()
    {
        QStringList items;
        QUndoStack stack;
        UndodQt::UndoStackBridge bridge(&stack, QStringLiteral("org.undod.test.QtRestart"));
        QTRY_VERIFY_WITH_TIMEOUT(bridge.isRegistered(), 10000);
        stack.push(new Append(&items, QStringLiteral("A")));
        stack.push(new Append(&items, QStringLiteral("B")));
        QTRY_COMPARE_WITH_TIMEOUT(property(bridge.path(), "UndoDepth").toUInt(), 2u, 10000);
        const auto before = undoSide(bridge.path());
        QCOMPARE(before.size(), 2);

        QSignalSpy registered(&bridge, &UndodQt::UndoStackBridge::registered);
        m_undod.terminate();
        QVERIFY(m_undod.waitForFinished());
        startUndod();
        QTRY_COMPARE_WITH_TIMEOUT(registered.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(property(bridge.path(), "UndoDepth").toUInt(), 2u, 10000);
        QCOMPARE(undoSide(bridge.path()), before);

        QSignalSpy applied(&bridge, &UndodQt::UndoStackBridge::applied);
        applyFocused("UndoFocused");
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 10000);
        QCOMPARE(items, QStringList{QStringLiteral("A")});
    }

    /// A QUndoGroup's active stack is the one undod focuses: the global key
    /// undoes in the document in front, and only there.
    void aGroupsActiveStackIsFocused()
    {
        QStringList first, second;
        QUndoGroup group;
        QUndoStack one(&group), two(&group);
        UndodQt::UndoStackBridge oneBridge(&one, QStringLiteral("org.undod.test.QtGroup"), QStringLiteral("One"));
        UndodQt::UndoStackBridge twoBridge(&two, QStringLiteral("org.undod.test.QtGroupTwo"), QStringLiteral("Two"));
        oneBridge.followActiveStack(&group);
        twoBridge.followActiveStack(&group);
        QTRY_VERIFY_WITH_TIMEOUT(oneBridge.isRegistered() && twoBridge.isRegistered(), 10000);
        one.push(new Append(&first, QStringLiteral("A")));
        two.push(new Append(&second, QStringLiteral("B")));
        QTRY_COMPARE_WITH_TIMEOUT(property(twoBridge.path(), "UndoDepth").toUInt(), 1u, 10000);

        auto focused = [] {
            QDBusInterface properties(QStringLiteral("org.undod.Undo1"), QStringLiteral("/org/undod/Undo1"),
                                      QStringLiteral("org.freedesktop.DBus.Properties"));
            QDBusReply<QVariant> reply = properties.call(QStringLiteral("Get"), QStringLiteral("org.undod.Undo1.Manager"),
                                                         QStringLiteral("FocusedStack"));
            return reply.value().value<QDBusObjectPath>().path();
        };
        group.setActiveStack(&one);
        QTRY_COMPARE_WITH_TIMEOUT(focused(), oneBridge.path(), 10000);
        QSignalSpy applied(&oneBridge, &UndodQt::UndoStackBridge::applied);
        applyFocused("UndoFocused");
        QTRY_COMPARE_WITH_TIMEOUT(applied.count(), 1, 10000);
        QCOMPARE(first, QStringList());
        QCOMPARE(second, QStringList{QStringLiteral("B")});

        group.setActiveStack(&two);
        QTRY_COMPARE_WITH_TIMEOUT(focused(), twoBridge.path(), 10000);
    }

    /// Only undod may call Apply: a stranger's call is refused and the stack is untouched.
    void applyFromAStrangerIsRefused()
    {
        QStringList items;
        QUndoStack stack;
        UndodQt::UndoStackBridge bridge(&stack, QStringLiteral("org.undod.test.QtGuard"));
        QTRY_VERIFY_WITH_TIMEOUT(bridge.isRegistered(), 10000);
        stack.push(new Append(&items, QStringLiteral("A")));
        QDBusConnection stranger = QDBusConnection::connectToBus(QDBusConnection::SessionBus, QStringLiteral("stranger"));
        QDBusMessage call = QDBusMessage::createMethodCall(QDBusConnection::sessionBus().baseService(),
                                                           QStringLiteral("/org/undod/Undo1/Client"),
                                                           QStringLiteral("org.undod.Undo1.Client"), QStringLiteral("Apply"));
        call << QVariant::fromValue(QDBusObjectPath(bridge.path())) << qulonglong(1) << QStringLiteral("undo")
             << QVariant::fromValue(QList<QByteArray>());
        QDBusPendingCall pending = stranger.asyncCall(call);
        QTRY_VERIFY_WITH_TIMEOUT(pending.isFinished(), 10000);
        QVERIFY(pending.isError());
        QCOMPARE(pending.error().name(), QStringLiteral("org.freedesktop.DBus.Error.AccessDenied"));
        QCOMPARE(items, QStringList{QStringLiteral("A")});
        QDBusConnection::disconnectFromBus(QStringLiteral("stranger"));
    }
};

QTEST_MAIN(TestUndoStackBridge)
#include "tst_undostackbridge.moc"
