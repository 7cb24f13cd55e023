/* undod-source-undo-manager.c: GtkSourceView 4's own hook for a buffer's
 * history. Installed on a GtkSourceBuffer by the text bridge, it makes
 * gtk_source_buffer_undo() (the view's Ctrl+Z and Ctrl+Shift+Z, an Edit
 * menu's items) go to undod, and the buffer's can-undo and can-redo follow
 * undod's stack, whoever moved it. */
#include "undod-source-undo-manager.h"

struct _UndodSourceUndoManager {
  GObject parent_instance;
  UndodStack *stack;
  /* Inside begin/end_not_undoable_action (loading a file): nothing is
   * recorded, and the history is dropped at the end, as GtkSourceView's
   * own manager does. */
  guint not_undoable_depth;
};

static void undo_manager_init (GtkSourceUndoManagerIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (UndodSourceUndoManager, undod_source_undo_manager, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_UNDO_MANAGER, undo_manager_init))

static gboolean
can_undo (GtkSourceUndoManager *manager)
{
  return undod_stack_get_can_undo (UNDOD_SOURCE_UNDO_MANAGER (manager)->stack);
}

static gboolean
can_redo (GtkSourceUndoManager *manager)
{
  return undod_stack_get_can_redo (UNDOD_SOURCE_UNDO_MANAGER (manager)->stack);
}

static void
undo (GtkSourceUndoManager *manager)
{
  undod_stack_undo (UNDOD_SOURCE_UNDO_MANAGER (manager)->stack, NULL, NULL, NULL);
}

static void
redo (GtkSourceUndoManager *manager)
{
  undod_stack_redo (UNDOD_SOURCE_UNDO_MANAGER (manager)->stack, NULL, NULL, NULL);
}

static void
begin_not_undoable_action (GtkSourceUndoManager *manager)
{
  UNDOD_SOURCE_UNDO_MANAGER (manager)->not_undoable_depth++;
}

static void
end_not_undoable_action (GtkSourceUndoManager *manager)
{
  UndodSourceUndoManager *self = UNDOD_SOURCE_UNDO_MANAGER (manager);
  g_return_if_fail (self->not_undoable_depth > 0);
  if (--self->not_undoable_depth == 0)
    undod_stack_clear (self->stack, NULL, NULL, NULL);
}

static void
undo_manager_init (GtkSourceUndoManagerIface *iface)
{
  iface->can_undo = can_undo;
  iface->can_redo = can_redo;
  iface->undo = undo;
  iface->redo = redo;
  iface->begin_not_undoable_action = begin_not_undoable_action;
  iface->end_not_undoable_action = end_not_undoable_action;
}

static void
undod_source_undo_manager_dispose (GObject *object)
{
  UndodSourceUndoManager *self = UNDOD_SOURCE_UNDO_MANAGER (object);
  if (self->stack != NULL)
    g_signal_handlers_disconnect_by_data (self->stack, self);
  g_clear_object (&self->stack);
  G_OBJECT_CLASS (undod_source_undo_manager_parent_class)->dispose (object);
}

static void
undod_source_undo_manager_class_init (UndodSourceUndoManagerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = undod_source_undo_manager_dispose;
}

static void
undod_source_undo_manager_init (UndodSourceUndoManager *self)
{
}

UndodSourceUndoManager *
undod_source_undo_manager_new (UndodStack *stack)
{
  UndodSourceUndoManager *self = g_object_new (UNDOD_TYPE_SOURCE_UNDO_MANAGER, NULL);
  self->stack = g_object_ref (stack);
  g_signal_connect_swapped (stack, "notify::can-undo", G_CALLBACK (gtk_source_undo_manager_can_undo_changed), self);
  g_signal_connect_swapped (stack, "notify::can-redo", G_CALLBACK (gtk_source_undo_manager_can_redo_changed), self);
  return self;
}

/* Whether the buffer's edits are to be recorded now. */
gboolean
undod_source_undo_manager_is_recording (UndodSourceUndoManager *manager)
{
  return manager->not_undoable_depth == 0;
}
