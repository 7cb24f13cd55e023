#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/res.h>
