// qt-shapes: a Qt Widgets app on QUndoStack whose history undod mirrors
// (UndodQt::UndoStackBridge): a canvas of shapes drawn in a row, Ctrl+N
// adds a shape (circle, square, triangle in turn), Delete removes the last,
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
#include <QMainWindow>
#include <QMenuBar>
#include <QPainter>
#include <QPainterPath>
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

/// The document: shapes in a row, drawn as what they are.
class ShapeCanvas : public QWidget
{
public:
    void add(const QString &shape)
    {
        m_shapes.append(shape);
        update();
    }
    QString takeLast()
    {
        QString shape = m_shapes.takeLast();
        update();
        return shape;
    }
    const QStringList &shapes() const { return m_shapes; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.fillRect(rect(), palette().base());
        const int size = 56, gap = 16;
        const QColor colours[] = {QColor(0x35, 0x84, 0xe4), QColor(0xe0, 0x1b, 0x24), QColor(0x33, 0xd1, 0x7a)};
        for (int index = 0; index < m_shapes.size(); ++index) {
            const QRectF box(gap + index % 4 * (size + gap), gap + index / 4 * (size + gap), size, size);
            painter.setBrush(colours[index % 3]);
            painter.setPen(QPen(palette().text().color(), 2));
            if (m_shapes[index] == QLatin1String("circle")) {
                painter.drawEllipse(box);
            } else if (m_shapes[index] == QLatin1String("square")) {
                painter.drawRect(box);
            } else {
                QPainterPath triangle;
                triangle.moveTo(box.center().x(), box.top());
                triangle.lineTo(box.bottomRight());
                triangle.lineTo(box.bottomLeft());
                triangle.closeSubpath();
                painter.drawPath(triangle);
            }
        }
        if (m_shapes.isEmpty())
            painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("Ctrl+N adds a shape"));
    }

private:
    QStringList m_shapes;
};

QJsonArray itemsOf(ShapeCanvas *canvas)
{
    return QJsonArray::fromStringList(canvas->shapes());
}

/// Adds a shape at the end of the row.
class AddShape : public QUndoCommand
{
public:
    AddShape(ShapeCanvas *canvas, const QString &shape)
        : QUndoCommand(QStringLiteral("Add ") + shape), m_canvas(canvas), m_shape(shape) {}
    void redo() override { m_canvas->add(m_shape); }
    void undo() override { m_canvas->takeLast(); }

private:
    ShapeCanvas *m_canvas;
    QString m_shape;
};

/// Removes the last shape.
class RemoveShape : public QUndoCommand
{
public:
    explicit RemoveShape(ShapeCanvas *canvas)
        : QUndoCommand(QStringLiteral("Remove ") + canvas->shapes().last()), m_canvas(canvas),
          m_shape(canvas->shapes().last()) {}
    void redo() override { m_canvas->takeLast(); }
    void undo() override { m_canvas->add(m_shape); }

private:
    ShapeCanvas *m_canvas;
    QString m_shape;
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    tracing = app.arguments().contains(QStringLiteral("--trace"));
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Shapes (undod)"));
    auto *canvas = new ShapeCanvas;
    window.setCentralWidget(canvas);
    QUndoStack stack;
    const QStringList shapes{QStringLiteral("circle"), QStringLiteral("square"), QStringLiteral("triangle")};
    int added = 0;

    QMenu *edit = window.menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction *add = edit->addAction(QStringLiteral("Add shape"));
    add->setShortcut(QKeySequence(QStringLiteral("Ctrl+N")));
    QObject::connect(add, &QAction::triggered, [&] { stack.push(new AddShape(canvas, shapes[added++ % shapes.size()])); });
    QAction *remove = edit->addAction(QStringLiteral("Remove last shape"));
    remove->setShortcut(QKeySequence::Delete);
    QObject::connect(remove, &QAction::triggered, [&] {
        if (!canvas->shapes().isEmpty())
            stack.push(new RemoveShape(canvas));
    });
    QAction *undo = stack.createUndoAction(&window);
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = stack.createRedoAction(&window);
    redo->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+Z")));
    edit->addAction(undo);
    edit->addAction(redo);
    QObject::connect(&stack, &QUndoStack::indexChanged, [&] {
        trace(QStringLiteral("changed"), {{QStringLiteral("items"), itemsOf(canvas)}});
    });

    UndodQt::UndoStackBridge bridge(&stack, QStringLiteral("org.undod.examples.QtShapes"), QStringLiteral("Shapes"));
    QObject::connect(&bridge, &UndodQt::UndoStackBridge::registered, [&](const QString &path) {
        trace(QStringLiteral("registered"), {{QStringLiteral("path"), path},
                                              {QStringLiteral("xid"), qint64(window.winId())}});
    });
    QObject::connect(&bridge, &UndodQt::UndoStackBridge::applied, [&](const QString &direction) {
        trace(QStringLiteral("applied"), {{QStringLiteral("direction"), direction}, {QStringLiteral("items"), itemsOf(canvas)}});
    });
    window.resize(320, 240);
    window.show();
    return app.exec();
}
