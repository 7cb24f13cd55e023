/* undod-local-history.h: the history a stack keeps in the app while undod
 * is absent, with undod's own rules (merging, the clean state, a push
 * clearing the redo side). It knows nothing of the stack or the bus: the
 * stack asks it, and sends what it holds to undod when undod appears. */
#pragma once

#include <gio/gio.h>

#include "undod-apply.h"

G_BEGIN_DECLS

/* A group kept in the app. */
typedef struct {
  guint64 id;
  char *name;
  GPtrArray *actions; /* UndodAction, in the order done */
  char *merge_key;
  char *state_tag;     /* the document's tag after the group's latest push, or NULL */
  gint64 last_push_us; /* monotonic */
} UndodLocalGroup;

typedef struct {
  GQueue undo; /* UndodLocalGroup, top last */
  GQueue redo;
  guint64 last_id;
  /* Whether the top group may take a merge: no undo or redo since it was
   * pushed or merged into (the contract's rule). */
  gboolean merge_open;
  /* The state marked clean: the id of the top undo group then (0: the
   * empty state); G_MAXUINT64 when that state is gone (merged into). */
  guint64 clean_id;
} UndodLocalHistory;

/* The merge window undod uses when neither the push nor its config says
 * (`merge.window_ms`): the local history's. */
#define UNDOD_LOCAL_MERGE_WINDOW_MS 1000

void             undod_local_history_init      (UndodLocalHistory *history);
void             undod_local_history_clear     (UndodLocalHistory *history);
void             undod_local_history_start_at  (UndodLocalHistory *history, gboolean clean);
UndodLocalGroup *undod_local_history_push      (UndodLocalHistory *history, const char *name, GPtrArray *actions,
                                                GVariant *hints);
UndodLocalGroup *undod_local_history_top       (UndodLocalHistory *history, UndodDirection side);
const char      *undod_local_history_top_name  (UndodLocalHistory *history, UndodDirection side);
gboolean         undod_local_history_is_clean  (UndodLocalHistory *history);
void             undod_local_history_set_clean (UndodLocalHistory *history);
void             undod_local_history_begin_move (UndodLocalHistory *history);
void             undod_local_history_moved     (UndodLocalHistory *history, UndodDirection direction, guint64 group);
GPtrArray       *undod_local_group_payloads    (UndodLocalGroup *group, UndodDirection direction);
GVariant        *undod_local_group_push_group_body (UndodLocalGroup *group);

G_END_DECLS
