/* undod-apply.c: one undo or redo undod asks the app to apply. */
#include "undod-apply.h"
#include "undod-apply-private.h"
#include "undod-enum-types.h"
#include "undod-error.h"
#include "undod-private.h"

/**
 * UndodApply:
 *
 * One `Client.Apply` from undod: the payloads of one group, in the order
 * to apply them (for an undo, last action first). The app applies them
 * and answers exactly once: undod moves the group only on
 * undod_apply_return_success(); on an error the stack stays as it was.
 * The answer may come later, from the main loop (an apply that needs a
 * dialog, say); until then the stack's pushes wait in order.
 */
struct _UndodApply {
  GObject parent_instance;
  GDBusMethodInvocation *invocation;
  UndodDirection direction;
  guint64 group;
  GPtrArray *payloads;
  gboolean finished;
  /* A local request's outcome (no invocation: undod is absent). */
  GError *error;
  GCallback finished_func;
  gpointer finished_data;
};

G_DEFINE_FINAL_TYPE (UndodApply, undod_apply, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DIRECTION,
  PROP_GROUP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
undod_apply_dispose (GObject *object)
{
  UndodApply *self = UNDOD_APPLY (object);
  if (!self->finished)
    {
      g_autoptr (GError) error = g_error_new_literal (UNDOD_ERROR, UNDOD_ERROR_FAILED,
                                                      "The application dropped the apply request without answering it.");
      undod_apply_return_error (self, error);
    }
  G_OBJECT_CLASS (undod_apply_parent_class)->dispose (object);
}

static void
undod_apply_finalize (GObject *object)
{
  UndodApply *self = UNDOD_APPLY (object);
  g_clear_pointer (&self->payloads, g_ptr_array_unref);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (undod_apply_parent_class)->finalize (object);
}

static void
undod_apply_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  UndodApply *self = UNDOD_APPLY (object);
  switch (id)
    {
    case PROP_DIRECTION: g_value_set_enum (value, self->direction); break;
    case PROP_GROUP: g_value_set_uint64 (value, self->group); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_apply_class_init (UndodApplyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = undod_apply_dispose;
  object_class->finalize = undod_apply_finalize;
  object_class->get_property = undod_apply_get_property;
  /**
   * UndodApply:direction:
   *
   * Undo or redo.
   */
  properties[PROP_DIRECTION] = g_param_spec_enum ("direction", NULL, NULL, UNDOD_TYPE_DIRECTION,
                                                  UNDOD_DIRECTION_UNDO, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * UndodApply:group:
   *
   * The group's id.
   */
  properties[PROP_GROUP] = g_param_spec_uint64 ("group", NULL, NULL, 0, G_MAXUINT64, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
undod_apply_init (UndodApply *self)
{
}

UndodApply *
undod_apply_new_for_invocation (GDBusMethodInvocation *invocation, UndodDirection direction, guint64 group,
                                GPtrArray *payloads)
{
  UndodApply *self = g_object_new (UNDOD_TYPE_APPLY, NULL);
  self->invocation = invocation;
  self->direction = direction;
  self->group = group;
  self->payloads = g_ptr_array_ref (payloads);
  return self;
}

/* A request for a group of the stack's local history (undod absent). */
UndodApply *
undod_apply_new_local (UndodDirection direction, guint64 group, GPtrArray *payloads)
{
  return undod_apply_new_for_invocation (NULL, direction, group, payloads);
}

/* The request's error once answered (NULL: applied). */
const GError *
undod_apply_get_error (UndodApply *apply)
{
  return apply->error;
}

/* Called once, with the apply, when it has been answered. */
void
undod_apply_set_finished_func (UndodApply *apply, GCallback func, gpointer data)
{
  apply->finished_func = func;
  apply->finished_data = data;
}

static void
finish (UndodApply *self)
{
  self->finished = TRUE;
  self->invocation = NULL;
  if (self->finished_func != NULL)
    ((void (*) (UndodApply *, gpointer)) self->finished_func) (self, self->finished_data);
}

/**
 * undod_apply_get_direction:
 * @apply: the request
 *
 * Returns: whether to undo or redo
 */
UndodDirection
undod_apply_get_direction (UndodApply *apply)
{
  g_return_val_if_fail (UNDOD_IS_APPLY (apply), UNDOD_DIRECTION_UNDO);
  return apply->direction;
}

/**
 * undod_apply_get_group:
 * @apply: the request
 *
 * Returns: the id of the group being applied
 */
guint64
undod_apply_get_group (UndodApply *apply)
{
  g_return_val_if_fail (UNDOD_IS_APPLY (apply), 0);
  return apply->group;
}

/**
 * undod_apply_get_payloads:
 * @apply: the request
 *
 * Returns: (transfer none) (element-type GBytes): the payloads, in the order to apply them
 */
GPtrArray *
undod_apply_get_payloads (UndodApply *apply)
{
  g_return_val_if_fail (UNDOD_IS_APPLY (apply), NULL);
  return apply->payloads;
}

/**
 * undod_apply_get_finished:
 * @apply: the request
 *
 * Returns: whether the request has been answered
 */
gboolean
undod_apply_get_finished (UndodApply *apply)
{
  g_return_val_if_fail (UNDOD_IS_APPLY (apply), TRUE);
  return apply->finished;
}

/**
 * undod_apply_return_success:
 * @apply: the request
 *
 * Says every payload has been applied: undod moves the group.
 */
void
undod_apply_return_success (UndodApply *apply)
{
  g_return_if_fail (UNDOD_IS_APPLY (apply));
  g_return_if_fail (!apply->finished);
  if (apply->invocation != NULL)
    g_dbus_method_invocation_return_value (apply->invocation, NULL);
  finish (apply);
}

/**
 * undod_apply_return_error:
 * @apply: the request
 * @error: why the payloads could not be applied
 *
 * Says the payloads could not be applied: undod leaves the stack as it was
 * and the caller gets `ClientFailed` (an #UndodError's D-Bus name, such as
 * %UNDOD_ERROR_OBSOLETE's, travels as it is).
 */
void
undod_apply_return_error (UndodApply *apply, const GError *error)
{
  g_return_if_fail (UNDOD_IS_APPLY (apply));
  g_return_if_fail (error != NULL);
  g_return_if_fail (!apply->finished);
  (void) UNDOD_ERROR; /* registers the domain's D-Bus names */
  if (apply->invocation != NULL)
    g_dbus_method_invocation_return_gerror (apply->invocation, error);
  apply->error = g_error_copy (error);
  finish (apply);
}

/**
 * undod_apply_return_obsolete:
 * @apply: the request
 *
 * Says the group can no longer be applied (the file it restores is gone,
 * say): undod drops it and the caller gets `Obsolete`.
 */
void
undod_apply_return_obsolete (UndodApply *apply)
{
  g_autoptr (GError) error = g_error_new_literal (UNDOD_ERROR, UNDOD_ERROR_OBSOLETE,
                                                  "The application can no longer apply this group.");
  undod_apply_return_error (apply, error);
}
