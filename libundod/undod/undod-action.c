/* undod-action.c: one action's two payloads. */
#include "undod-action.h"

struct _UndodAction {
  GBytes *undo;
  GBytes *redo;
};

G_DEFINE_BOXED_TYPE (UndodAction, undod_action, undod_action_copy, undod_action_free)

/**
 * undod_action_new:
 * @undo: the bytes that undo the action
 * @redo: the bytes that redo it
 *
 * Returns: (transfer full): a new action holding both
 */
UndodAction *
undod_action_new (GBytes *undo, GBytes *redo)
{
  g_return_val_if_fail (undo != NULL && redo != NULL, NULL);
  UndodAction *action = g_new0 (UndodAction, 1);
  action->undo = g_bytes_ref (undo);
  action->redo = g_bytes_ref (redo);
  return action;
}

/**
 * undod_action_copy:
 * @action: an action
 *
 * Returns: (transfer full): a copy sharing the same bytes
 */
UndodAction *
undod_action_copy (const UndodAction *action)
{
  return undod_action_new (action->undo, action->redo);
}

/**
 * undod_action_free:
 * @action: an action
 *
 * Frees @action.
 */
void
undod_action_free (UndodAction *action)
{
  if (action == NULL)
    return;
  g_bytes_unref (action->undo);
  g_bytes_unref (action->redo);
  g_free (action);
}

/**
 * undod_action_get_undo:
 * @action: an action
 *
 * Returns: (transfer none): the bytes that undo it
 */
GBytes *
undod_action_get_undo (const UndodAction *action)
{
  return action->undo;
}

/**
 * undod_action_get_redo:
 * @action: an action
 *
 * Returns: (transfer none): the bytes that redo it
 */
GBytes *
undod_action_get_redo (const UndodAction *action)
{
  return action->redo;
}
