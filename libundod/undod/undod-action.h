#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_ACTION (undod_action_get_type ())

/**
 * UndodAction:
 *
 * One action of a group: the bytes that undo it and the bytes that redo
 * it. Only the application understands them; undod keeps them and hands
 * them back.
 */
typedef struct _UndodAction UndodAction;

GType        undod_action_get_type (void) G_GNUC_CONST;
UndodAction *undod_action_new      (GBytes *undo, GBytes *redo);
UndodAction *undod_action_copy     (const UndodAction *action);
void         undod_action_free     (UndodAction *action);
GBytes      *undod_action_get_undo (const UndodAction *action);
GBytes      *undod_action_get_redo (const UndodAction *action);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (UndodAction, undod_action_free)

G_END_DECLS
