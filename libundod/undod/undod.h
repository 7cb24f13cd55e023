/* undod.h: everything an application needs to keep its undo history in
 * undod, the desktop-wide undo service. Include only this header. */
#pragma once

#define UNDOD_INSIDE
#include <undod/undod-action.h>
#include <undod/undod-apply.h>
#include <undod/undod-client.h>
#include <undod/undod-enum-types.h>
#include <undod/undod-error.h>
#include <undod/undod-hints.h>
#include <undod/undod-manager.h>
#include <undod/undod-options.h>
#include <undod/undod-stack.h>
#undef UNDOD_INSIDE
