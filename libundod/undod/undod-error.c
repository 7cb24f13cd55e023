/* undod-error.c: the error domain, and its D-Bus names. */

#include <gio/gio.h>

#include "undod-error.h"

static const GDBusErrorEntry undod_error_entries[] = {
  { UNDOD_ERROR_FAILED, "org.undod.Undo1.Error.Failed" },
  { UNDOD_ERROR_DAEMON_UNAVAILABLE, "org.undod.Undo1.Error.DaemonUnavailable" },
  { UNDOD_ERROR_CLOSED, "org.undod.Undo1.Error.Closed" },
  { UNDOD_ERROR_INVALID_APP_ID, "org.undod.Undo1.Error.InvalidAppId" },
  { UNDOD_ERROR_INVALID_NAME, "org.undod.Undo1.Error.InvalidName" },
  { UNDOD_ERROR_PAYLOAD_TOO_LARGE, "org.undod.Undo1.Error.PayloadTooLarge" },
  { UNDOD_ERROR_EMPTY_GROUP, "org.undod.Undo1.Error.EmptyGroup" },
  { UNDOD_ERROR_NOT_OWNER, "org.undod.Undo1.Error.NotOwner" },
  { UNDOD_ERROR_ALREADY_OWNED, "org.undod.Undo1.Error.AlreadyOwned" },
  { UNDOD_ERROR_NOT_DETACHED, "org.undod.Undo1.Error.NotDetached" },
  { UNDOD_ERROR_NOTHING_TO_UNDO, "org.undod.Undo1.Error.NothingToUndo" },
  { UNDOD_ERROR_NOTHING_TO_REDO, "org.undod.Undo1.Error.NothingToRedo" },
  { UNDOD_ERROR_NO_FOCUSED_STACK, "org.undod.Undo1.Error.NoFocusedStack" },
  { UNDOD_ERROR_NO_OWNER, "org.undod.Undo1.Error.NoOwner" },
  { UNDOD_ERROR_CLIENT_FAILED, "org.undod.Undo1.Error.ClientFailed" },
  { UNDOD_ERROR_OBSOLETE, "org.undod.Undo1.Error.Obsolete" },
  { UNDOD_ERROR_STORAGE_FAILED, "org.undod.Undo1.Error.StorageFailed" },
  { UNDOD_ERROR_TIMEOUT, "org.undod.Undo1.Error.Timeout" },
  { UNDOD_ERROR_BUSY, "org.undod.Undo1.Error.Busy" },
  { UNDOD_ERROR_TRIGGER_DISABLED, "org.undod.Undo1.Error.TriggerDisabled" },
  { UNDOD_ERROR_UNKNOWN_STACK, "org.undod.Undo1.Error.UnknownStack" },
  { UNDOD_ERROR_TOO_MANY_STACKS, "org.undod.Undo1.Error.TooManyStacks" },
  { UNDOD_ERROR_NOT_ALLOWED, "org.undod.Undo1.Error.NotAllowed" },
};

/**
 * undod_error_quark:
 *
 * The quark of %UNDOD_ERROR; registers the D-Bus names of its codes, so
 * that undod's error replies arrive as #UndodError codes and an apply
 * handler's #UndodError leaves under its contract name.
 *
 * Returns: the error domain's quark
 */
GQuark
undod_error_quark (void)
{
  static gsize quark = 0;
  g_dbus_error_register_error_domain ("undod-error-quark", &quark, undod_error_entries,
                                      G_N_ELEMENTS (undod_error_entries));
  return (GQuark) quark;
}
