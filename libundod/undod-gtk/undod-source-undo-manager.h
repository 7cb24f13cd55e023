/* undod-source-undo-manager.h: a GtkSourceBuffer's undo answered by undod
 * (GTK 3 and GtkSourceView 4; private to the text bridge). */
#pragma once

#include <gtksourceview/gtksource.h>
#include <undod/undod.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_SOURCE_UNDO_MANAGER (undod_source_undo_manager_get_type ())
G_DECLARE_FINAL_TYPE (UndodSourceUndoManager, undod_source_undo_manager, UNDOD, SOURCE_UNDO_MANAGER, GObject)

UndodSourceUndoManager *undod_source_undo_manager_new          (UndodStack *stack);
gboolean                undod_source_undo_manager_is_recording (UndodSourceUndoManager *manager);

G_END_DECLS
