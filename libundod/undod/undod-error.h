#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * UNDOD_ERROR:
 *
 * The error domain of libundod. Each code stands for one error of undod's
 * wire contract (`org.undod.Undo1.Error.<Name>`), plus the library's own
 * `DAEMON_UNAVAILABLE` and `CLOSED`; GDBus maps the names both ways.
 */
#define UNDOD_ERROR (undod_error_quark ())

/**
 * UndodError:
 * @UNDOD_ERROR_FAILED: a failure with no code of its own (the message says what)
 * @UNDOD_ERROR_DAEMON_UNAVAILABLE: undod is not running on this bus
 * @UNDOD_ERROR_CLOSED: the client or stack was closed
 * @UNDOD_ERROR_INVALID_APP_ID: the app id is not 1–255 characters of `[A-Za-z0-9._-]`
 * @UNDOD_ERROR_INVALID_NAME: an action name that is empty, too long or has control characters
 * @UNDOD_ERROR_PAYLOAD_TOO_LARGE: the group is larger than the stack may hold
 * @UNDOD_ERROR_EMPTY_GROUP: a group without actions
 * @UNDOD_ERROR_NOT_OWNER: only the stack's owner may do this
 * @UNDOD_ERROR_ALREADY_OWNED: another live process owns that stack
 * @UNDOD_ERROR_NOT_DETACHED: the stack has a live owner
 * @UNDOD_ERROR_NOTHING_TO_UNDO: the undo side is empty
 * @UNDOD_ERROR_NOTHING_TO_REDO: the redo side is empty
 * @UNDOD_ERROR_NO_FOCUSED_STACK: no stack has the user's focus
 * @UNDOD_ERROR_NO_OWNER: the stack's owner has left
 * @UNDOD_ERROR_CLIENT_FAILED: the app's apply handler failed
 * @UNDOD_ERROR_OBSOLETE: the group can no longer be applied (it was dropped)
 * @UNDOD_ERROR_STORAGE_FAILED: undod's store could not write
 * @UNDOD_ERROR_TIMEOUT: the app did not answer Apply in time
 * @UNDOD_ERROR_BUSY: an undo or redo is being applied; try again
 * @UNDOD_ERROR_TRIGGER_DISABLED: the stack opted out of the global trigger
 * @UNDOD_ERROR_UNKNOWN_STACK: no such stack
 * @UNDOD_ERROR_TOO_MANY_STACKS: this connection owns as many stacks as it may
 * @UNDOD_ERROR_NOT_ALLOWED: only the compositor may do this
 *
 * Why a call to undod failed.
 */
typedef enum {
  UNDOD_ERROR_FAILED,
  UNDOD_ERROR_DAEMON_UNAVAILABLE,
  UNDOD_ERROR_CLOSED,
  UNDOD_ERROR_INVALID_APP_ID,
  UNDOD_ERROR_INVALID_NAME,
  UNDOD_ERROR_PAYLOAD_TOO_LARGE,
  UNDOD_ERROR_EMPTY_GROUP,
  UNDOD_ERROR_NOT_OWNER,
  UNDOD_ERROR_ALREADY_OWNED,
  UNDOD_ERROR_NOT_DETACHED,
  UNDOD_ERROR_NOTHING_TO_UNDO,
  UNDOD_ERROR_NOTHING_TO_REDO,
  UNDOD_ERROR_NO_FOCUSED_STACK,
  UNDOD_ERROR_NO_OWNER,
  UNDOD_ERROR_CLIENT_FAILED,
  UNDOD_ERROR_OBSOLETE,
  UNDOD_ERROR_STORAGE_FAILED,
  UNDOD_ERROR_TIMEOUT,
  UNDOD_ERROR_BUSY,
  UNDOD_ERROR_TRIGGER_DISABLED,
  UNDOD_ERROR_UNKNOWN_STACK,
  UNDOD_ERROR_TOO_MANY_STACKS,
  UNDOD_ERROR_NOT_ALLOWED,
} UndodError;

GQuark undod_error_quark (void);

G_END_DECLS
