// qt-shapes: a Qt Widgets app on QUndoStack whose history undod mirrors
// (UndodQt::UndoStackBridge): Ctrl+N adds a shape, Delete removes the last,
// Ctrl+Z / Ctrl+Shift+Z are the stack's own actions, and the desktop's
// global undo key undoes through the same stack.
//
//   make undod-qt && .build/undod-qt/qt-shapes [--trace]
//
// --trace prints one JSON line per event (registered, applied, changed) for
// the tests.
#include <QAction>
#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <cstdio>

#include "UndodQt/UndoStackBridge.h"

namespace {

bool tracing = false;

void trace(const QString &event, QJsonObject fields)
{
    if (!tracing)
        return;
    fields.insert(QStringLiteral("event"), event);
    std::printf("%s\n", QJsonDocument(fields).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QJsonArray itemsOf(QListWidget *list)
{
    QJsonArray items;
    for (int row = 0; row < list->count(); ++row)
        items.append(list->item(row)->text());
    return items;
}

/// Adds a shape at the end of the list.
class AddShape : public QUndoCommand
{
public:
    AddShape(QListWidget *list, const QString &shape) : QUndoCommand(QStringLiteral("Add ") + shape), m_list(list), m_shape(shape) {}
    void redo() override { m_list->addItem(m_shape); }
    void undo() override { delete m_list->takeItem(m_list->count() - 1); }

private:
    QListWidget *m_list;
    QString m_shape;
};

/// Removes the last shape.
class RemoveShape : public QUndoCommand
{
public:
    explicit RemoveShape(QListWidget *list) : QUndoCommand(QStringLiteral("Remove ") + list->item(list->count() - 1)->text()),
        m_list(list), m_shape(list->item(list->count() - 1)->text()) {}
    void redo() override { delete m_list->takeItem(m_list->count() - 1); }
    void undo() override { m_list->addItem(m_shape); }

private:
    QListWidget *m_list;
    QString m_shape;
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    tracing = app.arguments().contains(QStringLiteral("--trace"));
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Shapes (undod)"));
    auto *list = new QListWidget;
    window.setCentralWidget(list);
    QUndoStack stack;
    const QStringList shapes{QStringLiteral("circle"), QStringLiteral("square"), QStringLiteral("triangle")};
    int added = 0;

    QMenu *edit = window.menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction *add = edit->addAction(QStringLiteral("Add shape"));
    add->setShortcut(QKeySequence(QStringLiteral("Ctrl+N")));
    QObject::connect(add, &QAction::triggered, [&] { stack.push(new AddShape(list, shapes[added++ % shapes.size()])); });
    QAction *remove = edit->addAction(QStringLiteral("Remove last shape"));
    remove->setShortcut(QKeySequence::Delete);
    QObject::connect(remove, &QAction::triggered, [&] {
        if (list->count() > 0)
            stack.push(new RemoveShape(list));
    });
    QAction *undo = stack.createUndoAction(&window);
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = stack.createRedoAction(&window);
    redo->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+Z")));
    edit->addAction(undo);
    edit->addAction(redo);
    QObject::connect(&stack, &QUndoStack::indexChanged, [&] {
        trace(QStringLiteral("changed"), {{QStringLiteral("items"), itemsOf(list)}});
    });

    UndodQt::UndoStackBridge bridge(&stack, QStringLiteral("org.undod.examples.QtShapes"), QStringLiteral("Shapes"));
    QObject::connect(&bridge, &UndodQt::UndoStackBridge::registered, [&](const QString &path) {
        trace(QStringLiteral("registered"), {{QStringLiteral("path"), path},
                                              {QStringLiteral("xid"), qint64(window.winId())}});
    });
    QObject::connect(&bridge, &UndodQt::UndoStackBridge::applied, [&](const QString &direction) {
        trace(QStringLiteral("applied"), {{QStringLiteral("direction"), direction}, {QStringLiteral("items"), itemsOf(list)}});
    });
    window.resize(320, 240);
    window.show();
    return app.exec();
}
