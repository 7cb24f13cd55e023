/* undod-stack-private.h: what a stack lends its client (undod-client.c),
 * which registers it, routes undod's Apply calls to it and follows undod
 * coming and going. */
#pragma once

#include "undod-apply.h"
#include "undod-client.h"
#include "undod-options.h"
#include "undod-stack.h"

G_BEGIN_DECLS

UndodStack *undod_stack_new_registered (UndodClient *client, const char *path, const char *app_id,
                                        UndodOptions *options);
void        undod_stack_set_path       (UndodStack *stack, const char *path);
void        undod_stack_catch_up       (UndodStack *stack);
void        undod_stack_go_local       (UndodStack *stack);
void        undod_stack_hold           (UndodStack *stack);
void        undod_stack_release        (UndodStack *stack);
gboolean    undod_stack_dispatch_apply (UndodStack *stack, UndodApply *apply);
const char *undod_stack_get_app_id     (UndodStack *stack);
UndodOptions *undod_stack_get_options  (UndodStack *stack);

G_END_DECLS
