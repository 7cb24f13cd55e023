/* undod-client-private.h: what a client lends its stacks (undod-stack.c):
 * the sender their calls leave by, and being forgotten when closed. */
#pragma once

#include "undod-client.h"

G_BEGIN_DECLS

struct _UndodSender *undod_client_get_sender (UndodClient *client);
/* The client's own bus connection (its tests send over it). */
GDBusConnection     *undod_client_get_connection (UndodClient *client);
void                 undod_client_forget_stack (UndodClient *client, UndodStack *stack);

G_END_DECLS
